import Foundation
import LedgerClient
import Loop

/// The ledger's home screen: this month's balance and the latest transactions.
///
/// Everything it shows derives from the ``Ledger``'s transactions (see
/// ``Ledger/State/home``), so a change saved anywhere shows here in the same step. Its buttons
/// ask the ledger to open the editor.
public struct LedgerHome: Reducer {
  /// What the home screen shows, derived from the ledger's state.
  public struct State: Equatable, Sendable {
    /// This month's income, expense and balance; `nil` until the ledger knows today.
    public var thisMonth: MonthSummary?
    /// The ``recentCount`` most recent transactions, newest first
    /// (``LedgerClient/LedgerTransaction/isNewer(_:than:)``: date descending, then `createdAt`
    /// descending, then id: a total order, so the input's order never shows).
    public var recent: [LedgerTransaction]

    /// How many recent transactions the home screen lists: 4.
    public static let recentCount = 4

    /// Derives the home screen from the transactions.
    ///
    /// - Parameters:
    ///   - transactions: Every transaction, in any order.
    ///   - month: The current month, or `nil` when it is not known yet.
    /// - Complexity: O(*n* log *n*).
    public init(transactions: some Sequence<LedgerTransaction>, month: LedgerMonth?) {
      thisMonth = month.map { MonthSummary(month: $0, transactions: transactions) }
      recent = Array(transactions.sorted(by: LedgerTransaction.isNewer).prefix(Self.recentCount))
    }
  }

  /// What happens on the home screen.
  public enum Action: Equatable, Sendable {
    /// The person asked for a new transaction.
    case newSubmitted
    /// A request to the ledger.
    case delegate(Delegate)
    /// The person picked a recent transaction to edit.
    case transactionSelected(LedgerTransaction.ID)

    /// What the home screen asks of the ``Ledger``.
    public enum Delegate: Equatable, Sendable {
      /// Open the editor for a new transaction.
      case newTransaction
      /// Open the editor for this transaction.
      case editTransaction(LedgerTransaction.ID)
    }
  }

  /// Creates the home screen's reducer.
  public init() {}

  /// Turns what the person did into requests to the ledger; the home screen changes nothing
  /// itself.
  public var body: some ReducerOf<Self> {
    Reduce { _, action in
      switch action {
      case .newSubmitted:
        return .send(.delegate(.newTransaction))
      case .delegate:
        return .none
      case .transactionSelected(let id):
        return .send(.delegate(.editTransaction(id)))
      }
    }
  }
}
