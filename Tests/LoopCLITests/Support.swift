import Foundation
import HabitClient
import LedgerClient
import Loop
import LoopCLI
import LoopTesting
import Persistence
import Synchronization
import TestSupport

/// Text written to a console, collected for a test.
final class Captured: Sendable {
  private let text = Mutex("")

  /// Appends text.
  func append(_ more: String) { text.withLock { $0 += more } }

  /// Everything written so far.
  var value: String { text.withLock { $0 } }
}

/// Seoul: every date a transcript prints is in this time zone, 9 hours ahead of UTC.
let seoul = TimeZone(identifier: "Asia/Seoul") ?? .current

/// "Now" in transcripts: Saturday 2025-03-15, 10:00 in Seoul.
let transcriptNow = Date(timeIntervalSince1970: 1_742_000_400)

/// UUIDs from a fixed seed (SplitMix64): they look random, so refs differ in their first
/// digits as real ones do, and are the same on every run.
func seededUUIDs(seed: UInt64 = 1) -> UUIDGenerator {
  let state = Mutex(SplitMix64(seed: seed))
  return UUIDGenerator {
    func next() -> UInt64 { state.withLock { $0.next() } }
    let high = next()
    let low = next()
    let bytes =
      (0..<8).map { UInt8(truncatingIfNeeded: high >> (56 - 8 * $0)) }
      + (0..<8).map { UInt8(truncatingIfNeeded: low >> (56 - 8 * $0)) }
    return UUID(
      uuid: (
        bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
        bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
      ))
  }
}

/// The environment of transcripts: one in-memory container for every client, fixed time in
/// Seoul, weeks from Monday, seeded ids.
func transcriptEnvironment(
  now: Date = transcriptNow, context: ModelContext? = nil
) throws -> AppEnvironment {
  let context =
    try context
    ?? ModelContext(
      ModelContainer(for: AppEnvironment.models, storage: .inMemory))
  var environment = AppEnvironment.live(context: context)
  var calendar = Calendar(identifier: .gregorian)
  calendar.firstWeekday = 2
  calendar.timeZone = seoul
  environment.calendar = calendar
  environment.timeZone = seoul
  environment.date = .constant(now)
  environment.uuid = seededUUIDs()
  environment.continuousClock = ImmediateClock()
  return environment
}

/// A line reader that writes each line it hands out into the transcript, after `> `.
@MainActor
final class EchoingReader: LineReader {
  private var lines: ArraySlice<String>
  private let transcript: Captured

  init(_ script: String, transcript: Captured) {
    self.lines =
      script.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)[...]
    if self.lines.last == "" { self.lines.removeLast() }
    self.transcript = transcript
  }

  func readLine(prompt: String) -> String? {
    guard let line = lines.popFirst() else { return nil }
    transcript.append(prompt.isEmpty || prompt == "loop> " ? "> \(line)\n" : "\(prompt)\(line)\n")
    return line
  }

  func addToHistory(_ line: String) {}
}

/// What a transcript run produced.
struct TranscriptResult {
  /// The commands (after `> `), their output, and their errors (after `! `), in order.
  var transcript: String
  /// The exit status.
  var status: Int32
}

/// Runs a script through a session and returns everything it printed, interleaved.
///
/// - Parameters:
///   - script: The commands, one per line.
///   - mode: How the session runs; a script named `test` by default.
///   - keepGoing: Whether the script goes on after a failing command.
///   - environment: The environment; the transcript one by default.
///   - databasePath: The database file the session names in storage failures.
///   - currentDirectory: Where the files the commands name are; the process's by default.
/// - Returns: The transcript and the exit status.
/// - Throws: When the transcript environment cannot be made.
@MainActor
func transcript(
  _ script: String, mode: Session.Configuration.Mode = .script(name: "test"),
  keepGoing: Bool = true, environment: AppEnvironment? = nil, databasePath: String? = nil,
  currentDirectory: String? = nil
) async throws -> TranscriptResult {
  let log = Captured()
  let console = Console(
    writeOutput: { log.append($0) },
    writeError: { text in
      log.append(
        text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
          .map { "! \($0)\n" }.joined())
    })
  let session = Session(
    environment: try environment ?? transcriptEnvironment(), console: console,
    configuration: Session.Configuration(
      mode: mode, keepGoing: keepGoing, databasePath: databasePath,
      currentDirectory: currentDirectory))
  let status = await session.run(EchoingReader(script, transcript: log))
  return TranscriptResult(transcript: log.value, status: status)
}

/// UUIDs whose first eight hexadecimal digits count up from `start` (`0000002a-…` is the 42nd):
/// a generated script knows the ref of every model it creates, and refs never share a prefix.
func countingRefUUIDs(from start: UInt32 = 0) -> UUIDGenerator {
  let counter = Mutex(start)
  return UUIDGenerator {
    let value = counter.withLock { value in
      defer { value += 1 }
      return value
    }
    return UUID(uuidString: "\(hex8(value))-0000-4000-8000-000000000000") ?? UUID()
  }
}

/// `value` as eight lowercase hexadecimal digits: the ref of the model `countingRefUUIDs` gave
/// that number.
func hex8(_ value: UInt32) -> String {
  let digits = String(value, radix: 16)
  return String(repeating: "0", count: 8 - digits.count) + digits
}
