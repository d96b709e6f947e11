import Foundation
import LedgerClient

/// A month's income, expense and balance: a pure function of the transactions.
///
/// ```swift
/// let march = MonthSummary(month: march, transactions: state.transactions)
/// march.balance  // income − expense
/// ```
public struct MonthSummary: Equatable, Sendable, Codable {
  /// The month.
  public var month: LedgerMonth
  /// The sum of the month's income.
  public var income: Money
  /// The sum of the month's expenses.
  public var expense: Money
  /// Income minus expense: negative when more went out than came in.
  public var balance: Money

  /// Creates a summary from its parts; the balance is income minus expense.
  public init(month: LedgerMonth, income: Money, expense: Money) {
    self.month = month
    self.income = income
    self.expense = expense
    self.balance = income - expense
  }

  /// Sums the transactions dated in `month`.
  ///
  /// - Parameters:
  ///   - month: The month.
  ///   - transactions: Any transactions; those outside the month are ignored.
  /// - Complexity: O(*n*).
  public init(month: LedgerMonth, transactions: some Sequence<LedgerTransaction>) {
    self = Self.summaries(of: transactions, in: [month])[0]
  }

  /// Sums the transactions of each month in one pass.
  ///
  /// - Parameters:
  ///   - transactions: Any transactions; those outside every month are ignored.
  ///   - months: The months, in the order the summaries should have.
  /// - Returns: One summary per month, in the order of `months`.
  /// - Complexity: O(*n* × *m*) for *m* months.
  public static func summaries(
    of transactions: some Sequence<LedgerTransaction>, in months: [LedgerMonth]
  ) -> [MonthSummary] {
    var income = Array(repeating: Money.zero, count: months.count)
    var expense = income
    for transaction in transactions {
      guard let index = months.firstIndex(where: { $0.contains(transaction.date) }) else {
        continue
      }
      switch transaction.kind {
      case .income: income[index] += transaction.amount
      case .expense: expense[index] += transaction.amount
      }
    }
    return months.indices.map {
      MonthSummary(month: months[$0], income: income[$0], expense: expense[$0])
    }
  }
}
