import Foundation
import LedgerClient

/// What the editor holds while a person types: a transaction's fields as entered, not yet
/// checked.
///
/// ```swift
/// var draft = TransactionDraft(date: now)
/// draft.amount = "1,234.50"
/// let fields = try draft.validated(today: now, calendar: calendar)
/// ```
public struct TransactionDraft: Equatable, Sendable {
  /// Income or expense.
  public var kind: LedgerTransaction.Kind
  /// The amount as typed, such as `12.50`, `12` or `1,234.50`.
  public var amount: String
  /// When it happened.
  public var date: Date
  /// What it was.
  public var memo: String
  /// The category as typed; blank for none.
  public var category: String

  /// Creates a draft: an expense, blank but for its date, unless told otherwise.
  public init(
    kind: LedgerTransaction.Kind = .expense, amount: String = "", date: Date, memo: String = "",
    category: String = ""
  ) {
    self.kind = kind
    self.amount = amount
    self.date = date
    self.memo = memo
    self.category = category
  }

  /// A draft holding a stored transaction's values, for editing it.
  ///
  /// - Parameter transaction: The transaction.
  public init(_ transaction: LedgerTransaction) {
    self.init(
      kind: transaction.kind, amount: transaction.amount.formatted(), date: transaction.date,
      memo: transaction.memo, category: transaction.category ?? "")
  }

  /// How many years after today a date may be: 10.
  public static let yearsAhead = 10

  /// Checks the draft and returns the values to save.
  ///
  /// The amount must parse (see ``LedgerClient/Money/init(parsing:decimalSeparator:)``) and be
  /// greater than zero; the memo and the category are trimmed of surrounding whitespace, a blank
  /// category becomes none, and both must fit their limits
  /// (``LedgerClient/LedgerTransaction/validate(amount:memo:category:)``).
  ///
  /// The date must not be absurd: its day, in `calendar`, must be from 1970-01-01 to the same
  /// day ``yearsAhead`` years after today, both included.
  ///
  /// - Parameters:
  ///   - today: The current date.
  ///   - calendar: The calendar and time zone that decide which day a date falls on.
  /// - Returns: The checked values.
  /// - Throws: The first problem found, as a ``LedgerClient/LedgerError``: amount, then memo
  ///   and category, then date.
  public func validated(today: Date, calendar: Calendar) throws(LedgerError) -> TransactionFields {
    try validated(today: today, calendar: calendar, timeZone: calendar.timeZone)
  }

  /// Checks the draft as ``validated(today:calendar:)`` does, its date judged in `calendar` set
  /// to `timeZone`.
  ///
  /// NB: the time zone is read, and the calendar copied to set it, only for a date that needs
  /// calendar arithmetic: a ledger add checks a date up to today, which needs none.
  ///
  /// - Parameters:
  ///   - today: Now.
  ///   - calendar: The calendar that decides which day a date falls on.
  ///   - timeZone: The time zone that decides where days begin.
  /// - Returns: The checked values.
  /// - Throws: The first problem found, as ``validated(today:calendar:)`` does.
  func validated(
    today: Date, calendar: Calendar, timeZone: @autoclosure () -> TimeZone
  ) throws(LedgerError) -> TransactionFields {
    let amount = try Money(parsing: amount)
    let memo = memo.trimmed
    let trimmedCategory = category.trimmed
    let category = trimmedCategory.isEmpty ? nil : trimmedCategory
    try LedgerTransaction.validate(amount: amount, memo: memo, category: category)
    try Self.checkPlausible(date, today: today, calendar: calendar, timeZone: timeZone)
    return TransactionFields(kind: kind, amount: amount, date: date, memo: memo, category: category)
  }

  /// Throws unless `date`'s day is from 1970-01-01 to ``yearsAhead`` years after today.
  private static func checkPlausible(
    _ date: Date, today: Date, calendar: Calendar, timeZone: () -> TimeZone
  ) throws(LedgerError) {
    // NB: the common case (a date up to now, after 1970) needs no calendar arithmetic, which
    // cost a ledger add more than its insert: 1970-01-01 begins before 1970-01-02T00:00Z in
    // every time zone, and the last day allowed ends after today.
    if calendar.identifier == .gregorian, date <= today,
      date >= Date(timeIntervalSince1970: 2 * 86_400)
    {
      return
    }
    let calendar = calendar.setting(timeZone())
    // NB: adding years fails only past the calendar's last representable year; today is then
    // the safer bound.
    let lastDay = calendar.date(byAdding: .year, value: yearsAhead, to: today) ?? today
    guard
      let earliest = calendar.date(from: DateComponents(year: 1970, month: 1, day: 1)),
      let end = calendar.date(byAdding: .day, value: 1, to: calendar.startOfDay(for: lastDay)),
      earliest <= date && date < end
    else {
      throw .dateOutOfRange(
        date: dayString(date, calendar: calendar), earliest: "1970-01-01",
        latest: dayString(lastDay, calendar: calendar))
    }
  }
}

/// A transaction's checked values, as the editor hands them to the ledger to save: everything
/// but the id and `createdAt`, which the ledger assigns.
public struct TransactionFields: Equatable, Sendable {
  /// Income or expense.
  public var kind: LedgerTransaction.Kind
  /// How much, greater than zero.
  public var amount: Money
  /// When it happened.
  public var date: Date
  /// What it was, trimmed.
  public var memo: String
  /// The category, trimmed; `nil` for none.
  public var category: String?

  /// Creates checked values; ``TransactionDraft/validated(today:calendar:)`` is how they are
  /// usually made.
  public init(
    kind: LedgerTransaction.Kind, amount: Money, date: Date, memo: String, category: String?
  ) {
    self.kind = kind
    self.amount = amount
    self.date = date
    self.memo = memo
    self.category = category
  }
}

extension LedgerTransaction {
  /// A new transaction with the given values.
  init(id: ID, createdAt: Date, fields: TransactionFields) {
    self.init(
      id: id, kind: fields.kind, amount: fields.amount, date: fields.date, memo: fields.memo,
      category: fields.category, createdAt: createdAt)
  }

  /// This transaction with the given values; its id and `createdAt` stay.
  func applying(_ fields: TransactionFields) -> LedgerTransaction {
    LedgerTransaction(id: id, createdAt: createdAt, fields: fields)
  }
}

extension String {
  /// The string as `trimmingCharacters(in: .whitespacesAndNewlines)` trims it.
  ///
  /// NB: Foundation's trimming goes through `NSString` on Linux, microseconds a call; a memo
  /// or category with no whitespace at either end, what nearly every `ledger add` gives, is
  /// returned as it is (only an end in Unicode's `White_Space`, that set, is trimmed).
  fileprivate var trimmed: String {
    // NB: an empty string (a draft without a category) has nothing to trim either.
    guard let first = unicodeScalars.first, let last = unicodeScalars.last,
      first.properties.isWhitespace || last.properties.isWhitespace
    else { return self }
    return trimmingCharacters(in: .whitespacesAndNewlines)
  }
}
