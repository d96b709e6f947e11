import DraftEditor
import Foundation
import Ledger
import LedgerClient
import LoopTesting
import Synchronization
import TestSupport
import Testing

/// The ledger's contract, checked after every step of generated sequences: once a step's effects
/// finished nothing is loading or saving, the transactions listed are those the client stores,
/// each once, newest first, and this month's summary is the sum of this month's transactions.
@MainActor
@Suite struct LedgerExplorationTests {
  @Test func everyGeneratedSequenceKeepsTheLedgerInStepWithItsClient() async {
    let stored = StoredTransactions()
    let result = await TestStore.explore(
      initialState: { Ledger.State() }, reducer: { Ledger() }, actions: Self.actions,
      runs: 30, steps: 15, invariantName: "isConsistent",
      invariant: { Self.isConsistent($0, stored: stored.snapshot) },
      withDependencies: {
        $0.ledgerClient = stored.tracking(.inMemory())
        $0.date = .constant(now)
        $0.uuid = .incrementing
        $0.calendar = gregorian(utc)
        $0.timeZone = seoul
      })
    print("Ledger: \(result)")
  }

  /// What a person does in the ledger: opens it, adds, edits and deletes transactions (some
  /// invalid), and opens the editor, types a draft in it, saves it, and closes what is
  /// presented.
  static var actions: ActionGenerator<Ledger.State, Ledger.Action> {
    ActionGenerator(
      .always(.onAppear),
      .always(.newSubmitted),
      .case(weight: 4) { random, _ in .addSubmitted(draft(&random)) },
      .element(of: \.transactions, weight: 2) { transaction, _ in
        .deleteSubmitted(transaction.id)
      },
      .element(of: \.transactions, weight: 2) { transaction, random in
        .updateSubmitted(transaction.id, draft(&random))
      },
      .element(of: \.transactions) { transaction, _ in .editSubmitted(transaction.id) },
      .case(weight: 2) { random, state in
        state.destination?.editor == nil
          ? nil : .destination(.presented(.editor(.binding(.set(\.draft, draft(&random))))))
      },
      .case(weight: 2) { _, state in
        state.destination?.editor == nil ? nil : .destination(.presented(.editor(.saveSubmitted)))
      },
      .case { _, state in state.destination == nil ? nil : .destination(.dismiss) }
    )
  }

  /// A draft as typed: an amount (now and then blank), a day within two months before now.
  static func draft(_ random: inout ExplorationRandom) -> TransactionDraft {
    TransactionDraft(
      kind: random.bool() ? .income : .expense,
      amount: random.chance(0.1) ? "" : "\(random.int(in: 1...5_000))",
      date: random.date(from: now.addingTimeInterval(-60 * 86_400), withinDays: 60),
      memo: random.string(length: 0...6), category: random.bool() ? "Food" : "")
  }

  /// The contract: nothing left loading or saving, a failure shown asks nothing, listed once
  /// each, newest first, as stored, and this month's sums.
  static func isConsistent(_ state: Ledger.State, stored: [LedgerTransaction.ID: LedgerTransaction])
    -> Bool
  {
    // NB: each step ends with its effects finished: nothing is still loading or saving.
    guard !state.isLoading, state.destination?.editor?.isSaving != true else { return false }
    guard state.destination?.alert?.buttons.isEmpty ?? true,
      state.destination?.editor?.alert?.buttons.isEmpty ?? true
    else { return false }
    let ids = state.transactions.map(\.id)
    guard Set(ids).count == ids.count else { return false }
    guard
      zip(state.transactions, state.transactions.dropFirst()).allSatisfy({
        LedgerTransaction.isNewer($0, than: $1)
      })
    else { return false }
    // NB: every save and delete reaches the list, loaded or not: it is what is stored.
    guard state.transactions.count == stored.count,
      state.transactions.allSatisfy({ stored[$0.id] == $0 })
    else { return false }
    guard let month = state.months.last, let summary = state.home.thisMonth else { return true }
    let inMonth = state.transactions.filter { $0.date >= month.start && $0.date < month.end }
    let income = inMonth.filter { $0.kind == .income }.reduce(0) { $0 + $1.amount.minorUnits }
    let expense = inMonth.filter { $0.kind == .expense }.reduce(0) { $0 + $1.amount.minorUnits }
    return summary.income.minorUnits == income && summary.expense.minorUnits == expense
      && summary.balance.minorUnits == income - expense
  }
}

/// What the client stores, as the exploration saw it succeed: the model the listed transactions
/// are checked against.
final class StoredTransactions: Sendable {
  private let storage = Mutex<[LedgerTransaction.ID: LedgerTransaction]>([:])

  var snapshot: [LedgerTransaction.ID: LedgerTransaction] { storage.withLock { $0 } }

  /// `client`, noting what it stores.
  func tracking(_ client: LedgerClient) -> LedgerClient {
    storage.withLock { $0 = [:] }
    var tracked = client
    tracked.addTransaction = { [self] transaction in
      let added = try await client.addTransaction(transaction)
      self.storage.withLock { $0[added.id] = added }
      return added
    }
    tracked.updateTransaction = { [self] transaction in
      let updated = try await client.updateTransaction(transaction)
      self.storage.withLock { $0[updated.id] = updated }
      return updated
    }
    tracked.deleteTransaction = { [self] id in
      try await client.deleteTransaction(id)
      _ = self.storage.withLock { $0.removeValue(forKey: id) }
    }
    return tracked
  }
}
