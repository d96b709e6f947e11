import DraftEditor
import Foundation
import Ledger
import LedgerClient
import LedgerClientLive
import Loop
import LoopTesting
import Persistence

/// The exploration row: steps per second of `TestStore.explore` on the Ledger feature (each step
/// an action, its effects run to the end, the invariant checked), beside a `Store` sending the
/// same kind of action and awaiting its effect.
@MainActor
enum ExploreBenchmarks {
  static func run(_ settings: Settings) async -> [Measurement] {
    guard settings.includes("exploration") else { return [] }
    let runs = settings.size(20, quick: 2)
    let steps = 20
    let now = Date(timeIntervalSinceReferenceDate: 765_000_000)
    // NB: every dependency the ledger reads is set: one left to its test value fails the first
    // step, and the row would time a failure's report instead of the steps.
    let utc = TimeZone(identifier: "UTC") ?? .current
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = utc
    let store = Store(initialState: Ledger.State()) {
      Ledger()
    } withDependencies: {
      $0.ledgerClient = .live(opening: .inMemory)
      $0.date = .constant(now)
      $0.uuid = .incrementing
      $0.calendar = calendar
      $0.timeZone = utc
    }
    var amount = 0
    var failure: String?
    let times = await medianTimes(runs: settings.runs) {
      let result = await TestStore.explore(
        initialState: { Ledger.State() }, reducer: { Ledger() }, actions: actions(now: now),
        runs: runs, steps: steps, seed: 1,
        invariant: { state in state.transactions.count == Set(state.transactions.map(\.id)).count }
      ) {
        $0.ledgerClient = .live(opening: .inMemory)
        $0.date = .constant(now)
        $0.uuid = .incrementing
        $0.calendar = calendar
        $0.timeZone = utc
      }
      failure = failure ?? result.failure
    } baseline: {
      for _ in 0..<(runs * steps) {
        amount += 1
        let draft = TransactionDraft(amount: "\(amount)", date: now, memo: "Lunch")
        await store.send(.addSubmitted(draft)).finish()
      }
    }
    if let failure {
      // NB: a failed exploration stops at its failure: its "steps" were never run.
      fatalError("loop-bench: the exploration row's exploration failed:\n\(failure)")
    }
    return [
      Measurement(
        group: "TestStore", name: "exploration steps, Ledger", operations: runs * steps,
        ours: times.ours, baseline: times.baseline,
        baselineName: "Store.send, awaiting the effect", unit: .perSecond)
    ]
  }

  /// Adds (now and then invalid), deletes and opening the ledger.
  static func actions(now: Date) -> ActionGenerator<Ledger.State, Ledger.Action> {
    ActionGenerator(
      .always(.onAppear),
      .case(weight: 4) { random, _ in
        .addSubmitted(
          TransactionDraft(
            amount: random.chance(0.1) ? "" : "\(random.int(in: 1...5_000))",
            date: random.date(from: now.addingTimeInterval(-30 * 86_400), withinDays: 30)))
      },
      .element(of: \.transactions) { transaction, _ in .deleteSubmitted(transaction.id) }
    )
  }
}
