import Foundation
import LedgerClient

/// How much went to (or came from) one category: a bar of the report's category chart.
public struct CategoryTotal: Equatable, Sendable, Codable {
  /// The category as entered, or `nil` for the transactions without one.
  public var category: String?
  /// The sum of the category's amounts.
  public var total: Money
  /// How many transactions it sums.
  public var count: Int

  /// Creates a total from its parts.
  public init(category: String?, total: Money, count: Int) {
    self.category = category
    self.total = total
    self.count = count
  }

  /// The per-category totals of one kind of transaction dated from `start` (inclusive) to `end`
  /// (exclusive).
  ///
  /// Categories are compared exactly as entered (the editor trims them). Order: largest total
  /// first; equal totals by category name, with the uncategorized (`nil`) last.
  ///
  /// - Parameters:
  ///   - transactions: Any transactions.
  ///   - kind: Income or expense.
  ///   - start: The first instant counted.
  ///   - end: The first instant not counted.
  /// - Returns: One total per category that has transactions in the range.
  /// - Complexity: O(*n* + *c* log *c*) for *c* categories.
  public static func totals(
    of transactions: some Sequence<LedgerTransaction>, kind: LedgerTransaction.Kind,
    from start: Date, to end: Date
  ) -> [CategoryTotal] {
    var totals: [String?: CategoryTotal] = [:]
    for transaction in transactions
    where transaction.kind == kind && start <= transaction.date && transaction.date < end {
      totals[
        transaction.category,
        default: CategoryTotal(
          category: transaction.category, total: .zero, count: 0)
      ]
      .add(transaction.amount)
    }
    return totals.values.sorted(by: isListed(_:before:))
  }

  private mutating func add(_ amount: Money) {
    total += amount
    count += 1
  }

  /// Largest total first; ties by name, uncategorized last.
  private static func isListed(_ lhs: CategoryTotal, before rhs: CategoryTotal) -> Bool {
    if lhs.total != rhs.total { return lhs.total > rhs.total }
    switch (lhs.category, rhs.category) {
    case (let left?, let right?): return left < right
    case (.some, .none): return true
    case (.none, _): return false
    }
  }
}
