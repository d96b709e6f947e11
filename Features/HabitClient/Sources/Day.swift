import Foundation

/// A calendar day, such as 2025-03-01: the day a habit was completed on, independent of any
/// time zone once computed.
///
/// A `Date` is an instant; which day it falls on depends on where the user is. `Day(_:in:)`
/// answers that once, in the user's time zone, and from then on a day is a plain value that
/// compares, hashes and counts the same everywhere:
///
/// ```swift
/// let today = Day(now, in: timeZone)
/// let yesterday = today.advanced(by: -1)
/// for day in today.advanced(by: -29)...today { … }
/// ```
///
/// Its fields are the ISO 8601 (proleptic Gregorian) date, whatever calendar the user reads
/// dates in: every calendar Foundation has starts its days at local midnight, so the day is the
/// same and only its name would differ. (The user's calendar still decides where a week starts;
/// see ``HeatMap``.) Days from year 1 to year 9999 can be represented.
///
/// It is stored as the integer `yyyymmdd` (so SQLite sorts and compares it as Swift does), and
/// encoded as the string `"yyyy-mm-dd"` in JSON; `Day("2025-03-01")` parses that string.
public struct Day: Hashable, Sendable, Strideable, CustomStringConvertible,
  LosslessStringConvertible
{
  /// The year, from 1 to 9999.
  public let year: Int

  /// The month of the year, from 1 (January) to 12 (December).
  public let month: Int

  /// The day of the month, from 1 to 31.
  public let day: Int

  /// Creates a day from its fields, or `nil` when there is no such day.
  ///
  /// ```swift
  /// Day(year: 2024, month: 2, day: 29)  // a leap day
  /// Day(year: 2025, month: 2, day: 29)  // nil
  /// ```
  ///
  /// - Parameters:
  ///   - year: The year, from 1 to 9999.
  ///   - month: The month, from 1 to 12.
  ///   - day: The day of the month.
  public init?(year: Int, month: Int, day: Int) {
    guard (1...9999).contains(year), (1...12).contains(month),
      (1...Self.daysInMonth(month, of: year)).contains(day)
    else { return nil }
    self.year = year
    self.month = month
    self.day = day
  }

  /// The day on which `date` falls in `timeZone`.
  ///
  /// ```swift
  /// // 2025-03-02 04:30 UTC is still March 1st in New York (UTC−5).
  /// Day(date, in: TimeZone(identifier: "America/New_York")!)  // 2025-03-01
  /// ```
  ///
  /// - Parameters:
  ///   - date: The instant.
  ///   - timeZone: The time zone whose midnight starts each day (the user's, from
  ///     `@Dependency(\.timeZone)`).
  public init(_ date: Date, in timeZone: TimeZone) {
    let seconds = date.timeIntervalSince1970 + Double(timeZone.secondsFromGMT(for: date))
    let ordinal = (seconds / 86_400).rounded(.down)
    precondition(
      ordinal >= Double(Self.firstOrdinal) && ordinal <= Double(Self.lastOrdinal),
      "The date \(date) falls outside the years 1 to 9999, which Day represents.")
    self.init(ordinal: Int(ordinal))
  }

  /// Parses a day written `yyyy-mm-dd`, such as `2025-03-01`, or returns `nil`.
  ///
  /// The year has four digits, the month and day two; the day must exist.
  ///
  /// - Parameter description: The text to parse.
  public init?(_ description: String) {
    let parts = description.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
      parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
      let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
    else { return nil }
    self.init(year: year, month: month, day: day)
  }

  /// The day written `yyyy-mm-dd`, such as `2025-03-01`.
  public var description: String {
    // NB: ten bytes written in place, not three padded strings joined: a ledger listing
    // writes a day on every row. The fields' ranges keep each within its digits.
    String(unsafeUninitializedCapacity: 10) { text in
      func write(_ value: Int, digits: Int, endingAt end: Int) {
        var value = value
        for index in stride(from: end - 1, through: end - digits, by: -1) {
          text[index] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value % 10)
          value /= 10
        }
      }
      write(year, digits: 4, endingAt: 4)
      text[4] = UInt8(ascii: "-")
      write(month, digits: 2, endingAt: 7)
      text[7] = UInt8(ascii: "-")
      write(day, digits: 2, endingAt: 10)
      return 10
    }
  }

  /// The day of the week, numbered as `Calendar` numbers them: 1 is Sunday, 7 is Saturday.
  public var weekday: Int {
    // NB: 1970-01-01 (ordinal 0) was a Thursday, weekday 5.
    ((ordinal % 7 + 7 + 4) % 7) + 1
  }

  /// The day `count` days later (earlier, when negative).
  ///
  /// Months, years and leap days are counted exactly: 2024-02-28 advanced by 2 is 2024-03-01.
  ///
  /// - Parameter count: How many days to move.
  /// - Returns: The day.
  public func advanced(by count: Int) -> Day {
    let target = ordinal + count
    precondition(
      (Self.firstOrdinal...Self.lastOrdinal).contains(target),
      "\(self) advanced by \(count) days falls outside the years 1 to 9999.")
    return Day(ordinal: target)
  }

  /// How many days from this day to `other`: positive when `other` is later.
  ///
  /// - Parameter other: The other day.
  /// - Returns: The number of days.
  public func distance(to other: Day) -> Int { other.ordinal - ordinal }

  /// Whether `lhs` comes before `rhs`.
  ///
  /// - Parameters:
  ///   - lhs: A day.
  ///   - rhs: Another day.
  /// - Returns: `true` when `lhs` is earlier.
  public static func < (lhs: Day, rhs: Day) -> Bool {
    (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
  }

  // MARK: - Day numbers

  /// Days since 1970-01-01, which has ordinal 0.
  var ordinal: Int {
    // NB: Howard Hinnant's days_from_civil, on a year that starts in March so that the leap
    // day is the last day of the year.
    let shiftedYear = month <= 2 ? year - 1 : year
    let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
    let yearOfEra = shiftedYear - era * 400
    let monthFromMarch = (month + 9) % 12
    let dayOfYear = (153 * monthFromMarch + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The day with an ordinal (days since 1970-01-01); the inverse of ``ordinal``.
  private init(ordinal: Int) {
    let shifted = ordinal + 719_468
    let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
    let dayOfEra = shifted - era * 146_097
    let yearOfEra =
      (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthFromMarch = (5 * dayOfYear + 2) / 153
    let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
    self.year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    self.month = month
    self.day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
  }

  /// The ordinal of 0001-01-01.
  private static let firstOrdinal = -719_162

  /// The ordinal of 9999-12-31.
  private static let lastOrdinal = 2_932_896

  private static func daysInMonth(_ month: Int, of year: Int) -> Int {
    switch month {
    case 2:
      let isLeap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
      return isLeap ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }
}

extension Day: Codable {
  /// Decodes a day from its `yyyy-mm-dd` string.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError.dataCorrupted` when the string is not a valid day.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    guard let day = Day(text) else {
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: "'\(text)' is not a day written yyyy-mm-dd.")
    }
    self = day
  }

  /// Encodes the day as its `yyyy-mm-dd` string.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }
}
