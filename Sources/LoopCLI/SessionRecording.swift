import AppFeature
import Foundation
import Interchange
import Loop
import Persistence

/// A session being recorded into a file, for `loop replay` (`loop --record FILE`, `:record FILE`).
///
/// The file is a ``Loop/Recording`` in its text form, written as the session goes: the header
/// and what the recording starts from first, then each command (an `input` entry), the values
/// drawn while it ran and its steps, and its exit status (`value status 0` or `1`), written out
/// when the command ends. So the file only grows, and a crash loses at most the command that was
/// running.
///
/// What a replay needs besides the commands:
/// - `value mode`: `interactive` (commands ask for confirmations) or `script`;
/// - `value time-zone` and `value calendar` (first weekday, minimum days in the first week):
///   they decide which day an instant falls on;
/// - `value database`: the whole database as a Loop export (JSON), when it was not empty as the
///   recording started; a replay imports it into an empty database first;
/// - `date` and `uuid` values: every "now" and every new id, in order;
/// - `clock` values: each reading of the clock effects time with (nanoseconds since the
///   recording started), which imports report;
/// - `file` values: each file an import read (its name, `text` or `base64`, then its contents);
/// - `answer` values: each answer to a confirmation.
///
/// A recording starts a new store over the same database, with nothing loaded, so that a replay
/// starts from the same state: the `initial` entry.
@MainActor
final class SessionRecording {
  /// Where the entries collect between commands.
  let recorder = Recorder()
  /// The environment before recording, to go back to when recording stops.
  let baseEnvironment: AppEnvironment
  private let handle: FileHandle
  /// The file, as the user named it.
  let file: String

  init(file: String, handle: FileHandle, baseEnvironment: AppEnvironment) {
    self.file = file
    self.handle = handle
    self.baseEnvironment = baseEnvironment
  }

  /// Records the command about to run.
  func begin(_ words: [String]) {
    recorder.record(.input(words.map(Self.quoted).joined(separator: " ")))
  }

  /// Records how the command ended, and writes out everything it recorded.
  func end(_ outcome: Session.Outcome) {
    recorder.record(.value(name: "status", outcome == .failure ? "1" : "0"))
    flush()
  }

  /// Records an answer to a confirmation.
  func recordAnswer(_ answer: String) {
    recorder.record(.value(name: "answer", answer))
  }

  /// Records the contents of a file an import read, or that it could not be read.
  func recordFile(named name: String, _ contents: Result<Data, InterchangeError>) {
    let value: String
    switch contents {
    case .success(let data):
      if let text = String(data: data, encoding: .utf8), Data(text.utf8) == data {
        value = "\(name)\ntext\n\(text)"
      } else {
        value = "\(name)\nbase64\n\(data.base64EncodedString(options: .lineLength76Characters))"
      }
    case .failure(let error): value = "\(name)\nunreadable: \(error.description)"
    }
    recorder.record(.value(name: "file", value))
  }

  /// Writes out the entries recorded since the last time.
  func flush() {
    let text = recorder.takeEntries().map(\.text).joined()
    guard !text.isEmpty else { return }
    // NB: one write per command: the file never holds half of an entry unless the process dies
    // inside this call.
    handle.write(Data(text.utf8))
  }

  /// Writes out what is left and closes the file.
  func close() {
    flush()
    try? handle.close()
  }

  /// A word as the tokenizer reads it back: as is when it is plain, else quoted.
  static func quoted(_ word: String) -> String {
    let plain = word.allSatisfy { $0.isLetter || $0.isNumber || "-_./:,@%+=~?&".contains($0) }
    if plain, !word.isEmpty { return word }
    if !word.contains("'") { return "'\(word)'" }
    return "\""
      + word.replacingOccurrences(of: "\\", with: "\\\\")
      .replacingOccurrences(of: "\"", with: "\\\"") + "\""
  }
}

extension Session {
  /// `:record FILE` starts recording into FILE (replacing it), `:record off` stops.
  func record(_ argument: String) async throws(CommandError) {
    // NB: a replay writes no file. A recording never holds ':record' (it is not recorded), so
    // one that does was written by hand, perhaps by someone else: it must not name a file here.
    guard replayedValues == nil else {
      throw CommandError("a replay writes no files: ':record \(argument)' is not run")
    }
    if argument == "off" {
      guard let recording else {
        throw CommandError("nothing is being recorded", hints: ["start with ':record FILE'"])
      }
      stopRecording()
      console.print("Recorded into '\(recording.file)'.")
      return
    }
    try await startRecording(to: argument)
    console.print("Recording into '\(argument)': 'loop replay \(argument)' replays it.")
  }

