import Foundation
import Loop

/// One income or expense in the ledger.
///
/// Named `LedgerTransaction` so that it clashes with neither Persistence's `transaction` nor
/// anyone's `Transaction`. The amount is ``Money``, integer minor units, and always positive:
/// ``kind`` says which way it goes (see ``signedAmount``).
///
/// ```swift
/// let lunch = LedgerTransaction(
///   id: LedgerTransaction.ID(uuid()), kind: .expense, amount: try Money(parsing: "12.50"),
///   date: now, memo: "Lunch", category: "Food", createdAt: now)
/// ```
///
/// Order: lists of transactions come newest first (see ``isNewer(_:than:)``).
public struct LedgerTransaction: Identifiable, Equatable, Sendable, Codable {
  /// A transaction's identity: a UUID, typed so it cannot be mistaken for another model's.
  public typealias ID = ModelID<LedgerTransaction>

  /// Which way the money went.
  public enum Kind: String, Sendable, Codable, CaseIterable {
    /// Money in.
    case income
    /// Money out.
    case expense
  }

  /// The identity.
  public var id: ID
  /// Income or expense.
  public var kind: Kind
  /// How much: always greater than zero, at most ``Money/maximum``.
  public var amount: Money
  /// When it happened.
  public var date: Date
  /// What it was, at most ``memoLimit`` characters; may be empty.
  public var memo: String
  /// A free-text category such as `Food`, at most ``categoryLimit`` characters; `nil` for none.
  public var category: String?
  /// When it was entered: breaks ties between transactions on the same date.
  public var createdAt: Date

  /// Creates a transaction.
  public init(
    id: ID, kind: Kind, amount: Money, date: Date, memo: String = "", category: String? = nil,
    createdAt: Date
  ) {
    self.id = id
    self.kind = kind
    self.amount = amount
    self.date = date
    self.memo = memo
    self.category = category
    self.createdAt = createdAt
  }

  /// The most characters a memo may have: 200.
  public static let memoLimit = 200

  /// The most characters a category may have: 40.
  public static let categoryLimit = 40

  /// The amount with its direction: positive for income, negative for an expense.
  public var signedAmount: Money {
    kind == .income ? amount : Money(minorUnits: -amount.minorUnits)
  }

  /// Returns whether `lhs` comes before `rhs` in the ledger's order: newest first.
  ///
  /// Later `date` first; on the same date, later `createdAt` first; then by id, so that the
  /// order never depends on how the transactions were stored.
  ///
  /// - Parameters:
  ///   - lhs: A transaction.
  ///   - rhs: Another transaction.
  /// - Returns: `true` when `lhs` is listed first.
  public static func isNewer(_ lhs: LedgerTransaction, than rhs: LedgerTransaction) -> Bool {
    if lhs.date != rhs.date { return lhs.date > rhs.date }
    if lhs.createdAt != rhs.createdAt { return lhs.createdAt > rhs.createdAt }
    return lhs.id < rhs.id
  }

  /// Checks the rules every stored transaction keeps.
  ///
  /// The ledger judges the date only where it knows today (in the editor), not here.
  ///
  /// - Throws: As ``validate(amount:memo:category:)``.
  public func validate() throws(LedgerError) {
    try Self.validate(amount: amount, memo: memo, category: category)
  }

  /// Checks an amount, memo and category against the rules every stored transaction keeps.
  ///
  /// - Parameters:
  ///   - amount: Must be greater than zero and at most ``Money/maximum``.
  ///   - memo: At most ``memoLimit`` characters.
  ///   - category: At most ``categoryLimit`` characters, or `nil`.
  /// - Throws: ``LedgerError/amountNotPositive(_:)``, ``LedgerError/amountTooLarge(_:)``,
  ///   ``LedgerError/memoTooLong(length:limit:)``,
  ///   ``LedgerError/categoryTooLong(length:limit:)``, in that order of precedence.
  public static func validate(amount: Money, memo: String, category: String?)
    throws(LedgerError)
  {
    guard amount > .zero else { throw .amountNotPositive(amount.formatted()) }
    guard amount <= .maximum else { throw .amountTooLarge(amount.formatted()) }
    guard memo.count <= memoLimit else {
      throw .memoTooLong(length: memo.count, limit: memoLimit)
    }
    if let category, category.count > categoryLimit {
      throw .categoryTooLong(length: category.count, limit: categoryLimit)
    }
  }
}
