import Foundation

/// Instants written as ISO 8601 in UTC, exactly: what Loop's exports write for every date.
///
/// ```swift
/// Timestamp.string(from: date)                   // "2025-03-15T01:00:00Z"
/// Timestamp.string(from: date.addingTimeInterval(0.25))  // "2025-03-15T01:00:00.25Z"
/// Timestamp.date(from: "2025-03-15T10:00:00+09:00")       // the first date
/// ```
///
/// A `Date` holds a `Double`; the fraction of a second is written with as few digits as bring
/// back that very `Double`, so an export read back gives equal dates (lossless), while whole
/// seconds read as people expect.
public enum Timestamp {
  /// The date as `yyyy-MM-ddTHH:mm:ss[.fraction]Z`, with the fewest fraction digits that read
  /// back as the same date.
  ///
  /// - Parameter date: A date from year 1 to 9999.
  /// - Returns: The text.
  public static func string(from date: Date) -> String {
    let interval = date.timeIntervalSinceReferenceDate
    guard interval.isFinite, abs(interval) < 400_000_000_000 else { return "\(interval)" }
    let whole = interval.rounded(.down)
    let fraction = interval - whole
    var digits = ""
    for count in 0..<powersOfTen.count {
      let scale = powersOfTen[count]
      let units = (fraction * scale).rounded()
      guard units < scale, whole + units / scale == interval else { continue }
      if count > 0 {
        let text = String(Int64(units))
        digits = "." + String(repeating: "0", count: count - text.count) + text
      }
      break
    }
    let seconds = Int64(whole) + referenceOffset
    let (days, secondOfDay) = divide(seconds, by: 86_400)
    let (year, month, day) = civil(fromDays: days)
    return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(secondOfDay / 3_600, 2)):"
      + "\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2))\(digits)Z"
  }

  /// Parses an ISO 8601 date or date and time.
  ///
  /// Accepted: `2025-03-15` (midnight UTC), `2025-03-15T10:00`, `2025-03-15T10:00:00`,
  /// `2025-03-15 10:00:00.5`, each optionally followed by `Z`, `+09:00`, `+0900` or `-05`
  /// (without one, the time is UTC).
  ///
  /// - Parameter text: The text, without surrounding whitespace.
  /// - Returns: The date, or `nil` when the text is not one of those forms or names no real
  ///   day or time.
  public static func date(from text: String) -> Date? {
    var scanner = Scanner(Array(text.utf8))
    guard let year = scanner.number(digits: 4), scanner.skip("-"),
      let month = scanner.number(digits: 2), scanner.skip("-"),
      let day = scanner.number(digits: 2), isDay(year, month, day)
    else { return nil }
    var seconds = Int64(days(fromCivil: year, month, day)) * 86_400
    var units: Int64 = 0
    var scaleIndex = 0
    if scanner.skip("T") || scanner.skip("t") || scanner.skip(" ") {
      guard let hour = scanner.number(digits: 2), hour < 24, scanner.skip(":"),
        let minute = scanner.number(digits: 2), minute < 60
      else { return nil }
      var second = 0
      if scanner.skip(":") {
        guard let value = scanner.number(digits: 2), value < 60 else { return nil }
        second = value
        if scanner.skip(".") || scanner.skip(",") {
          let digits = scanner.digits()
          guard !digits.isEmpty, digits.count < powersOfTen.count else { return nil }
          units = Int64(String(decoding: digits, as: UTF8.self)) ?? 0
          scaleIndex = digits.count
        }
      }
      seconds += Int64(hour * 3_600 + minute * 60 + second)
      let isUTC = scanner.skip("Z") || scanner.skip("z")
      if !isUTC, let sign = scanner.sign() {
        guard let hours = scanner.number(digits: 2), hours <= 23 else { return nil }
        var minutes = 0
        if scanner.skip(":") || scanner.isAtDigit {
          guard let value = scanner.number(digits: 2), value < 60 else { return nil }
          minutes = value
        }
        seconds -= Int64(sign * (hours * 3_600 + minutes * 60))
      }
    }
    guard scanner.isAtEnd else { return nil }
    let whole = Double(seconds - referenceOffset)
    return Date(timeIntervalSinceReferenceDate: whole + Double(units) / powersOfTen[scaleIndex])
  }

  // MARK: - Calendar arithmetic

  /// 10⁰ to 10¹⁷, the scales of fraction digits; more digits than that are never needed.
  private static let powersOfTen: [Double] = (0...17).map { pow(10, Double($0)) }

  /// Seconds from 1970-01-01 to 2001-01-01, the reference date.
  private static let referenceOffset: Int64 = 978_307_200

  /// Days since 1970-01-01 of a day of the proleptic Gregorian calendar (Howard Hinnant's
  /// `days_from_civil`).
  static func days(fromCivil year: Int, _ month: Int, _ day: Int) -> Int {
    let shiftedYear = month <= 2 ? year - 1 : year
    let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
    let yearOfEra = shiftedYear - era * 400
    let dayOfYear = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The year, month and day of a number of days since 1970-01-01 (`civil_from_days`).
  static func civil(fromDays days: Int64) -> (year: Int, month: Int, day: Int) {
    let shifted = Int(days) + 719_468
    let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthFromMarch = (5 * dayOfYear + 2) / 153
    let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
    let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  /// Whether the year (1 to 9999), month and day name a real day.
  static func isDay(_ year: Int, _ month: Int, _ day: Int) -> Bool {
    guard (1...9999).contains(year), (1...12).contains(month), day >= 1 else { return false }
    let isLeap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    let lengths = [31, isLeap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    return day <= lengths[month - 1]
  }

  /// The quotient rounded down and the remainder, never negative.
  private static func divide(_ value: Int64, by divisor: Int64) -> (Int64, Int) {
    let quotient = value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
    return (quotient, Int(value - quotient * divisor))
  }

  private static func pad(_ value: Int, _ width: Int) -> String {
    let text = String(value)
    return String(repeating: "0", count: max(0, width - text.count)) + text
  }
}

/// Reads ASCII digits and punctuation from the bytes of a timestamp.
private struct Scanner {
  let bytes: [UInt8]
  var index = 0

  init(_ bytes: [UInt8]) {
    self.bytes = bytes
  }

  var isAtEnd: Bool { index == bytes.count }

  var isAtDigit: Bool { index < bytes.count && (0x30...0x39).contains(bytes[index]) }

  mutating func skip(_ character: Unicode.Scalar) -> Bool {
    guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
    index += 1
    return true
  }

  /// Exactly `digits` digits, as a number.
  mutating func number(digits count: Int) -> Int? {
    guard index + count <= bytes.count else { return nil }
    var value = 0
    for byte in bytes[index..<index + count] {
      guard (0x30...0x39).contains(byte) else { return nil }
      value = value * 10 + Int(byte - 0x30)
    }
    index += count
    return value
  }

  /// Every digit from here.
  mutating func digits() -> ArraySlice<UInt8> {
    let start = index
    while isAtDigit { index += 1 }
    return bytes[start..<index]
  }

  /// `+1` or `-1` for a sign here.
  mutating func sign() -> Int? {
    if skip("+") { return 1 }
    if skip("-") { return -1 }
    return nil
  }
}
