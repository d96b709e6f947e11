import Foundation
import Ledger
import LedgerClient
import Loop
import TestSupport
import Testing

@testable import Interchange

/// The transactions a statement read, as ``Booked`` values (days in Berlin).
func booked(_ statement: BankStatement) -> [Booked] {
  let calendar = gregorian(berlin)
  return statement.rows.map { row in
    let day = calendar.dateComponents([.year, .month, .day], from: row.fields.date)
    return Booked(
      line: row.line, kind: row.fields.kind, cents: row.fields.amount.minorUnits,
      day: DateFormat.iso.string(year: day.year ?? 0, month: day.month ?? 0, day: day.day ?? 0),
      memo: row.fields.memo)
  }
}

/// Reads a statement's bytes with rules, as an import does.
func read(_ data: Data, rules: CSVRules, file: String = "bank.csv") throws -> BankStatement {
  let (text, _) = try ImportFile.statementText(of: data, file: file, encoding: rules.encoding)
  let statement = try BankStatement.read(
    text, file: file, rules: rules, today: now, calendar: gregorian(berlin))
  expectEveryRowCounted(statement, text: text, rules: rules)
  return statement
}

/// The rules Loop infers for a statement's bytes.
func inferredRules(_ data: Data, file: String = "bank.csv") throws -> CSVRules {
  let (text, encoding) = try ImportFile.statementText(of: data, file: file, encoding: nil)
  return try StatementDetector.rules(for: text, file: file, encoding: encoding)
}

@Suite struct BankStatementTests {
  // MARK: Every shape, with rules and without

  @Test(arguments: StatementShape.all)
  func aStatementReadsWithItsRules(_ shape: StatementShape) throws {
    let rules = try CSVRules(parsing: shape.rules, file: "bank.csv.rules")
    let statement = try read(shape.bytes, rules: rules)
    #expect(booked(statement) == shape.booked)
    #expect(statement.skipped.map(\.line) == shape.skippedLines)
  }

  @Test(arguments: StatementShape.all)
  func aStatementReadsWithoutRules(_ shape: StatementShape) throws {
    let statement = try read(shape.bytes, rules: try inferredRules(shape.bytes))
    #expect(booked(statement) == shape.booked)
    #expect(statement.skipped.map(\.line) == shape.skippedLines)
  }

  @Test(arguments: StatementShape.all)
  func theInferredRulesSavedAsAFileReadTheSameTransactions(_ shape: StatementShape) throws {
    let inferred = try inferredRules(shape.bytes)
    let saved = try CSVRules(parsing: inferred.text, file: "bank.csv.rules")
    let fromSaved = try read(shape.bytes, rules: saved)
    let fromInferred = try read(shape.bytes, rules: inferred)
    #expect(fromSaved.rows == fromInferred.rows)
    #expect(fromSaved.skipped.map(\.line) == fromInferred.skipped.map(\.line))
  }

