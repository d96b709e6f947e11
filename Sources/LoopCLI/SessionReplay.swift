import AppFeature
import Foundation
import Interchange
import Loop
import Persistence
import Synchronization

/// `loop replay FILE`: runs a recorded session's commands again on a new in-memory database,
/// with the recorded dates, ids, clock readings, files and answers, and checks every action and
/// every state against the recording.
///
/// A recording starts from an empty database, or from the export it embeds (`value database`),
/// which is imported first. Each command must end as it did (succeed or fail), and the store
/// must process the recorded actions with the recorded changes; the first difference ends the
/// replay. Exports write no file.
@MainActor
enum SessionReplay {
  /// What a replay came to.
  enum Outcome: Equatable {
    /// Every command ended as recorded, every step matched.
    case identical(commands: Int, actions: Int)
    /// The store diverged from the recording: the message, with the step and a diff.
    case diverged(String)
    /// The replay could not go on: one sentence.
    case failed(String)
  }

  /// The usage line of `loop replay`.
  static let usage = "usage: loop replay FILE [--record NEW]"

  private static let recordingFile = Argument("file", help: "the recording to replay")
  private static let again = Option(
    "record", valueName: "NEW", help: "record it again into NEW, as the app runs now")

  /// Runs `loop replay` with the words after `replay`, read by the parser of the REPL's
  /// commands (``ParsedWords``).
  ///
  /// - Returns: 0 when the replay is identical, 1 when it diverged or could not run, 2 for bad
  ///   arguments.
  static func main(arguments: [String], console: Console) async -> Int32 {
    let words: ParsedWords
    do throws(ParseError) {
      words = try ParsedWords(
        parsing: arguments, declarations: recordingFile.declarations + again.declarations)
    } catch {
      switch error {
      case .missingArgument, .unexpectedArgument:
        console.printError("error: 'loop replay' takes one recording file")
      default:
        console.printError("error: \(error.description)")
      }
      console.printError(usage)
      return 2
    }
    // NB: both read the words as typed, which cannot fail.
    guard let file = try? recordingFile.value(in: words) else { return 2 }
    let newRecording = try? again.value(in: words)
    guard let text = console.readText(ofFile: file) else { return 1 }
    if let newRecording {
      switch await recordAgain(text, named: file, into: newRecording) {
      case .identical(let commands, _):
        console.print("recorded \(count(commands, "command")) again into '\(newRecording)'")
        return 0
      case .diverged(let message), .failed(let message):
        console.printError("error: \(message)")
        return 1
      }
    }
    switch await replay(text, named: file) {
    case .identical(let commands, let actions):
      console.print(
        "replayed \(count(commands, "command")), \(count(actions, "action")): identical")
      return 0
    case .diverged(let message):
      console.print(message)
      console.print(
        "If the change is meant: 'loop replay \(file) --record \(file)' records it again.")
      return 1
    case .failed(let sentence):
      console.printError("error: \(sentence)")
      return 1
    }
  }

  /// Replays the recording `text`.
  ///
  /// - Parameters:
  ///   - text: The recording's text.
  ///   - file: Its name, for messages.
  ///   - extraReducer: A reducer run after the app's, for tests that change its behaviour.
  /// - Returns: What the replay came to.
  static func replay(
    _ text: String, named file: String,
    extraReducer: Reduce<AppFeature.State, AppFeature.Action>? = nil
  ) async -> Outcome {
    let rerun: Rerun
    switch await Rerun.start(text, named: file, extraReducer: extraReducer) {
    case .success(let started): rerun = started
    case .failure(let failed): return failed.outcome
    }
    let replayer = Replayer(rerun.recording, store: rerun.session.store, values: rerun.values)
    if let failed = await rerun.runCommands(stoppingWhen: { replayer.divergence != nil }) {
      _ = replayer.finish()
      return failed
    }
    if let divergence = replayer.finish() { return .diverged(divergence) }
    return .identical(commands: rerun.recording.inputs.count, actions: replayer.stepsReplayed)
  }

  /// Runs a recording's commands with its dates, ids, clock readings, files and answers, as
  /// ``replay(_:named:extraReducer:)`` does, but records what the app does now into `path`
  /// instead of comparing: after a change of behaviour that is meant, the recording made again.
  ///
  /// Each command must still end as it did (succeed or fail), or nothing is written; a command
  /// that draws more values than were recorded fails.
  ///
  /// - Returns: `.identical` with the number of commands when the new recording is written,
  ///   `.failed` with one sentence otherwise.
  static func recordAgain(_ text: String, named file: String, into path: String) async -> Outcome {
    // NB: the session starts on dates and ids that are not the recording's, so that only the
    // store the recording starts (as `--record` does) draws the recorded ones.
    let rerun: Rerun
    switch await Rerun.start(text, named: file, extraReducer: nil, unrecordedStart: true) {
    case .success(let started): rerun = started
    case .failure(let failed): return failed.outcome
    }
    let session = rerun.session
    let temporary = path + ".partial"
    do {
      let database = rerun.recording.values(named: "database").first.map { Data($0.utf8) }
      try await session.startRecording(to: temporary, database: database, on: rerun.environment)
    } catch {
      return .failed(error.message)
    }
    if let failed = await rerun.runCommands(stoppingWhen: { false }) {
      session.stopRecording()
      try? FileManager.default.removeItem(atPath: temporary)
      return failed
    }
    session.stopRecording()
    // NB: rename(2) replaces `path` in one step: the recording being made again is often the
    // file replayed, and removing it first would lose it if the move then failed. The new file
    // takes the old one's mode.
    do {
      try PrivateFile.move(temporary, onto: path)
    } catch {
      try? FileManager.default.removeItem(atPath: temporary)
      return .failed("the recording '\(path)' cannot be written: \(error.reason)")
    }
    return .identical(commands: rerun.recording.inputs.count, actions: 0)
  }

