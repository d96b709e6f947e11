import Foundation
import LedgerClient

/// The months a report covers, as a person chooses them: from a month, to a month, or a number of
/// months, or none of these (the 12 months up to the latest month that has transactions).
///
/// ```swift
/// let period = LedgerPeriod(from: nil, to: nil, count: nil)
/// period.months(of: state.transactions, now: now, calendar: calendar)
/// // the 12 months ending with the latest transaction's month
/// ```
public struct LedgerPeriod: Equatable, Sendable {
  /// A month as a person names it: `2025-03`.
  public struct Month: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The year, such as 2025.
    public var year: Int
    /// The month of the year, 1 to 12.
    public var month: Int

    /// Creates a month from its parts.
    public init(year: Int, month: Int) {
      self.year = year
      self.month = month
    }

    /// The month `YYYY-MM` names, or `nil` when `text` is not one.
    public init?(_ text: String) {
      let parts = text.split(separator: "-", omittingEmptySubsequences: false)
      guard parts.count == 2, parts[0].count == 4, parts[1].count == 2,
        let year = Int(parts[0]), let month = Int(parts[1]), (1...12).contains(month)
      else { return nil }
      self.init(year: year, month: month)
    }

    /// The month of `ledgerMonth`.
    public init(_ ledgerMonth: LedgerMonth) {
      self.init(year: ledgerMonth.year, month: ledgerMonth.month)
    }

    /// Months counted from year 0: one more for each month later.
    var index: Int { year * 12 + month - 1 }

    /// The month `count` months later (earlier when negative).
    func adding(_ count: Int) -> Month {
      let index = self.index + count
      return Month(
        year: index.floorDivided(by: 12), month: index - index.floorDivided(by: 12) * 12 + 1)
    }

    /// Whether `lhs` comes before `rhs`.
    public static func < (lhs: Month, rhs: Month) -> Bool { lhs.index < rhs.index }

    /// The month as `YYYY-MM`.
    public var description: String {
      let year = String(year)
      let month = String(month)
      return String(repeating: "0", count: max(0, 4 - year.count)) + year
        + (month.count == 1 ? "-0" : "-") + month
    }
  }

  /// The first month, or `nil`.
  public var from: Month?
  /// The last month, or `nil`.
  public var to: Month?
  /// How many months, or `nil`.
  public var count: Int?

  /// How many months a report covers when no count is given and the period has no start.
  public static let defaultCount = 12

  /// Creates a period from what the person chose.
  public init(from: Month? = nil, to: Month? = nil, count: Int? = nil) {
    self.from = from
    self.to = to
    self.count = count
  }

  /// The first and last months of the period.
  ///
  /// With a count: that many months ending with ``to``, or starting with ``from``, or ending
  /// with `latest`. Without: ``from`` to ``to``; 12 months ending with ``to``; ``from`` to
  /// `latest` (or just ``from`` when it is later); or 12 months ending with `latest`.
  ///
  /// - Parameter latest: The latest month that has transactions (this month when none has).
  /// - Returns: The first and last months, the first never after the last.
  public func bounds(latest: Month) -> (first: Month, last: Month) {
    if let count, count > 0 {
      if let to { return (to.adding(1 - count), to) }
      if let from { return (from, from.adding(count - 1)) }
      return (latest.adding(1 - count), latest)
    }
    switch (from, to) {
    case (let from?, let to?): return (min(from, to), max(from, to))
    case (nil, let to?): return (to.adding(1 - Self.defaultCount), to)
    case (let from?, nil): return (from, max(from, latest))
    case (nil, nil): return (latest.adding(1 - Self.defaultCount), latest)
    }
  }

  /// The months of the period, oldest first.
  ///
  /// - Parameters:
  ///   - transactions: Every transaction: the latest one's month ends a period without an end.
  ///   - now: An instant of this month, which ends the period when there are no transactions
  ///     (the ledger's last month, ``Ledger/State/months``: the REPL draws no date of its own).
  ///   - calendar: The calendar, with the time zone that decides where months begin.
  /// - Returns: The months, oldest first; none when there are no transactions and no `now`.
  /// - Complexity: O(*n* + *m*) for *n* transactions and *m* months.
  public func months(
    of transactions: some Sequence<LedgerTransaction>, now: Date?, calendar: Calendar
  ) -> [LedgerMonth] {
    guard let latestDate = transactions.lazy.map(\.date).max() ?? now,
      let latest = LedgerMonth(containing: latestDate, calendar: calendar)
    else { return [] }
    let (first, last) = bounds(latest: Month(latest))
    var components = DateComponents()
    components.year = last.year
    components.month = last.month
    components.day = 1
    guard let lastStart = calendar.date(from: components) else { return [] }
    return LedgerMonth.months(
      endingWith: lastStart, count: last.index - first.index + 1, calendar: calendar)
  }
}

extension Int {
  /// The quotient rounded down: `-1.floorDivided(by: 12)` is `-1`.
  fileprivate func floorDivided(by divisor: Int) -> Int {
    let quotient = self / divisor
    return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
  }
}