  @Test func aLineOfSpacesBeforeTheHeaderIsARecordThatSkipCounts() throws {
    // NB: hledger drops only lines of one empty field before it skips; a line of spaces counts.
    let rules = try CSVRules(
      parsing: "skip 2\nfields date, description, amount\n", file: "bank.csv.rules")
    let statement = try read(
      Data(" \n\nDate,Text,Amount\n2025-03-01,Fee,-2.50\n".utf8), rules: rules)
    #expect(
      booked(statement) == [
        Booked(line: 4, kind: .expense, cents: 250, day: "2025-03-01", memo: "Fee")
      ])
  }

  // MARK: Amounts

  @Test func moneyOutIsAnExpenseWhateverItsSign() throws {
    let rules = try CSVRules(
      parsing: "fields date, description, amount-out, amount-in\n", file: "bank.csv.rules")
    let statement = try read(
      Data("2025-03-01,Fee,-2.50,\n2025-03-02,Rent,900,\n2025-03-03,Pay,,-10\n".utf8),
      rules: rules)
    #expect(
      booked(statement) == [
        Booked(line: 1, kind: .expense, cents: 250, day: "2025-03-01", memo: "Fee"),
        Booked(line: 2, kind: .expense, cents: 90_000, day: "2025-03-02", memo: "Rent"),
        Booked(line: 3, kind: .income, cents: 1_000, day: "2025-03-03", memo: "Pay"),
      ])
  }

  @Test(arguments: [
    ("-12,50 EUR", -1_250), ("EUR -12,50", -1_250), ("€12,50", 1_250), ("(5.00)", -500),
    ("--5", 500), ("+7", 700), ("12,50-", -1_250), ("1.234,56", 123_456), ("1,234.56", 123_456),
    ("-10,7", -1_070), ("200", 20_000), ("-13721", -1_372_100), ("1 234,56", 123_456),
  ])
  func anAmountIsReadAsAStatementWritesIt(_ text: String, _ cents: Int64) throws {
    let rules = try CSVRules(parsing: "separator ;\nfields date, amount\n", file: "r")
    let statement = try read(Data("2025-03-01;\(text)\n".utf8), rules: rules)
    let row = try #require(statement.rows.first)
    #expect(row.fields.kind == (cents < 0 ? .expense : .income))
    #expect(row.fields.amount.minorUnits == cents.magnitude)
  }

  @Test func rowsWithoutAnAmountAreSkippedWithTheirReason() throws {
    let rules = try CSVRules(
      parsing: "separator ;\nfields date, description, amount-out, amount-in\n", file: "r")
    let statement = try read(
      Data("2025-03-01;Notice;0,00;\n2025-03-02;Empty;;\n2025-03-03;Zero;-0;0\n".utf8),
      rules: rules)
    #expect(statement.rows.isEmpty)
    #expect(
      statement.skipped == [
        ImportRejection(line: 1, reason: "the amount is zero"),
        ImportRejection(line: 2, reason: "it has no amount"),
        ImportRejection(line: 3, reason: "the amount is zero"),
      ])
  }

  @Test func everyInvalidRowIsListedAndNothingIsRead() throws {
    let rules = try CSVRules(
      parsing: """
        separator ;
        fields date, description, amount-out, amount-in, currency
        date-format %d.%m.%Y

        """, file: "r")
    let text = """
      01.03.2025;Fine;1,00;;EUR
      31.02.2025;Bad day;1,00;;EUR
      ;No day;1,00;;EUR
      02.03.2025;Both;1,00;2,00;EUR
      02.03.2025;Dollars;1,00;;USD
      02.03.2025;Marks;1,2,3;;EUR

      """
    #expect(
      throws: InterchangeError.rowsRejected(
        file: "bank.csv",
        [
          ImportRejection(line: 2, reason: "'31.02.2025' is not a date written %d.%m.%Y"),
          ImportRejection(line: 3, reason: "it has no date"),
          ImportRejection(
            line: 4,
            reason: "it has money in ('2,00') and money out ('1,00'); a row has one amount"),
          ImportRejection(
            line: 5,
            reason: "its currency is 'USD', not the statement's 'EUR': a ledger keeps one currency"),
          ImportRejection(line: 6, reason: "'1,2,3' is not an amount."),
        ])
    ) {
      try read(Data(text.utf8), rules: rules)
    }
  }

  // MARK: Memos and categories

  @Test func ifBlocksCategoriseByTheLastPartOfAccount2() throws {
    let rules = try CSVRules(
      parsing: """
        separator ;
        fields date, payee, amount
        account1 assets:bank:giro
        account2 expenses:unknown

        if REWE|EDEKA
         account2 expenses:Food
        if %payee ^Stadtwerke
        & %amount ^-
         account2 expenses:home:Energy

        """, file: "bank.csv.rules")
    let statement = try read(
      Data(
        """
        2025-03-01;REWE Markt;-12,00
        2025-03-02;Edeka Center;-8,00
        2025-03-03;Stadtwerke;-50,00
        2025-03-04;Stadtwerke Bonus;5,00

        """.utf8), rules: rules)
    #expect(statement.rows.map(\.fields.category) == ["Food", "Food", "Energy", "unknown"])
  }

  @Test func aRuleSkipsOrEndsWithItsLineAsTheReason() throws {
    let rules = try CSVRules(
      parsing: """
        separator ;
        fields date, description, amount

        if ^Vormerkung
         skip
        if !%amount [0-9]
         skip 2
        if ^Kontostand
         end

        """, file: "bank.csv.rules")
    let statement = try read(
      Data(
        """
        Vormerkung;Kino;-9,00
        2025-03-01;Note;x
        2025-03-01;Anything;-1,00
        2025-03-02;Lunch;-7,00
        Kontostand;;100,00
        2025-03-03;After;-1,00

        """.utf8), rules: rules)
    #expect(booked(statement).map(\.line) == [4])
    #expect(
      statement.skipped == [
        ImportRejection(line: 1, reason: "the rule on line 4 of 'bank.csv.rules' skips it"),
        ImportRejection(line: 2, reason: "the rule on line 6 of 'bank.csv.rules' skips it"),
        ImportRejection(line: 3, reason: "the rule on line 6 of 'bank.csv.rules' skips it"),
        ImportRejection(
          line: 5, reason: "the rule on line 8 of 'bank.csv.rules' ends the statement before it"),
        ImportRejection(
          line: 6, reason: "the rule on line 8 of 'bank.csv.rules' ends the statement before it"),
      ])
  }

  @Test func theMemoJoinsItsFieldsSpacedOnceAndIsCutToItsLimit() throws {
    let rules = try CSVRules(
      parsing: "separator ;\nfields date, payee, description, amount, note\n"
        + "description %payee %description\ncomment %note\n", file: "r")
    let long = String(repeating: "x", count: 300)
    let statement = try read(
      Data("2025-03-01;  REWE ;\"Karte\n  Berlin\";-1;Beleg 7\n2025-03-02;A;\(long);-1;\n".utf8),
      rules: rules)
    #expect(statement.rows.first?.fields.memo == "REWE Karte Berlin; Beleg 7")
    #expect(statement.rows.last?.fields.memo.count == LedgerTransaction.memoLimit)
    #expect(statement.rows.last?.fields.memo.hasSuffix("x…") == true)
  }

  // MARK: Identity and order

  @Test func aRowsIdentityComesFromItsDayAmountAndMemoAndRepeatsCount() throws {
    let rules = try CSVRules(parsing: "separator ;\nfields date, description, amount\n", file: "r")
    let first = try read(
      Data("2025-03-01;Coffee;-3,00\n2025-03-01;Coffee;-3,00\n2025-03-01;Tea;-3,00\n".utf8),
      rules: rules)
    let again = try read(
      Data("2025-03-01;Tea;-3,00\n2025-03-01;Coffee;-3,00\n2025-03-01;Coffee;-3,00\n".utf8),
      rules: rules)
    #expect(Set(first.rows.map(\.id)).count == 3)
    #expect(Set(first.rows.map(\.id)) == Set(again.rows.map(\.id)))
    #expect(
      first.rows[0].id
        == LedgerTransaction.ID(BankStatement.identity("2025-03-01|-300|Coffee|0")))
  }

  @Test func aStatementIsNewestFirstByItsRuleOrItsDates() throws {
    let oldestFirst = "2025-03-01;A;-1\n2025-03-02;B;-1\n"
    let newestFirst = "2025-03-02;B;-1\n2025-03-01;A;-1\n"
    let rules = try CSVRules(parsing: "separator ;\nfields date, description, amount\n", file: "r")
    let ruled = try CSVRules(
      parsing: "separator ;\nfields date, description, amount\nnewest-first\n", file: "r")
    #expect(try read(Data(oldestFirst.utf8), rules: rules).isNewestFirst == false)
    #expect(try read(Data(newestFirst.utf8), rules: rules).isNewestFirst == true)
    #expect(try read(Data(oldestFirst.utf8), rules: ruled).isNewestFirst == true)
  }

  // MARK: Encodings

  @Test func aStatementThatIsNotUTF8IsReadAsLatin1OrAsItsRulesSay() throws {
    let bytes = Data([0x4D, 0xFC, 0x6C, 0x6C, 0x20, 0x80, 0x20, 0xA4, 0x0A])
    let found = try ImportFile.statementText(of: bytes, file: "bank.csv", encoding: nil)
    #expect(found.encoding == .latin1)
    #expect(found.text == "Müll € ¤\n")
    let latin9 = try ImportFile.statementText(of: bytes, file: "bank.csv", encoding: .latin9)
    #expect(latin9.text == "Müll \u{80} €\n")
    let withMark = try ImportFile.statementText(
      of: Data([0xEF, 0xBB, 0xBF]) + Data("Müll\n".utf8), file: "bank.csv", encoding: .latin1)
    #expect(withMark.encoding == .utf8)
    #expect(withMark.text == "Müll\n")
  }
}
