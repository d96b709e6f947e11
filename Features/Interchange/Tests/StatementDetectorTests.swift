import Foundation
import LedgerClient
import Testing

@testable import Interchange

@Suite struct StatementDetectorTests {
  @Test func theRulesInferredPastAPreambleAreAnHledgerRulesFile() throws {
    let rules = try inferredRules(StatementShape.preambleOfThirteenLines.bytes)
    #expect(
      rules.text == """
        # Rules inferred by Loop from 'bank.csv', in hledger's CSV rules format. Check them, save
        # them as 'bank.csv.rules' beside it, and adjust them: 'ledger import' then reads them.
        skip 11
        separator ;
        encoding utf-8
        fields date, wertstellung, buchungstext, payee, description, amount, _
        date-format %d.%m.%Y
        decimal-mark ,
        newest-first
        description %payee %description

        """)
    #expect(rules.file == "bank.csv.rules")
  }

  @Test func pendingRowsGetARuleThatSkipsThem() throws {
    let byStatus = try inferredRules(StatementShape.pendingByStatus.bytes)
    #expect(
      byStatus.text.hasSuffix(
        """
        fields date, status_, payee, description, amount
        date-format %d.%m.%Y
        decimal-mark ,
        newest-first
        description %payee %description

        # 'vorgemerkt': pending, not booked yet
        if %status_ ^vorgemerkt$
         skip

        """))
    let byDate = try inferredRules(StatementShape.pendingInsteadOfADate.bytes)
    #expect(
      byDate.text.hasSuffix(
        """
        skip 5
        separator ;
        encoding utf-8
        fields date, wertstellung_valuta, vorgang, description, amount, _
        date-format %d.%m.%Y
        decimal-mark ,

        # 'alter kontostand' instead of a date: not a booked transaction
        if %date ^alter kontostand$
         skip

        # 'offen' instead of a date: not a booked transaction
        if %date ^offen$
         skip

        """))
    let statement = try read(StatementShape.pendingByStatus.bytes, rules: byStatus)
    #expect(
      statement.skipped == [
        ImportRejection(line: 2, reason: "the rule on line 13 of the inferred rules skips it")
      ])
  }

  @Test func aLatin1StatementsRulesSayItsEncoding() throws {
    let rules = try inferredRules(StatementShape.latin1Encoded.bytes)
    #expect(rules.text.contains("\nencoding iso-8859-1\n"))
    #expect(rules.text.contains("\ndate-format %d.%m.%y\n"))
  }

  @Test func theDateFormatAndDecimalMarkGivenAreUsed() throws {
    let text = "Date,Description,Amount\n01/02/2025,A,\"1,000\"\n"
    let rules = try StatementDetector.rules(
      for: text, file: "bank.csv", encoding: .utf8,
      dateFormat: try DateFormat(strftime: "%m/%d/%Y"), decimalMark: .comma)
    #expect(rules.text.contains("\ndate-format %m/%d/%Y\ndecimal-mark ,\n"))
  }

  static let unclear: [(String, String)] = [
    (
      "Buchungstag;Betrag\n01.03.2025;-1,00\n",
      "it could not find the memo column (such as Verwendungszweck, Auftraggeber/Empfänger, "
        + "Description or Payee) in the header on line 1, 'Buchungstag;Betrag'"
    ),
    (
      "Kontoauszug\nDatum;Verwendungszweck;Wert\n01.03.2025;Miete;-1,00\n",
      "it could not find the amount column (such as Betrag, Umsatz or Amount, or Soll and "
        + "Haben) in the header on line 2, 'Datum;Verwendungszweck;Wert'"
    ),
    (
      "Betrag;Verwendungszweck\n-1,00;Miete\n",
      "it could not find the date column (such as Buchungstag, Buchungsdatum, Datum or Date) in "
        + "the header on line 1, 'Betrag;Verwendungszweck'"
    ),
    (
      "Date,Description,Amount\n01/02/2025,A,1.00\n03/04/2025,B,2.00\n",
      "it could not tell whether the dates in the column 'Date', such as '01/02/2025', are "
        + "written %d/%m/%Y or %m/%d/%Y"
    ),
    (
      "Buchungstag;Verwendungszweck;Betrag\n2025/31/12;A;1,00\n",
      "it could not read the dates in the column 'Buchungstag', such as '2025/31/12'"
    ),
    (
      "Date,Description,Amount\n2025-03-01,A,1.50\n2025-03-02,B,\"2,50\"\n",
      "it could not tell whether the amounts in the column 'Amount' have a decimal comma or a "
        + "decimal point"
    ),
    (
      "01.03.2025;-12,50;REWE;1.000,00\n02.03.2025;-3,00;Bäcker;997,00\n",
      "it found no header naming the columns (such as Buchungstag, Betrag and Verwendungszweck, "
        + "or Date, Amount and Description), and without a header it could not tell which "
        + "column is the amount: columns 2 and 4 hold numbers"
    ),
    (
      "hello\nworld\n",
      "it found no header naming the columns (such as Buchungstag, Betrag and Verwendungszweck, "
        + "or Date, Amount and Description), and no column holds only dates and another only "
        + "amounts"
    ),
  ]

  @Test(arguments: unclear)
  func aLayoutItCannotFindIsAnErrorSayingWhatIsMissing(_ text: String, _ reason: String) {
    #expect(throws: InterchangeError.unknownStatementLayout(file: "bank.csv", reason: reason)) {
      try StatementDetector.rules(for: text, file: "bank.csv", encoding: .utf8)
    }
  }

  @Test func anUnknownLayoutAsksForARulesFile() {
    #expect(
      InterchangeError.unknownStatementLayout(file: "bank.csv", reason: "it is unclear")
        .description
        == "Loop cannot read 'bank.csv' as a bank statement: it is unclear. Describe it in a "
        + "rules file, 'bank.csv.rules' (see \"Importing a bank statement\" in the README).")
  }
}
