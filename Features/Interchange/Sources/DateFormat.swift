/// How a CSV writes its dates, given as a pattern such as `dd.MM.yyyy` (`--date-format`).
///
/// ```swift
/// let format = try DateFormat("dd.MM.yyyy")
/// format.day(from: "31.01.2025")  // (2025, 1, 31)
/// format.string(year: 2025, month: 1, day: 31)  // "31.01.2025"
/// ```
///
/// A pattern holds `yyyy` (four-digit year), `MM` or `M` (month), `dd` or `d` (day) once each,
/// and any separators that are not letters. Reading accepts one or two digits for the month
/// and the day either way (`1/5/2025` reads with `MM/dd/yyyy`); writing pads `MM` and `dd` to
/// two digits.
///
/// A rules file writes formats strftime's way (``init(strftime:)``): `%d.%m.%Y`, and `%y` for a
/// two-digit year (69–99 are 1969–1999, 00–68 are 2000–2068).
public struct DateFormat: Equatable, Sendable, CustomStringConvertible {
  private enum Token: Equatable {
    case year
    case shortYear
    case month(padded: Bool)
    case day(padded: Bool)
    case literal(UInt8)
    /// `%H`, `%M` or `%S` of a statement's date and time: read and left out.
    case time(Character)
  }

  /// The pattern, as given.
  public let pattern: String
  private let tokens: [Token]

  /// `yyyy-MM-dd`, the ISO 8601 day: what Loop writes, and reads unless told otherwise.
  public static let iso = DateFormat(
    pattern: "yyyy-MM-dd",
    tokens: [
      .year, .literal(UInt8(ascii: "-")), .month(padded: true), .literal(UInt8(ascii: "-")),
      .day(padded: true),
    ])

  private init(pattern: String, tokens: [Token]) {
    self.pattern = pattern
    self.tokens = tokens
  }