  /// A recording's commands, about to run again on a session of their own.
  @MainActor private struct Rerun {
    /// Why a rerun could not start.
    struct Failed: Error { var outcome: Outcome }

    let recording: Recording
    let values: RecordedValues
    let environment: AppEnvironment
    let session: Session
    let errors: ErrorLines

    /// Reads the recording and makes the session: on the recorded environment, or (for
    /// `unrecordedStart`) on one whose dates and ids draw nothing from the recording.
    static func start(
      _ text: String, named file: String,
      extraReducer: Reduce<AppFeature.State, AppFeature.Action>?, unrecordedStart: Bool = false
    ) async -> Result<Rerun, Failed> {
      let recording: Recording
      do {
        recording = try Recording(text: text)
      } catch {
        return .failure(Failed(outcome: .failed("'\(file)' \(error)")))
      }
      let values = RecordedValues(recording)
      let environment: AppEnvironment
      do {
        environment = try await replayEnvironment(recording, values)
      } catch {
        return .failure(Failed(outcome: .failed(error.message)))
      }
      var sessionEnvironment = environment
      if unrecordedStart {
        sessionEnvironment.date = DateGenerator { Date(timeIntervalSinceReferenceDate: 0) }
        sessionEnvironment.uuid = .constant(
          UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
      }
      let errors = ErrorLines()
      let isInteractive = values.next("mode") == "interactive"
      let session = Session(
        environment: sessionEnvironment,
        console: Console(writeOutput: { _ in }, writeError: { errors.append($0) }),
        configuration: Session.Configuration(mode: isInteractive ? .interactive : .oneShot),
        extraReducer: extraReducer)
      session.replayedValues = values
      if isInteractive { session.reader = AnswerReader(values) }
      return .success(
        Rerun(
          recording: recording, values: values, environment: environment, session: session,
          errors: errors))
    }

    /// Runs the recorded commands until `stop` says so; a command that ends otherwise than
    /// recorded (fails, or now succeeds) stops the run with one sentence.
    func runCommands(stoppingWhen stop: () -> Bool) async -> Outcome? {
      let statuses = recording.values(named: "status")
      for (offset, input) in recording.inputs.enumerated() {
        errors.removeAll()
        let outcome = await session.execute(input)
        if offset < statuses.count, (outcome == .failure) != (statuses[offset] == "1") {
          let command = "command \(offset + 1) ('\(input)')"
          return .failed(
            outcome == .failure
              ? "\(command) now fails: \(errors.first ?? "")"
              : "\(command) failed when it was recorded, and now succeeds")
        }
        if stop() { break }
      }
      return nil
    }
  }

  /// A new in-memory database (with the recording's database imported), and the recorded time
  /// zone, calendar, dates, ids and clock.
  private static func replayEnvironment(
    _ recording: Recording, _ values: RecordedValues
  ) async throws(CommandError) -> AppEnvironment {
    let context: ModelContext
    do {
      context = ModelContext(try ModelContainer(for: AppEnvironment.models, storage: .inMemory))
    } catch {
      throw CommandError("an in-memory database cannot be opened: \(error)")
    }
    var environment = AppEnvironment.live(context: context)
    let zone = values.next("time-zone") ?? ""
    guard let timeZone = TimeZone(identifier: zone) else {
      throw CommandError("the recording's time zone '\(zone)' is not one this system knows")
    }
    let week = (values.next("calendar") ?? "").split(separator: " ").compactMap { Int($0) }
    var calendar = Calendar(identifier: .gregorian)
    if week.count == 2 {
      calendar.firstWeekday = week[0]
      calendar.minimumDaysInFirstWeek = week[1]
    }
    environment.timeZone = timeZone
    environment.calendar = calendar
    if let database = recording.values(named: "database").first {
      try await importDatabase(database, into: environment)
    }
    environment.date = values.date
    environment.uuid = values.uuid
    environment.continuousClock = RecordedClock(replaying: values)
    return environment
  }

  /// Imports the export a recording starts from, through a store of its own.
  private static func importDatabase(
    _ json: String, into environment: AppEnvironment
  ) async throws(CommandError) {
    let importer = Store(initialState: AppFeature.State()) {
      AppFeature()
    } withDependencies: {
      environment.apply(to: &$0)
    }
    let request = ImportRequest(
      scope: .everything, file: "the recording's database", contents: Data(json.utf8),
      format: .json)
    await importer.send(.interchange(.importSubmitted(request))).finish()
    if let failure = importer.state.interchange.failure {
      throw CommandError("the database the recording starts from cannot be imported: \(failure)")
    }
  }

  private static func count(_ count: Int, _ noun: String) -> String {
    "\(grouped(count)) \(noun)\(count == 1 ? "" : "s")"
  }
}

/// The errors a replayed command printed, without their `error: `.
private final class ErrorLines: Sendable {
  private let lines = Mutex<[String]>([])

  func append(_ text: String) {
    let line = text.hasSuffix("\n") ? String(text.dropLast()) : text
    lines.withLock { $0.append(line.hasPrefix("error: ") ? String(line.dropFirst(7)) : line) }
  }

  func removeAll() { lines.withLock { $0.removeAll() } }

  var first: String? { lines.withLock { $0.first } }
}

/// Answers confirmations with the recorded answers.
@MainActor
private final class AnswerReader: LineReader {
  private let values: RecordedValues

  init(_ values: RecordedValues) {
    self.values = values
  }

  func readLine(prompt: String) -> String? { values.next("answer") }

  func addToHistory(_ line: String) {}
}
