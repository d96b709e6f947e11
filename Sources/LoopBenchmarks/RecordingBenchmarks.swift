import Foundation
import LoopCLI

/// The REPL's script row with the session recorded (`loop --record`), beside the same script
/// not recorded: what recording costs.
@MainActor
enum RecordingBenchmarks {
  static func run(_ settings: Settings) async throws -> [Measurement] {
    let commands = settings.size(10_000, quick: 90)
    let name = "script mode recorded, \(commands.formatted()) add commands, in memory"
    guard settings.includes(name) else { return [] }
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("loop-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    // NB: the script of the REPL row (`REPLBenchmarks`), run through `loop`'s launcher on both
    // sides, so that only the recording differs.
    let script = (0..<commands).map { index -> String in
      switch index % 3 {
      case 0: "link add \"Link \(index)\" https://example.com/\(index)"
      case 1: "habit add \"Habit \(index)\""
      default: "ledger add expense \(index % 90 + 1).25 \"Item \(index)\""
      }
    }
    let scriptPath = folder.appendingPathComponent("script.loop").path
    try script.joined(separator: "\n").write(toFile: scriptPath, atomically: true, encoding: .utf8)
    let recordingPath = folder.appendingPathComponent("recording.txt").path
    let silent = Console(writeOutput: { _ in }, writeError: { _ in })
    var failures: Int32 = 0
    let times = await medianTimes(runs: settings.longRuns, warmUp: false) {
      failures += await Launcher.main(
        arguments: ["--in-memory", "--record", recordingPath, "--script", scriptPath],
        environment: [:], console: silent)
    } baseline: {
      failures += await Launcher.main(
        arguments: ["--in-memory", "--script", scriptPath], environment: [:], console: silent)
    }
    guard failures == 0 else {
      throw PersistenceBenchmarks.Failure(description: "the recorded benchmark script failed")
    }
    return [
      Measurement(
        group: "REPL", name: name, operations: commands, ours: times.ours,
        baseline: times.baseline, baselineName: "the same script, not recorded", unit: .perSecond)
    ]
  }
}
