import Foundation
import LedgerClient
import Loop

/// The ledger's report: income, expense and balance for each of the last 12 months, and the
/// totals per category over those months — the data the charts draw.
///
/// The sums derive from the ``Ledger``'s transactions (see ``Ledger/State/report``); the report
/// keeps only which kind of category totals it shows.
public struct LedgerReport: Reducer {
  /// What the report shows: one stored choice, the rest derived from the ledger's state.
  public struct State: Equatable, Sendable {
    /// Whether the category totals are of expenses (the default) or of income.
    public var categoryKind: LedgerTransaction.Kind
    /// One summary per month, oldest first, ending with this month.
    public var months: [MonthSummary]
    /// The totals per category of ``categoryKind`` over ``months``, largest first.
    public var categories: [CategoryTotal]

    /// How many months the report covers: 12, this month included.
    public static let monthCount = 12

    /// Derives the report from the transactions.
    ///
    /// - Parameters:
    ///   - categoryKind: The kind of transactions the category totals sum.
    ///   - transactions: Every transaction, in any order.
    ///   - months: The months to report, oldest first.
    /// - Complexity: O(*n* × *m*) for *m* months.
    public init(
      categoryKind: LedgerTransaction.Kind, transactions: some Sequence<LedgerTransaction>,
      months: [LedgerMonth]
    ) {
      self.categoryKind = categoryKind
      self.months = MonthSummary.summaries(of: transactions, in: months)
      if let first = months.first, let last = months.last {
        categories = CategoryTotal.totals(
          of: transactions, kind: categoryKind, from: first.start, to: last.end)
      } else {
        categories = []
      }
    }
  }

  /// What happens on the report.
  public enum Action: Equatable, Sendable {
    /// The person chose which kind of category totals to see.
    case categoryKindSelected(LedgerTransaction.Kind)
  }

  /// Creates the report's reducer.
  public init() {}

  /// Keeps the report's one choice; the ledger recomputes the rest.
  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .categoryKindSelected(let kind):
        state.categoryKind = kind
        return .none
      }
    }
  }
}