  /// Reads a pattern.
  ///
  /// - Parameter pattern: Such as `yyyy-MM-dd`, `dd.MM.yyyy`, `MM/dd/yyyy` or `d.M.yyyy`.
  /// - Throws: ``InterchangeError/invalidDateFormat(_:)`` when it is not made of `yyyy`, `MM`
  ///   or `M`, `dd` or `d` (once each) and separators.
  public init(_ pattern: String) throws(InterchangeError) {
    var tokens: [Token] = []
    let bytes = Array(pattern.utf8)
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      var run = 1
      while index + run < bytes.count && bytes[index + run] == byte { run += 1 }
      switch (byte, run) {
      case (UInt8(ascii: "y"), 4): tokens.append(.year)
      case (UInt8(ascii: "M"), 1...2): tokens.append(.month(padded: run == 2))
      case (UInt8(ascii: "d"), 1...2): tokens.append(.day(padded: run == 2))
      case (let byte, _) where byte < 0x80 && !Self.isLetter(byte):
        tokens += Array(repeating: .literal(byte), count: run)
      default:
        throw .invalidDateFormat(pattern)
      }
      index += run
    }
    try self.init(checking: tokens, pattern: pattern)
  }

  /// Reads a strftime pattern, as a rules file's `date-format` gives it.
  ///
  /// - Parameter pattern: Such as `%d.%m.%Y`, `%d.%m.%y`, `%Y-%m-%d` or `%-d/%-m/%Y`: `%Y`
  ///   (four-digit year) or `%y` (two digits), `%m` or `%-m` (month), `%d` or `%-d` (day), once
  ///   each, `%%` for a percent sign, and separators that are not letters; `%H`, `%M` and `%S`
  ///   read a time of day, which a ledger's day leaves out (`%Y-%m-%d %H:%M:%S`).
  /// - Throws: ``InterchangeError/invalidDateFormat(_:)`` for any other directive, or a year,
  ///   month or day missing or given twice.
  public init(strftime pattern: String) throws(InterchangeError) {
    var tokens: [Token] = []
    var characters = Substring(pattern)
    while let character = characters.popFirst() {
      guard character == "%" else {
        guard let byte = character.asciiValue, !Self.isLetter(byte) else {
          throw .invalidDateFormat(pattern)
        }
        tokens.append(.literal(byte))
        continue
      }
      let unpadded = characters.first == "-"
      if unpadded { characters.removeFirst() }
      switch (characters.popFirst(), unpadded) {
      case ("Y", false): tokens.append(.year)
      case ("y", false): tokens.append(.shortYear)
      case ("m", _): tokens.append(.month(padded: !unpadded))
      case ("d", _): tokens.append(.day(padded: !unpadded))
      case ("%", false): tokens.append(.literal(UInt8(ascii: "%")))
      case ("H", false): tokens.append(.time("H"))
      case ("M", false): tokens.append(.time("M"))
      case ("S", false): tokens.append(.time("S"))
      default: throw .invalidDateFormat(pattern)
      }
    }
    try self.init(checking: tokens, pattern: pattern)
  }

  /// A format of `tokens`, which must hold one year, one month and one day.
  private init(checking tokens: [Token], pattern: String) throws(InterchangeError) {
    let years = tokens.filter { $0 == .year || $0 == .shortYear }.count
    let months = tokens.filter { if case .month = $0 { true } else { false } }.count
    let days = tokens.filter { if case .day = $0 { true } else { false } }.count
    guard years == 1, months == 1, days == 1 else { throw .invalidDateFormat(pattern) }
    self.init(pattern: pattern, tokens: tokens)
  }

  /// The format as a strftime pattern, as a rules file's `date-format` writes it: `%d.%m.%Y`.
  public var strftime: String {
    var text = ""
    for token in tokens {
      switch token {
      case .year: text += "%Y"
      case .shortYear: text += "%y"
      case .month(let padded): text += padded ? "%m" : "%-m"
      case .day(let padded): text += padded ? "%d" : "%-d"
      case .time(let letter): text += "%\(letter)"
      case .literal(let byte):
        text += byte == UInt8(ascii: "%") ? "%%" : String(Character(Unicode.Scalar(byte)))
      }
    }
    return text
  }

  /// The year, month and day a text names in this format, or `nil` when it does not match or
  /// names no real day.
  ///
  /// - Parameter text: The text, without surrounding whitespace.
  /// - Returns: The day's fields.
  public func day(from text: String) -> (year: Int, month: Int, day: Int)? {
    let bytes = Array(text.utf8)
    var index = 0
    var year = 0
    var month = 0
    var day = 0
    func number(maximumDigits: Int, minimumDigits: Int) -> Int? {
      var value = 0
      var count = 0
      while count < maximumDigits, index < bytes.count, (0x30...0x39).contains(bytes[index]) {
        value = value * 10 + Int(bytes[index] - 0x30)
        index += 1
        count += 1
      }
      return count >= minimumDigits ? value : nil
    }
    for token in tokens {
      switch token {
      case .year:
        guard let value = number(maximumDigits: 4, minimumDigits: 4) else { return nil }
        year = value
      case .shortYear:
        guard let value = number(maximumDigits: 2, minimumDigits: 2) else { return nil }
        year = value < 69 ? 2000 + value : 1900 + value
      case .month:
        guard let value = number(maximumDigits: 2, minimumDigits: 1) else { return nil }
        month = value
      case .day:
        guard let value = number(maximumDigits: 2, minimumDigits: 1) else { return nil }
        day = value
      case .literal(let byte):
        guard index < bytes.count, bytes[index] == byte else { return nil }
        index += 1
      case .time:
        guard number(maximumDigits: 2, minimumDigits: 1) != nil else { return nil }
      }
    }
    guard index == bytes.count, Timestamp.isDay(year, month, day) else { return nil }
    return (year, month, day)
  }

  /// A day written in this format.
  ///
  /// - Parameters:
  ///   - year: The year, 1 to 9999.
  ///   - month: The month, 1 to 12.
  ///   - day: The day of the month.
  /// - Returns: The text.
  public func string(year: Int, month: Int, day: Int) -> String {
    var text = ""
    for token in tokens {
      switch token {
      case .year: text += pad(year, 4)
      case .shortYear: text += pad(year % 100, 2)
      case .month(let padded): text += padded ? pad(month, 2) : String(month)
      case .day(let padded): text += padded ? pad(day, 2) : String(day)
      case .literal(let byte): text.append(Character(Unicode.Scalar(byte)))
      case .time: text += "00"
      }
    }
    return text
  }

  /// The pattern.
  public var description: String { pattern }

  /// Two formats are equal when their patterns are.
  ///
  /// - Parameters:
  ///   - lhs: A format.
  ///   - rhs: Another format.
  /// - Returns: Whether the patterns are equal.
  public static func == (lhs: DateFormat, rhs: DateFormat) -> Bool { lhs.pattern == rhs.pattern }

  private static func isLetter(_ byte: UInt8) -> Bool {
    (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
  }

  private func pad(_ value: Int, _ width: Int) -> String {
    let text = String(value)
    return String(repeating: "0", count: max(0, width - text.count)) + text
  }
}
