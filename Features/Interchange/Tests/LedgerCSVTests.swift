import Foundation
import Interchange
import Ledger
import LedgerClient
import Loop
import TestSupport
import Testing

@Suite struct LedgerCSVTests {
  static let european = LedgerCSVOptions(
    dateFormat: dateFormat("dd.MM.yyyy"), decimalSeparator: .comma)

  @Test func readsAEuropeanBankExport() throws {
    let rows = try LedgerCSV.parse(
      europeanLedgerCSV, file: "bank.csv", options: Self.european, today: now,
      calendar: gregorian(berlin))
    #expect(
      rows == [
        LedgerCSV.Row(
          line: 2,
          fields: TransactionFields(
            kind: .income, amount: Money(minorUnits: 320_000), date: iso("2025-01-30T23:00:00Z"),
            memo: "Gehalt", category: "Arbeit")),
        LedgerCSV.Row(
          line: 3,
          fields: TransactionFields(
            kind: .expense, amount: Money(minorUnits: 123_450),
            date: iso("2025-01-31T23:00:00Z"), memo: "Miete", category: "Wohnen")),
        LedgerCSV.Row(
          line: 4,
          fields: TransactionFields(
            kind: .expense, amount: Money(minorUnits: 1_250), date: iso("2025-02-02T23:00:00Z"),
            memo: "Café; Kuchen", category: "Essen")),
        LedgerCSV.Row(
          line: 5,
          fields: TransactionFields(
            kind: .expense, amount: Money(minorUnits: 99), date: iso("2025-02-04T23:00:00Z"),
            memo: "Zeitung\n(Wochenende)", category: nil)),
      ])
  }

  @Test func oneBadRowFailsTheWholeFileListingEveryBadRow() {
    let text = """
      date,kind,amount,memo
      2025-03-01,expense,12.50,Lunch
      2025-03-01,gift,1.00,Flowers
      03/01/2025,expense,1.00,Bus
      2025-03-02,expense,12.505,Coffee
      2025-03-02,income,"1,000,000,000",Jackpot
      2036-01-01,expense,1,Future
      2025-03-03,expense,1
      2025-03-04,expense,"-5",Refund

      """
    let expected: [ImportRejection] = [
      ImportRejection(line: 3, reason: "'gift' is not a kind: write income or expense"),
      ImportRejection(line: 4, reason: "'03/01/2025' is not a date written yyyy-MM-dd"),
      ImportRejection(line: 5, reason: "'12.505' has more than 2 decimal places."),
      ImportRejection(
        line: 6, reason: "'1,000,000,000' is more than the largest amount, 999,999,999.99."),
      ImportRejection(
        line: 7,
        reason: "'2036-01-01' is not a plausible date: pick a day from 1970-01-01 to 2035-03-15."),
      ImportRejection(line: 8, reason: "it has 3 fields, but the header has 4"),
      ImportRejection(line: 9, reason: "The amount must be greater than zero, not '-5.00'."),
    ]
    #expect(throws: InterchangeError.rowsRejected(file: "ledger.csv", expected)) {
      try LedgerCSV.parse(
        text, file: "ledger.csv", options: LedgerCSVOptions(), today: now,
        calendar: gregorian(berlin))
    }
    #expect(
      InterchangeError.rowsRejected(file: "ledger.csv", expected).description
        == "7 rows of 'ledger.csv' are invalid (lines 3, 4, 5, 6, 7, …), so nothing was "
        + "imported.")
    #expect(
      InterchangeError.rowsRejected(file: "ledger.csv", Array(expected.prefix(2))).description
        == "2 rows of 'ledger.csv' are invalid (lines 3, 4), so nothing was imported.")
  }

  @Test func aHeaderWithoutDateKindAndAmountIsRefused() {
    #expect(
      throws: InterchangeError.invalidHeader(
        file: "ledger.csv",
        reason: "it lacks the column 'amount'; a ledger CSV has the columns date, kind, amount, "
          + "memo, category")
    ) {
      try LedgerCSV.parse(
        "date,kind,memo\n", file: "ledger.csv", options: LedgerCSVOptions(), today: now,
        calendar: gregorian(berlin))
    }
  }

  static let transactions = [
    LedgerTransaction(
      id: LedgerTransaction.ID(UUID(counting: 1)), kind: .expense,
      amount: Money(minorUnits: 123_450), date: iso("2025-01-31T23:30:00Z"), memo: "Miete",
      category: "Wohnen", createdAt: now),
    LedgerTransaction(
      id: LedgerTransaction.ID(UUID(counting: 2)), kind: .income, amount: Money(minorUnits: 7),
      date: iso("2025-01-30T12:00:00Z"), memo: "Zinsen; klein", createdAt: now),
  ]

  @Test func writesDaysInTheUserTimeZoneAndAmountsWithoutGrouping() {
    #expect(
      LedgerCSV.write(
        Self.transactions, options: LedgerCSVOptions(), calendar: gregorian(berlin)) == """
          date,kind,amount,memo,category
          2025-02-01,expense,1234.50,Miete,Wohnen
          2025-01-30,income,0.07,Zinsen; klein,

          """)
    #expect(
      LedgerCSV.write(Self.transactions, options: Self.european, calendar: gregorian(berlin))
        == """
        date;kind;amount;memo;category
        01.02.2025;expense;1234,50;Miete;Wohnen
        30.01.2025;income;0,07;"Zinsen; klein";

        """)
  }

  @Test func readingWhatItWritesGivesTheSameDaysAmountsAndText() throws {
    let text = LedgerCSV.write(
      Self.transactions, options: Self.european, calendar: gregorian(berlin))
    let rows = try LedgerCSV.parse(
      text, file: "ledger.csv", options: Self.european, today: now, calendar: gregorian(berlin))
    #expect(rows.map(\.fields.amount) == Self.transactions.map(\.amount))
    #expect(rows.map(\.fields.memo) == Self.transactions.map(\.memo))
    #expect(rows.map(\.fields.date) == [iso("2025-01-31T23:00:00Z"), iso("2025-01-29T23:00:00Z")])
  }
}
