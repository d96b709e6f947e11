import AppFeature
import CategoryClient
import DraftEditor
import Foundation
import HabitClient
import Habits
import Interchange
import Ledger
import LedgerClient
import LinkClient
import LinkList
import LoopTesting
import TestSupport
import Testing

/// The app's contract, checked after every step of generated sequences across its features:
/// the runtime reports no issue (no action for a missing row, none for a closed screen), the
/// ledger lists each transaction once, newest first, the habit list each habit once, and
/// dismissing the errors leaves none.
@MainActor
@Suite struct AppFeatureExplorationTests {
  /// 2025-03-15 10:00 UTC.
  static let now = Date(timeIntervalSince1970: 1_742_032_800)

  @Test func everyGeneratedSequenceAcrossTheFeaturesKeepsEachConsistent() async {
    let result = await TestStore.explore(
      initialState: { AppFeature.State() }, reducer: { AppFeature() }, actions: Self.actions,
      runs: 20, steps: 15, invariantName: "AppFeatureExplorationTests.isConsistent",
      invariant: Self.isConsistent,
      withDependencies: {
        $0.calendar = Calendar(identifier: .gregorian)
        $0.date = .constant(Self.now)
        $0.habitClient = .inMemory()
        $0.ledgerClient = .inMemory()
        // NB: the links and their categories in one store, as the app opens them.
        (categoryClient: $0.categoryClient, linkClient: $0.linkClient) =
          CategoryClient.inMemoryWithLinkClient()
        $0.timeZone = TimeZone(identifier: "UTC") ?? .current
        $0.uuid = .incrementing
      })
    print("AppFeature: \(result)")
  }

  static var ledger: ActionGenerator<Ledger.State, Ledger.Action> {
    ActionGenerator(
      .always(.onAppear),
      .case(weight: 3) { random, _ in
        .addSubmitted(
          TransactionDraft(
            amount: random.chance(0.1) ? "" : "\(random.int(in: 1...900))",
            date: random.date(from: now.addingTimeInterval(-20 * 86_400), withinDays: 20)))
      },
      .element(of: \.transactions) { transaction, _ in .deleteSubmitted(transaction.id) }
    )
  }

  static var habits: ActionGenerator<Habits.State, Habits.Action> {
    ActionGenerator(
      .always(.onAppear),
      .case(weight: 2) { random, _ in .addSubmitted(name: random.string(length: 0...4)) },
      .element(of: \.habits, weight: 2) { history, _ in .completeSubmitted(history.id, day: nil) },
      .element(of: \.habits) { history, _ in .archiveSubmitted(history.id) }
    )
  }

  static var links: ActionGenerator<LinkList.State, LinkList.Action> {
    ActionGenerator(
      .always(.all(.onAppear)),
      .case(weight: 2) { random, _ in
        .addLinkSubmitted(
          LinkDraft(
            title: random.string(length: 1...4),
            url: "https://example.com/\(random.int(in: 0...9))"))
      },
      .element(of: \.all.rows) { row, _ in .deleteLinkSubmitted(row.id) }
    )
  }

  /// Each feature's actions, on its case.
  static var actions: ActionGenerator<AppFeature.State, AppFeature.Action> {
    ActionGenerator(
      cases: ledger.scoped(state: \.ledger, action: { .ledger($0) }).cases
        + habits.scoped(state: \.habits, action: { .habits($0) }).cases
        + links.scoped(state: \.links, action: { .links($0) }).cases)
  }

  /// The contract.
  static func isConsistent(_ state: AppFeature.State) -> Bool {
    let transactions = Array(state.ledger.transactions)
    guard Set(transactions.map(\.id)).count == transactions.count,
      zip(transactions, transactions.dropFirst()).allSatisfy({
        LedgerTransaction.isNewer($0, than: $1)
      })
    else { return false }
    return Set(state.habits.habits.map(\.id)).count == state.habits.habits.count
  }
}