  /// Starts recording into `file`, from a new store (see ``SessionRecording``).
  ///
  /// - Throws: ``CommandError`` when the file cannot be written, or the database exported.
  func startRecording(
    to file: String, database given: Data? = nil, on base: AppEnvironment? = nil
  ) async throws(CommandError) {
    let environment = base ?? self.environment
    if recording != nil { stopRecording() }
    let path = recordingPath(of: file)
    let handle: FileHandle
    do {
      handle = try PrivateFile.openForWriting(atPath: path)
    } catch {
      throw CommandError("the recording '\(file)' cannot be written: \(error.reason)")
    }
    handle.write(Data((Recording.header + "\n").utf8))
    let recording = SessionRecording(file: file, handle: handle, baseEnvironment: environment)
    self.recording = recording
    let recorder = recording.recorder
    recorder.record(
      .value(name: "mode", configuration.mode == .interactive ? "interactive" : "script"))
    recorder.record(.value(name: "time-zone", environment.timeZone.identifier))
    recorder.record(
      .value(
        name: "calendar",
        "\(environment.calendar.firstWeekday) \(environment.calendar.minimumDaysInFirstWeek)"))
    let database: Data?
    if let given { database = given } else { database = try await self.database() }
    if let database {
      recorder.record(.value(name: "database", String(decoding: database, as: UTF8.self)))
    }
    var recorded = environment
    recorded.date = recorder.recording(environment.date)
    recorded.uuid = recorder.recording(environment.uuid)
    recorded.continuousClock = RecordedClock(recording: environment.continuousClock, recorder)
    restart(on: recorded)
    store.record(into: recorder)
    recording.flush()
  }

  /// Stops recording, writes out what is left, and starts over on the unrecorded environment.
  func stopRecording() {
    guard let recording else { return }
    store.record(into: nil)
    recording.close()
    self.recording = nil
    restart(on: recording.baseEnvironment)
  }

  /// The whole database as a Loop export, or `nil` when it is empty.
  private func database() async throws(CommandError) -> Data? {
    // NB: through a store of its own, on the environment before recording: the export is not
    // part of the session, and draws nothing a replay would have to hand out.
    let environment = self.environment
    let exporter = Store(initialState: AppFeature.State()) {
      AppFeature()
    } withDependencies: {
      environment.apply(to: &$0)
    }
    await exporter.send(.interchange(.exportSubmitted(ExportRequest(scope: .everything)))).finish()
    if let failure = exporter.state.interchange.failure {
      throw CommandError("the database cannot be exported into the recording: \(failure)")
    }
    guard let file = exporter.state.interchange.exportedFile else { return nil }
    let counts = file.counts
    let total =
      counts.categories + counts.links + counts.comments + counts.habits + counts.completions
      + counts.transactions
    return total == 0 ? nil : file.contents
  }

  /// The path of the recording the user named: relative paths start at the configured
  /// directory.
  private func recordingPath(of file: String) -> String {
    guard let directory = configuration.currentDirectory, !file.hasPrefix("/") else {
      return file
    }
    return PrivateFile.joined(directory, file)
  }

  /// Reads the file an import names: recorded while recording; during a replay, the contents
  /// the recording holds.
  func readImportFile(atPath path: String, named file: String) throws(InterchangeError) -> Data {
    if replayedValues != nil {
      guard let data = try replayedFile(named: file) else {
        throw .unreadableFile(file: file, reason: "there is no such file")
      }
      return data
    }
    let result = Result { () throws(InterchangeError) in
      try ImportFile.read(atPath: path, named: file)
    }
    recording?.recordFile(named: file, result)
    return try result.get()
  }

  /// Reads a file an import uses when it exists (a statement's `FILE.rules`), `nil` when it
  /// does not: recorded, its absence too, while recording; during a replay, as the recording
  /// holds it.
  func readImportFileIfPresent(
    atPath path: String, named file: String
  ) throws(InterchangeError) -> Data? {
    if replayedValues != nil { return try replayedFile(named: file) }
    guard FileManager.default.fileExists(atPath: path) else {
      recording?.recorder.record(.value(name: "file", "\(file)\nabsent"))
      return nil
    }
    return try readImportFile(atPath: path, named: file)
  }

  /// The next file a replay's recording holds; `nil` when it was recorded absent.
  private func replayedFile(named file: String) throws(InterchangeError) -> Data? {
    guard let value = replayedValues?.next("file") else {
      throw .unreadableFile(file: file, reason: "the recording holds no more files")
    }
    // NB: recorded again as it was, when a replay records (`loop replay FILE --record NEW`).
    recording?.recorder.record(.value(name: "file", value))
    let lines = value.split(separator: "\n", maxSplits: 2, omittingEmptySubsequences: false)
    let contents = lines.count > 2 ? String(lines[2]) : ""
    switch lines.count > 1 ? lines[1] : "" {
    case "text": return Data(contents.utf8)
    case "absent": return nil
    case "base64":
      if let data = Data(base64Encoded: contents, options: .ignoreUnknownCharacters) {
        return data
      }
      throw .unreadableFile(file: file, reason: "the recording holds it damaged")
    default:
      throw .unreadableFile(file: file, reason: "it could not be read when it was recorded")
    }
  }

  /// Writes the file an export made; a replay writes nothing.
  func writeExportFile(
    _ exported: ExportedFile, toPath path: String, named file: String
  ) throws(InterchangeError) {
    guard replayedValues == nil else { return }
    try exported.write(toPath: path, named: file)
  }
}
