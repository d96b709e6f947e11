import Foundation
import HabitClient
import Interchange
import LedgerClient
import LinkClient
import LoopTesting
import Synchronization
import TestSupport
import Testing

/// The import's contract, checked after every step of generated sequences: an import lands
/// whole or changes nothing (a dry run never changes anything), and an import that failed
/// reports no summary.
@MainActor
@Suite struct InterchangeExplorationTests {
  @Test func everyGeneratedImportLandsWholeOrChangesNothing() async {
    let ledger = AtomicLedger()
    let result = await TestStore.explore(
      initialState: { Interchange.State() }, reducer: { Interchange() }, actions: Self.actions,
      runs: 20, steps: 6, invariantName: "isConsistent",
      invariant: { state in
        ledger.violations.isEmpty && !state.isImporting
          && (state.failure == nil || state.report == nil)
      },
      withDependencies: {
        $0.linkClient = .inMemory()
        $0.habitClient = .inMemory()
        $0.ledgerClient = ledger.tracking(.inMemory())
        $0.date = .constant(now)
        $0.uuid = .incrementing
        $0.calendar = gregorian(utc)
        $0.timeZone = utc
      })
    print("Interchange: \(result)")
  }

  /// Ledger CSV imports of one to six rows, now and then a bad one (a negative amount, a date
  /// that is not one), some of them dry runs.
  static var actions: ActionGenerator<Interchange.State, Interchange.Action> {
    ActionGenerator(
      .case { random, _ in
        let rows = (0..<random.int(in: 1...6)).map { _ in row(&random) }
        let text = (["date,kind,amount,memo,category"] + rows).joined(separator: "\n") + "\n"
        return .importSubmitted(
          ImportRequest(
            scope: .ledger, file: "ledger.csv", contents: Data(text.utf8), format: .csv,
            isDryRun: random.chance(0.2)))
      }
    )
  }

  /// One row: a day of January 2025, a kind, an amount, a memo.
  static func row(_ random: inout ExplorationRandom) -> String {
    let day = random.chance(0.05) ? "2025-13-40" : "2025-01-\(10 + random.int(in: 0...18))"
    let amount =
      random.chance(0.05) ? "-5.00" : "\(random.int(in: 1...900)).\(random.int(in: 10...99))"
    let kind = random.bool() ? "income" : "expense"
    return "\(day),\(kind),\(amount),\(random.string(length: 1...5)),"
  }
}

/// The ledger client, checking each import as it happens: one that throws leaves the count of
/// stored transactions as it was; one that returns adds exactly what it says it imported (none
/// in a dry run).
final class AtomicLedger: Sendable {
  private let found = Mutex<[String]>([])

  /// What broke the contract so far.
  var violations: [String] { found.withLock { $0 } }

  func tracking(_ client: LedgerClient) -> LedgerClient {
    found.withLock { $0 = [] }
    var tracked = client
    tracked.importTransactions = { [self] transactions, dryRun, progress in
      let before = try await client.fetchTransactions().count
      do {
        let summary = try await client.importTransactions(transactions, dryRun, progress)
        let after = try await client.fetchTransactions().count
        let expected = before + (dryRun ? 0 : summary.imported)
        if after != expected {
          found.withLock { $0.append("stored \(after), expected \(expected)") }
        }
        return summary
      } catch {
        let after = try await client.fetchTransactions().count
        if after != before {
          found.withLock { $0.append("a failed import changed \(before) to \(after)") }
        }
        throw error
      }
    }
    return tracked
  }
}
