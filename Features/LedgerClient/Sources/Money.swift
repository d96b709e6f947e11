import Foundation
import Loop

/// An amount of money in integer minor units (cents): never floating point.
///
/// `Money(minorUnits: 1250)` is 12.50. Amounts are parsed from what people type and formatted
/// back with a choice of decimal separator:
///
/// ```swift
/// let lunch = try Money(parsing: "1,234.50")                          // 123450 minor units
/// let miete = try Money(parsing: "1.234,50", decimalSeparator: .comma)  // the same amount
/// lunch.formatted()                                                    // "1,234.50"
/// ```
///
/// Every amount has two decimal places; the currency is not stored (a ledger keeps one).
/// Amounts a person enters are at most ``maximum`` (999,999,999.99), so that the sums the ledger
/// computes stay far from `Int64`'s limits. It encodes as its bare number of minor units:
/// `1250`.
public struct Money: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
  /// The amount in minor units: 1250 is 12.50.
  public var minorUnits: Int64

  /// Creates an amount from minor units.
  public init(minorUnits: Int64) {
    self.minorUnits = minorUnits
  }

  /// Zero.
  public static let zero = Money(minorUnits: 0)

  /// The largest amount one transaction may hold: 999,999,999.99.
  public static let maximum = Money(minorUnits: 99_999_999_999)

  /// The number of decimal places: 2.
  public static let decimalPlaces = 2

  /// The character between the whole and the fractional part, and with it the one that groups
  /// thousands.
  public enum DecimalSeparator: String, Sendable, CaseIterable, Codable {
    /// `1,234.50`: a period before the cents, commas between thousands.
    case period = "."
    /// `1.234,50`: a comma before the cents, periods between thousands (much of Europe).
    case comma = ","

    /// The character that separates groups of thousands.
    public var groupingSeparator: Character { Character(Unicode.Scalar(groupingByte)) }

    /// The decimal separator itself.
    public var character: Character { Character(Unicode.Scalar(byte)) }

    /// ``character`` as its one UTF-8 byte.
    var byte: UInt8 {
      switch self {
      case .period: UInt8(ascii: ".")
      case .comma: UInt8(ascii: ",")
      }
    }

    /// ``groupingSeparator`` as its one UTF-8 byte.
    var groupingByte: UInt8 {
      switch self {
      case .period: UInt8(ascii: ",")
      case .comma: UInt8(ascii: ".")
      }
    }
  }

  /// Parses an amount as people type it.
  ///
  /// With the default ``DecimalSeparator/period``, all of these are accepted: `12`, `12.5`,
  /// `12.50`, `.50`, `1234.50`, `1,234.50`, `1,234,567`, `+12`, `-12.50`, with spaces around.
  /// Thousands may be grouped, but then every group after the first has exactly three digits.
  /// With ``DecimalSeparator/comma`` the two separators swap: `1.234,50`, `12,5`.
  ///
  /// ```swift
  /// try Money(parsing: "1,234.50").minorUnits  // 123450
  /// try Money(parsing: "12,5,0")               // throws LedgerError.invalidAmount("12,5,0")
  /// ```
  ///
  /// - Parameters:
  ///   - text: The amount as typed.
  ///   - decimalSeparator: Which character separates the cents.
  /// - Throws: ``LedgerError/invalidAmount(_:)`` when `text` is not a number written that way
  ///   (letters, a currency sign, misplaced group separators, two decimal separators, nothing
  ///   after the decimal separator), ``LedgerError/tooManyDecimalPlaces(_:)`` for more than two
  ///   decimals, ``LedgerError/amountTooLarge(_:)`` beyond ``maximum`` either way.
  public init(parsing text: String, decimalSeparator: DecimalSeparator = .period)
    throws(LedgerError)
  {
    if let units = Self.plainMinorUnits(text, decimalSeparator: decimalSeparator) {
      self.minorUnits = units
      return
    }
    var body = Substring(text.trimmedOfWhitespace)
    var isNegative = false
    if let sign = body.first, sign == "-" || sign == "+" {
      isNegative = sign == "-"
      body = body.dropFirst()
    }
    let parts = body.split(
      separator: decimalSeparator.character, maxSplits: 2, omittingEmptySubsequences: false)
    guard parts.count <= 2 else { throw .invalidAmount(text) }
    let whole = parts[0]
    let fraction = parts.count == 2 ? parts[1] : nil
    guard
      let wholeDigits = Self.wholeDigits(whole, groupedBy: decimalSeparator.groupingSeparator),
      !wholeDigits.isEmpty || !(fraction ?? "").isEmpty,
      fraction.map({ !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) }) ?? true
    else { throw .invalidAmount(text) }
    let fractionDigits = fraction ?? ""
    guard fractionDigits.count <= Self.decimalPlaces else { throw .tooManyDecimalPlaces(text) }

    var units: Int64 = 0
    let maximum = Self.maximum.minorUnits
    let cents =
      fractionDigits + String(repeating: "0", count: Self.decimalPlaces - fractionDigits.count)
    for digit in wholeDigits.drop(while: { $0 == "0" }) + cents {
      // NB: checked before multiplying, so a long string of digits cannot overflow `Int64`.
      guard units <= maximum / 10 else { throw .amountTooLarge(text) }
      // NB: every character here is an ASCII digit, checked above.
      units = units * 10 + Int64(digit.wholeNumberValue ?? 0)
    }
    guard units <= maximum else { throw .amountTooLarge(text) }
    self.minorUnits = isNegative ? -units : units
  }

  /// The minor units of an amount written the plain way, ASCII digits with at most one
  /// decimal separator and one or two digits after it (`12`, `12.5`, `.50`), within
  /// ``maximum``; `nil` for any other text, which the general parsing reads or rejects.
  ///
  /// NB: what the general parsing makes of such text, without its splitting and joining of
  /// strings (a scripted `ledger add` parsed its amount twice, a thirtieth of the command).
  /// Never throws: text the general parsing rejects one way or another takes that path.
  private static func plainMinorUnits(
    _ text: String, decimalSeparator: DecimalSeparator
  ) -> Int64? {
    let separator = UInt8(ascii: decimalSeparator == .period ? "." : ",")
    let maximum = Self.maximum.minorUnits
    var units: Int64 = 0
    var digits = 0
    /// How many digits followed the decimal separator; `nil` before it.
    var fractionDigits: Int?
    for byte in text.utf8 {
      if byte == separator {
        guard fractionDigits == nil else { return nil }
        fractionDigits = 0
        continue
      }
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), units <= maximum / 10 else {
        return nil
      }
      if let fraction = fractionDigits {
        guard fraction < Self.decimalPlaces else { return nil }
        fractionDigits = fraction + 1
      }
      digits += 1
      units = units * 10 + Int64(byte - UInt8(ascii: "0"))
    }
    guard digits > 0, fractionDigits != 0 else { return nil }
    for _ in (fractionDigits ?? 0)..<Self.decimalPlaces {
      guard units <= maximum / 10 else { return nil }
      units *= 10
    }
    return units <= maximum ? units : nil
  }

  /// The digits of the whole part, or `nil` when it is not digits grouped correctly.
  private static func wholeDigits(_ whole: Substring, groupedBy separator: Character) -> String? {
    let groups = whole.split(separator: separator, omittingEmptySubsequences: false)
    guard groups.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }) else { return nil }
    if groups.count > 1 {
      guard (1...3).contains(groups[0].count), groups.dropFirst().allSatisfy({ $0.count == 3 })
      else { return nil }
    }
    return groups.joined()
  }

  /// The amount written with two decimals and grouped thousands: `1,234.50`, `-12.00`.
  ///
  /// What it writes, ``init(parsing:decimalSeparator:)`` reads back with the same separator.
  ///
  /// - Parameter decimalSeparator: Which character separates the cents.
  /// - Returns: The text.
  public func formatted(decimalSeparator: DecimalSeparator = .period) -> String {
    // NB: written backwards into bytes, cents first, not joined from strings: a ledger
    // listing formats an amount on every row. The longest, `Int64.min`'s, takes 26 bytes: a
    // sign, 17 digits of units and the 5 separators between their groups, the decimal
    // separator and 2 digits of cents.
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { text in
      var start = text.count
      func prepend(_ byte: UInt8) {
        start -= 1
        text[start] = byte
      }
      // NB: `magnitude` so that `Int64.min` has a positive counterpart.
      var rest = minorUnits.magnitude
      func prependDigit() {
        prepend(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10))
        rest /= 10
      }
      prependDigit()
      prependDigit()
      prepend(decimalSeparator.byte)
      var units = 0
      repeat {
        if units > 0, units % 3 == 0 { prepend(decimalSeparator.groupingByte) }
        prependDigit()
        units += 1
      } while rest > 0
      if minorUnits < 0 { prepend(UInt8(ascii: "-")) }
      return String(decoding: UnsafeBufferPointer(rebasing: text[start...]), as: UTF8.self)
    }
  }

  /// The amount as ``formatted(decimalSeparator:)`` writes it with a period: `1,234.50`.
  public var description: String { formatted() }

  /// Returns whether `lhs` is less than `rhs`.
  ///
  /// - Parameters:
  ///   - lhs: An amount.
  ///   - rhs: Another amount.
  /// - Returns: `true` when `lhs` is the smaller.
  public static func < (lhs: Money, rhs: Money) -> Bool { lhs.minorUnits < rhs.minorUnits }

  /// Adds two amounts.
  ///
  /// - Parameters:
  ///   - lhs: An amount.
  ///   - rhs: Another amount.
  /// - Returns: The sum.
  public static func + (lhs: Money, rhs: Money) -> Money {
    Money(minorUnits: lhs.minorUnits + rhs.minorUnits)
  }

  /// Subtracts one amount from another.
  ///
  /// - Parameters:
  ///   - lhs: An amount.
  ///   - rhs: The amount to subtract.
  /// - Returns: The difference.
  public static func - (lhs: Money, rhs: Money) -> Money {
    Money(minorUnits: lhs.minorUnits - rhs.minorUnits)
  }

  /// Adds an amount to this one.
  ///
  /// - Parameters:
  ///   - lhs: The amount to change.
  ///   - rhs: The amount to add.
  public static func += (lhs: inout Money, rhs: Money) {
    lhs = lhs + rhs
  }

  /// Decodes an amount from its number of minor units.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: When the value is not an integer.
  public init(from decoder: any Decoder) throws {
    minorUnits = try decoder.singleValueContainer().decode(Int64.self)
  }

  /// Encodes the amount as its number of minor units.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(minorUnits)
  }
}

extension Character {
  /// Whether this is one of `0` to `9` (not another script's digits, nor `½`).
  var isASCIIDigit: Bool { isASCII && isWholeNumber }
}
