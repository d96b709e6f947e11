import Foundation
import HabitClient
import LedgerClient
import LinkClient
import Loop
import LoopCLI
import Persistence

/// Row 6: the REPL in script mode on an in-memory database, beside the same writes made by
/// calling the clients directly (what the commands come down to).
@MainActor
enum REPLBenchmarks {
  static func run(_ settings: Settings) async throws -> [Measurement] {
    let commands = settings.size(10_000, quick: 90)
    let script = (0..<commands).map { index -> String in
      switch index % 3 {
      case 0: "link add \"Link \(index)\" https://example.com/\(index)"
      case 1: "habit add \"Habit \(index)\""
      default: "ledger add expense \(index % 90 + 1).25 \"Item \(index)\""
      }
    }
    var failures: Int32 = 0
    // NB: ten thousand commands warm the code up in their first hundred; no separate warm-up.
    let times = try await medianTimes(runs: settings.longRuns, warmUp: false) {
      let session = Session(
        environment: try environment(),
        console: Console(writeOutput: { _ in }, writeError: { _ in }),
        configuration: .init(mode: .script(name: "bench")))
      failures += await session.run(ScriptedLineReader(lines: script))
    } baseline: {
      let environment = try environment()
      for index in 0..<commands {
        switch index % 3 {
        case 0:
          _ = try await environment.linkClient.addLink(
            LinkDraft(title: "Link \(index)", url: "https://example.com/\(index)"))
        case 1:
          _ = try await environment.habitClient.create("Habit \(index)")
        default:
          _ = try await environment.ledgerClient.addTransaction(
            LedgerTransaction(
              id: LedgerTransaction.ID(UUID()), kind: .expense,
              amount: Money(minorUnits: Int64(index % 90 + 1) * 100 + 25), date: Date(),
              memo: "Item \(index)", createdAt: Date()))
        }
      }
    }
    guard failures == 0 else {
      throw PersistenceBenchmarks.Failure(description: "the benchmark script failed")
    }
    return [
      Measurement(
        group: "REPL", name: "script mode, \(commands.formatted()) add commands, in memory",
        operations: commands, ours: times.ours, baseline: times.baseline,
        baselineName: "the same client calls", unit: .perSecond)
    ]
  }

  /// A fresh in-memory database with the live clock, ids and calendar.
  private static func environment() throws -> AppEnvironment {
    AppEnvironment.live(
      context: ModelContext(try ModelContainer(for: AppEnvironment.models, storage: .inMemory)))
  }
}
