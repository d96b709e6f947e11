import Foundation
import LedgerClient
import TestSupport
import Testing

@Suite struct MoneyTests {
  struct Parse: CustomTestStringConvertible, Sendable {
    var text: String
    var separator: Money.DecimalSeparator = .period
    var minorUnits: Int64
    var testDescription: String { "'\(text)' (\(separator))" }
  }

  @Test(arguments: [
    Parse(text: "12.50", minorUnits: 1250),
    Parse(text: "12", minorUnits: 1200),
    Parse(text: "1,234.50", minorUnits: 123_450),
    Parse(text: "12.5", minorUnits: 1250),
    Parse(text: "0.01", minorUnits: 1),
    Parse(text: ".50", minorUnits: 50),
    Parse(text: "007", minorUnits: 700),
    Parse(text: "1234567.89", minorUnits: 123_456_789),
    Parse(text: "1,234,567", minorUnits: 123_456_700),
    Parse(text: "  42.00\n", minorUnits: 4200),
    Parse(text: "\u{00A0}\u{3000}42.00\u{2028}", minorUnits: 4200),
    Parse(text: "+3", minorUnits: 300),
    Parse(text: "-12.50", minorUnits: -1250),
    Parse(text: "0", minorUnits: 0),
    Parse(text: "999,999,999.99", minorUnits: 99_999_999_999),
    Parse(text: "1.234,50", separator: .comma, minorUnits: 123_450),
    Parse(text: "12,5", separator: .comma, minorUnits: 1250),
    Parse(text: "12", separator: .comma, minorUnits: 1200),
    Parse(text: "1234,56", separator: .comma, minorUnits: 123_456),
    Parse(text: "999999999.99", minorUnits: 99_999_999_999),
    Parse(text: "00.5", minorUnits: 50),
    Parse(text: ",05", separator: .comma, minorUnits: 5),
  ])
  func parsesWhatPeopleType(_ parse: Parse) throws {
    let money = try Money(parsing: parse.text, decimalSeparator: parse.separator)
    #expect(money.minorUnits == parse.minorUnits)
  }

  struct Failure: CustomTestStringConvertible, Sendable {
    var text: String
    var separator: Money.DecimalSeparator = .period
    var error: LedgerError
    var testDescription: String { "'\(text)' (\(separator))" }
  }

  @Test(arguments: [
    Failure(text: "12,5,0", error: .invalidAmount("12,5,0")),
    Failure(text: "", error: .invalidAmount("")),
    Failure(text: "   ", error: .invalidAmount("   ")),
    Failure(text: "abc", error: .invalidAmount("abc")),
    Failure(text: "$12", error: .invalidAmount("$12")),
    Failure(text: "12 50", error: .invalidAmount("12 50")),
    Failure(text: "1e3", error: .invalidAmount("1e3")),
    Failure(text: "12.", error: .invalidAmount("12.")),
    Failure(text: ".", error: .invalidAmount(".")),
    Failure(text: "-", error: .invalidAmount("-")),
    Failure(text: "--5", error: .invalidAmount("--5")),
    Failure(text: "12.5.0", error: .invalidAmount("12.5.0")),
    Failure(text: "1,23", error: .invalidAmount("1,23")),
    Failure(text: "1234,567", error: .invalidAmount("1234,567")),
    Failure(text: ",123", error: .invalidAmount(",123")),
    Failure(text: "1,234,", error: .invalidAmount("1,234,")),
    Failure(text: "1.5a", error: .invalidAmount("1.5a")),
    Failure(text: "١٢", error: .invalidAmount("١٢")),
    Failure(text: "12.505", error: .tooManyDecimalPlaces("12.505")),
    Failure(text: "0.001", error: .tooManyDecimalPlaces("0.001")),
    // NB: too many decimals is what is wrong first, however large the whole part.
    Failure(text: "999999999.991", error: .tooManyDecimalPlaces("999999999.991")),
    Failure(
      text: "99999999999999999999999.505",
      error: .tooManyDecimalPlaces("99999999999999999999999.505")),
    Failure(text: "999999999.999", error: .tooManyDecimalPlaces("999999999.999")),
    Failure(text: "1000000000.5", error: .amountTooLarge("1000000000.5")),
    Failure(text: "12.5.", error: .invalidAmount("12.5.")),
    Failure(text: "1000000000", error: .amountTooLarge("1000000000")),
    Failure(text: "-1,000,000,000.00", error: .amountTooLarge("-1,000,000,000.00")),
    Failure(
      text: "99999999999999999999999999", error: .amountTooLarge("99999999999999999999999999")),
    Failure(text: "12.50", separator: .comma, error: .invalidAmount("12.50")),
    Failure(text: "1,234.50", separator: .comma, error: .invalidAmount("1,234.50")),
    Failure(text: "1,2,3", separator: .comma, error: .invalidAmount("1,2,3")),
  ])
  func rejectsWhatIsNotAnAmount(_ failure: Failure) {
    #expect(throws: failure.error) {
      try Money(parsing: failure.text, decimalSeparator: failure.separator)
    }
  }

  @Test func theErrorForAMalformedAmountQuotesTheInput() {
    #expect(throws: LedgerError.invalidAmount("12,5,0")) { try Money(parsing: "12,5,0") }
    #expect(LedgerError.invalidAmount("12,5,0").description == "'12,5,0' is not an amount.")
  }

  @Test(arguments: [
    (Int64(0), "0.00", "0,00"),
    (1, "0.01", "0,01"),
    (1250, "12.50", "12,50"),
    (-1250, "-12.50", "-12,50"),
    (100_000, "1,000.00", "1.000,00"),
    (123_450, "1,234.50", "1.234,50"),
    (99_999_999_999, "999,999,999.99", "999.999.999,99"),
    (Int64.min, "-92,233,720,368,547,758.08", "-92.233.720.368.547.758,08"),
  ])
  func formatsWithTwoDecimalsAndGroupedThousands(
    minorUnits: Int64, period: String, comma: String
  ) {
    let money = Money(minorUnits: minorUnits)
    #expect(money.formatted() == period)
    #expect(money.formatted(decimalSeparator: .comma) == comma)
    #expect(money.description == period)
  }

  @Test(arguments: Money.DecimalSeparator.allCases)
  func parsesWhatItFormats(separator: Money.DecimalSeparator) throws {
    for minorUnits: Int64 in [0, 5, 99, 100, 123_456, -987_654_321, 99_999_999_999] {
      let text = Money(minorUnits: minorUnits).formatted(decimalSeparator: separator)
      #expect(try Money(parsing: text, decimalSeparator: separator).minorUnits == minorUnits)
    }
  }

  @Test func encodesAsItsMinorUnits() throws {
    let data = try JSONEncoder().encode([Money(minorUnits: 1250)])
    #expect(String(decoding: data, as: UTF8.self) == "[1250]")
    #expect(try JSONDecoder().decode([Money].self, from: data) == [Money(minorUnits: 1250)])
  }

  @Test func addsSubtractsAndCompares() {
    var total = Money(minorUnits: 1000)
    total += Money(minorUnits: 250)
    #expect(total == Money(minorUnits: 1250))
    #expect(total - Money(minorUnits: 2000) == Money(minorUnits: -750))
    #expect(Money(minorUnits: -1) < .zero)
    #expect(Money.maximum.formatted() == "999,999,999.99")
  }
}
