import Foundation
import LoopTesting
import TestSupport
import Testing

@testable import LoopCLI

/// Generated hostile command lines, run through the `loop` binary as a script with
/// `--keep-going` in a scratch folder: whatever a line holds (a real command with nonsense, a
/// word that is none, quotes left open, control and non-ASCII characters, odd and short file
/// names), `loop` answers it or refuses it, and never dies by a signal.
///
/// A short run is part of every `swift test` and of CI (against the release build); each run
/// prints its seed. `LOOP_FUZZ_SEED=S` replays a seed, `LOOP_FUZZ_RUNS=N` runs N scripts (a
/// long run on demand: `LOOP_FUZZ_RUNS=2000 swift test --filter FuzzBinaryTests`).
@Suite struct FuzzBinaryTests {
  /// How many scripts a run feeds the binary: `LOOP_FUZZ_RUNS`, or a few by default.
  static var runs: Int {
    ProcessInfo.processInfo.environment["LOOP_FUZZ_RUNS"].flatMap { Int($0) } ?? 40
  }

  /// The run's seed: `LOOP_FUZZ_SEED`, or a new one each run.
  static var seed: UInt64 {
    ProcessInfo.processInfo.environment["LOOP_FUZZ_SEED"].flatMap { UInt64($0) }
      ?? UInt64.random(in: 0...UInt64.max)
  }

  /// Every command's name (`link add`, `:record`), and the options they declare.
  static let names = CommandTable.commands.map(\.name)
  static let options = Set(
    CommandTable.commands.flatMap { $0.options.map { "--\($0.name)" } }
  ).sorted()
  static let nouns = ["link", "category", "habit", "ledger", "lnk", "", "LINK"]
  static let verbs = ["add", "list", "rm", "import", "export", "show", "update", "x", "-", "--"]

  /// File names a user may type: short, odd, folders, nothing; all inside the scratch folder
  /// (none climbs out of it with `../`, none is absolute but `/`, which is a folder).
  static let fileNames = [
    "x", "é", "a b", "x/", ".", "..", "/", "", "-", "--", "~", "*", "x.csv", "x.html",
    "x.json", "x.csv.rules", "ü.csv", "'", "\"", "\\", "a\tb", "%s", "$HOME", "data.sqlite",
    "rec.txt", "😀.json", ".x", "x.", "a;b.csv",
  ]

  /// Words that are no valid value anywhere, or only just one.
  static let hostileWords = [
    "\"", "'", "\"open", "'open", "\"\"", "''", "\\", "\\\"", "a\\ b", "\u{1}", "\u{1B}[2J",
    "\u{7F}", "\u{8}", "\t", "\r", "\u{0}", "é", "😀", "\u{202E}abc", "e\u{301}", "\u{FEFF}",
    "ß", "ﬃ", "İ", "0", "-1", "-0", "1e400", "99999999999999999999", "12.505", "1,000.00",
    "NaN", "-", "--", "---x", "--=", "2025-02-30", "0000-00-00", "today", "abc", "fff",
    "0000000", "https://", "http://[::1", "javascript:x", "%", "%d", "{}", "$(x)", "*",
    String(repeating: "a", count: 300), String(repeating: "é", count: 70), "on", "off", "yes",
    "expense", "income", "csv", "json", "html", "dd.MM.yyyy", ",", ".", ";",
    // NB: and values a command takes, so that lines get past the parser to the features.
    "Food", "Dev", "Read", "12.50", "3000", "2025-03-01", "Swift", "https://example.com",
    "text", "expense", "1", "2", "10", "--yes", "--dry-run", "--format", "json",
  ]

  /// One generated line.
  static func line(_ generator: inout SplitMix64) -> String {
    var words: [String] = []
    switch Int.random(in: 0..<10, using: &generator) {
    case 0..<6: words.append(names.randomElement(using: &generator) ?? "help")
    case 6..<8:
      words.append(nouns.randomElement(using: &generator) ?? "")
      words.append(verbs.randomElement(using: &generator) ?? "")
    case 8: words.append(hostileWords.randomElement(using: &generator) ?? "")
    default: break
    }
    for _ in 0..<Int.random(in: 0...5, using: &generator) {
      switch Int.random(in: 0..<10, using: &generator) {
      case 0..<3: words.append(fileNames.randomElement(using: &generator) ?? "x")
      case 3..<5: words.append(options.randomElement(using: &generator) ?? "--x")
      case 5..<9: words.append(hostileWords.randomElement(using: &generator) ?? "")
      default:
        let word = fileNames.randomElement(using: &generator) ?? "x"
        words.append(Bool.random(using: &generator) ? "'\(word)'" : "\"\(word)\"")
      }
    }
    return words.joined(separator: Bool.random(using: &generator) ? " " : "  ")
  }

  /// The data a script starts from, so that refs, reports and exports have something to show.
  static let setup = """
    category add Dev
    link add Swift https://swift.org --category Dev
    habit add Read
    ledger add expense 12.50 Lunch --category Food
    ledger add income 3000 Salary
    export x.json
    ledger export x.csv

    """

  @Test func hostileCommandLinesNeverKillLoop() throws {
    let seed = Self.seed
    let runs = Self.runs
    print("FuzzBinaryTests: seed \(seed), \(runs) runs; LOOP_FUZZ_SEED=\(seed) replays them")
    var generator = SplitMix64(seed: seed)
    let folder = try TemporaryFolder()
    for run in 0..<runs {
      let lines = (0..<25).map { _ in Self.line(&generator) }
      let script = Self.setup + lines.joined(separator: "\n") + "\n"
      try Data(script.utf8).write(to: URL(fileURLWithPath: folder.path("fuzz.loop")))
      let arguments =
        run.isMultiple(of: 2)
        ? ["--db", "fuzz.sqlite", "--keep-going", "--script", "fuzz.loop"]
        : ["--in-memory", "--keep-going"]
      let result = try runLoop(
        in: folder, arguments, input: run.isMultiple(of: 2) ? "" : script, timeout: 120)
      let replay = "LOOP_FUZZ_SEED=\(seed) LOOP_FUZZ_RUNS=\(run + 1) replays it"
      #expect(
        result.signal == nil,
        "signal \(result.signal ?? 0) on run \(run) (\(replay)):\n\(script)\n\(result.error)")
      #expect(!result.timedOut, "no answer in 120 s on run \(run) (\(replay)):\n\(script)")
      #expect(
        result.status == 0 || result.status == 1 || result.signal != nil,
        "status \(result.status) on run \(run) (\(replay)):\n\(script)\n\(result.error)")
    }
  }
}
