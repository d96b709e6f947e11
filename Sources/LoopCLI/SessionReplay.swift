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
  static let usage = "usage: loop replay FILE"

  /// Runs `loop replay` with the words after `replay`.
  ///
  /// - Returns: 0 when the replay is identical, 1 when it diverged or could not run, 2 for bad
  ///   arguments.
  static func main(arguments: [String], console: Console) async -> Int32 {
    guard arguments.count == 1, let file = arguments.first else {
      console.printError("error: 'loop replay' takes one recording file")
      console.printError(usage)
      return 2
    }
    let text: String
    do {
      text = try String(contentsOfFile: file, encoding: .utf8)
    } catch {
      console.printError(
        "error: the recording '\(file)' cannot be read: \(error.localizedDescription)")
      return 1
    }
    switch await replay(text, named: file) {
    case .identical(let commands, let actions):
      console.print(
        "replayed \(count(commands, "command")), \(count(actions, "action")): identical")
      return 0
    case .diverged(let message):
      console.print(message)
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
    let recording: Recording
    do {
      recording = try Recording(text: text)
    } catch {
      return .failed("'\(file)' \(error)")
    }
    let values = RecordedValues(recording)
    let environment: AppEnvironment
    do {
      environment = try await replayEnvironment(recording, values)
    } catch {
      return .failed(error.message)
    }
    let errors = ErrorLines()
    let isInteractive = values.next("mode") == "interactive"
    let session = Session(
      environment: environment,
      console: Console(writeOutput: { _ in }, writeError: { errors.append($0) }),
      configuration: Session.Configuration(mode: isInteractive ? .interactive : .oneShot),
      extraReducer: extraReducer)
    session.replayedValues = values
    let answers = AnswerReader(values)
    if isInteractive { session.reader = answers }
    let replayer = Replayer(recording, store: session.store, values: values)
    let statuses = recording.values(named: "status")
    for (offset, input) in recording.inputs.enumerated() {
      errors.removeAll()
      let outcome = await session.execute(input)
      if offset < statuses.count, (outcome == .failure) != (statuses[offset] == "1") {
        _ = replayer.finish()
        let command = "command \(offset + 1) ('\(input)')"
        return .failed(
          outcome == .failure
            ? "\(command) now fails: \(errors.first ?? "")"
            : "\(command) failed when it was recorded, and now succeeds")
      }
      if replayer.divergence != nil { break }
    }
    if let divergence = replayer.finish() { return .diverged(divergence) }
    return .identical(commands: recording.inputs.count, actions: replayer.stepsReplayed)
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
    if let message = importer.state.firstErrorMessage {
      throw CommandError("the database the recording starts from cannot be imported: \(message)")
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
