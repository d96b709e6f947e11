import Foundation

/// A calendar month: its number and the instants it spans, in the calendar and time zone it was
/// made with.
///
/// Months are made from the `calendar` and `timeZone` dependencies, then hold plain dates, so
/// the state that keeps them stays `Equatable` and every sum over them is a pure function:
///
/// ```swift
/// let march = LedgerMonth(containing: now, calendar: calendar)  // 2025-03
/// march?.contains(transaction.date)
/// ```
public struct LedgerMonth: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The year, such as 2025.
  public var year: Int
  /// The month of the year, 1 to 12 in the Gregorian calendar.
  public var month: Int
  /// The month's first instant (midnight of its first day): in the month.
  public var start: Date
  /// The next month's first instant: not in the month.
  public var end: Date

  /// Creates a month from its parts.
  public init(year: Int, month: Int, start: Date, end: Date) {
    self.year = year
    self.month = month
    self.start = start
    self.end = end
  }

  /// The month that contains `date` in `calendar` (and the calendar's time zone).
  ///
  /// - Parameters:
  ///   - date: An instant.
  ///   - calendar: The calendar, with the time zone that decides where months begin.
  public init?(containing date: Date, calendar: Calendar) {
    let components = calendar.dateComponents([.year, .month], from: date)
    guard
      let interval = calendar.dateInterval(of: .month, for: date),
      let year = components.year,
      let month = components.month
    else { return nil }
    self.init(year: year, month: month, start: interval.start, end: interval.end)
  }

  /// The `count` months up to and including the one that contains `date`, oldest first.
  ///
  /// ```swift
  /// LedgerMonth.months(endingWith: march15, count: 3, calendar: calendar)
  /// // [2025-01, 2025-02, 2025-03]
  /// ```
  ///
  /// - Parameters:
  ///   - date: An instant in the last month.
  ///   - count: How many months.
  ///   - calendar: The calendar, with the time zone that decides where months begin.
  /// - Returns: The months, oldest first; fewer only if the calendar cannot place a month.
  /// - Complexity: O(`count`).
  public static func months(endingWith date: Date, count: Int, calendar: Calendar)
    -> [LedgerMonth]
  {
    var months: [LedgerMonth] = []
    var instant = date
    while months.count < count, let month = LedgerMonth(containing: instant, calendar: calendar) {
      months.append(month)
      // NB: one second before a month starts is always in the month before, even across a
      // daylight saving change at midnight.
      instant = month.start.addingTimeInterval(-1)
    }
    return months.reversed()
  }

  /// Returns whether an instant falls in this month.
  ///
  /// - Parameter date: The instant.
  /// - Returns: `true` when `start <= date < end`.
  public func contains(_ date: Date) -> Bool { start <= date && date < end }

  /// The month as `YYYY-MM`: `2025-03`.
  public var description: String { "\(padded(year, 4))-\(padded(month, 2))" }
}

/// `value` written in decimal with at least `width` digits.
func padded(_ value: Int, _ width: Int) -> String {
  let digits = String(value.magnitude)
  let zeros = String(repeating: "0", count: max(0, width - digits.count))
  return (value < 0 ? "-" : "") + zeros + digits
}

/// The day of `date` in `calendar` as `YYYY-MM-DD`.
func dayString(_ date: Date, calendar: Calendar) -> String {
  let components = calendar.dateComponents([.year, .month, .day], from: date)
  return "\(padded(components.year ?? 0, 4))-\(padded(components.month ?? 0, 2))-"
    + padded(components.day ?? 0, 2)
}

extension Calendar {
  /// This calendar in `timeZone`: the `timeZone` dependency decides where days and months
  /// begin, the `calendar` dependency everything else.
  func setting(_ timeZone: TimeZone) -> Calendar {
    var calendar = self
    calendar.timeZone = timeZone
    return calendar
  }
}
