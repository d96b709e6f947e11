import Foundation
import Loop
import Testing

@testable import LoopCLI

/// Every row of a bank statement is accounted for, and every rule followed or refused: one
/// statement per shape that once lost a row or ignored a rule, imported through the REPL, each
/// with its whole summary and what the ledger then holds.
@MainActor
@Suite struct StatementRowsTests {
  /// Imports `statement` with `rules` (written as `bank.csv` and `bank.csv.rules`), lists the
  /// ledger, and checks that the summary accounts for `dataRows`, the rows after the header:
  /// imported + duplicates + skipped + rejected.
  func importing(
    _ statement: String, rules: String, dataRows: Int?,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws -> TranscriptResult {
    let folder = try TemporaryFolder()
    try Data(statement.utf8).write(to: URL(fileURLWithPath: folder.path("bank.csv")))
    try Data(rules.utf8).write(to: URL(fileURLWithPath: folder.path("bank.csv.rules")))
    let result = try await transcript(
      "ledger import bank.csv\nledger list", currentDirectory: folder.url.path)
    if let dataRows {
      #expect(
        countedRows(in: result.transcript) == dataRows,
        "the summary does not account for every row", sourceLocation: sourceLocation)
    }
    return result
  }

  /// imported + duplicates + skipped + rejected, from a summary such as `Imported 2
  /// transactions; skipped 0 duplicates, 1 row; rejected 1.`; `nil` without one.
  func countedRows(in transcript: String) -> Int? {
    guard
      let summary = transcript.firstMatch(
        of:
          /Imported (\d+|nothing)[^;]*; skipped (\d+) duplicates?(?:, (\d+) rows?)?; rejected (\d+)\./
      )
    else { return nil }
    let imported = Int(summary.1) ?? 0
    return imported + (Int(summary.2) ?? 0) + (summary.3.flatMap { Int($0) } ?? 0)
      + (Int(summary.4) ?? 0)
  }

  static let header = "Buchungstag;Empfänger;Verwendungszweck;Betrag\n"
  static let rules = """
    skip 1
    separator ;
    fields date, payee, description, amount
    date-format %d.%m.%Y
    decimal-mark ,
    description %payee %description

    """

  // MARK: - Rows the reader must split as the header says

  @Test func aQuoteInsideAnUnquotedFieldIsAQuote() async throws {
    let statement =
      Self.header + """
        "02.03.2025";"Mustermann, Max";Firma";"-12,00"
        "03.03.2025";"Bäckerei";"Brot";"-207,00"
        "04.03.2025";"Arbeitgeber";"Gehalt";"1.500,00"

        """
    let result = try await importing(statement, rules: Self.rules, dataRows: 3)
    #expect(result.status == 0)
    #expect(
      result.transcript == """
        > ledger import bank.csv
        Imported 3 transactions; skipped 0 duplicates; rejected 0.
        > ledger list
        REF      DATE           AMOUNT  CATEGORY  MEMO
        908b708  2025-03-04  +1,500.00            Arbeitgeber Gehalt
        1645864  2025-03-03    -207.00            Bäckerei Brot
        55cb790  2025-03-02     -12.00            Mustermann, Max Firma"

        """)
  }

  @Test func aQuoteOpeningAFieldNeverClosedOnItsLineNeverMergesTwoRows() async throws {
    let statement = """
      Buchungstag;Empfänger;Betrag
      02.03.2025;"Mustermann;-700,00
      03.03.2025;Bäckerei";-207,00
      04.03.2025;Arbeitgeber;1.500,00

      """
    let rules = "skip 1\nseparator ;\nfields date, description, amount\ndate-format %d.%m.%Y\n"
    let result = try await importing(statement, rules: rules, dataRows: 3)
    #expect(result.status == 0)
    #expect(
      result.transcript == """
        > ledger import bank.csv
        Imported 3 transactions; skipped 0 duplicates; rejected 0.
        > ledger list
        REF      DATE           AMOUNT  CATEGORY  MEMO
        ff5ac31  2025-03-04  +1,500.00            Arbeitgeber
        db4e33c  2025-03-03    -207.00            Bäckerei"
        1bb7f09  2025-03-02    -700.00            "Mustermann

        """)
  }

  @Test func aRowWithAColumnMissingIsRejectedWithItsLineAndTheOthersImport() async throws {
    let statement = """
      Buchung;Auftraggeber;Buchungstext;Verwendungszweck;Betrag;Währung
      01.03.2025;REWE;Lastschrift;Einkauf;-23,45;EUR
      02.03.2025;Arbeitgeber;Gehalt;2.647,74;EUR
      03.03.2025;Kino;Lastschrift;Karten;-20,00;EUR

      """
    let rules = """
      skip 1
      separator ;
      fields date, payee, _, description, amount, currency
      date-format %d.%m.%Y
      decimal-mark ,

      """
    let result = try await importing(statement, rules: rules, dataRows: 3)
    #expect(result.status == 0)
    #expect(
      result.transcript == """
        > ledger import bank.csv
        Imported 2 transactions; skipped 0 duplicates; rejected 1.
          line 3: it has 5 fields and the header 6: a field is missing or one too many (a stray quote, or the separator in an unquoted field), so its values cannot be told apart
        > ledger list
        REF      DATE        AMOUNT  CATEGORY  MEMO
        7e7f30a  2025-03-03  -20.00            Karten
        1b11dbd  2025-03-01  -23.45            Einkauf

        """)
  }

  @Test func aRowWithAFieldTooManyIsRejectedWithItsLine() async throws {
    let statement =
      Self.header + """
        01.03.2025;REWE;Einkauf;-23,45
        02.03.2025;Kino;Karten; 2 Stück;-20,00

        """
    let result = try await importing(statement, rules: Self.rules, dataRows: 2)
    #expect(result.status == 0)
    #expect(
      result.transcript == """
        > ledger import bank.csv
        Imported 1 transaction; skipped 0 duplicates; rejected 1.
          line 3: it has 5 fields and the header 4: a field is missing or one too many (a stray quote, or the separator in an unquoted field), so its values cannot be told apart
        > ledger list
        REF      DATE        AMOUNT  CATEGORY  MEMO
        516f86c  2025-03-01  -23.45            REWE Einkauf

        """)
  }

  // MARK: - Amounts

  @Test func aWordAsAnAmountImportsNothing() async throws {
    let statement =
      Self.header + """
        01.03.2025;REWE;Einkauf;-23,45
        02.03.2025;Kino;Karten;zwanzig
        03.03.2025;Bank;Gebühr;EUR

        """
    let result = try await importing(statement, rules: Self.rules, dataRows: nil)
    #expect(result.status == 1)
    #expect(
      result.transcript == """
        > ledger import bank.csv
        ! test:1: error: 2 rows of 'bank.csv' are invalid (lines 3, 4), so nothing was imported.
        ! line 3: 'zwanzig' is not an amount.
        ! line 4: 'EUR' is not an amount.
        > ledger list
        No transactions yet: add one with 'ledger add expense 12.50 Lunch'.

        """)
  }

  @Test func zerosPastTheCentsChangeNothingAndOtherDigitsAreRefused() async throws {
    let rules = "fields date, description, amount\ndecimal-mark .\n"
    let accepted = try await importing(
      "2025-03-01,Coffee,-1.000\n2025-03-02,Tea,-2.5000\n", rules: rules, dataRows: 2)
    #expect(
      accepted.transcript == """
        > ledger import bank.csv
        Imported 2 transactions; skipped 0 duplicates; rejected 0.
        > ledger list
        REF      DATE        AMOUNT  CATEGORY  MEMO
        d3cacd8  2025-03-02   -2.50            Tea
        3758145  2025-03-01   -1.00            Coffee

        """)
    let refused = try await importing(
      "2025-03-01,Coffee,-1.000\n2025-03-02,Tea,-2.505\n", rules: rules, dataRows: nil)
    #expect(refused.status == 1)
    #expect(
      refused.transcript == """
        > ledger import bank.csv
        ! test:1: error: Line 2 of 'bank.csv' is invalid, so nothing was imported: '2.505' has more than 2 decimal places.
        ! line 2: '2.505' has more than 2 decimal places.
        > ledger list
        No transactions yet: add one with 'ledger add expense 12.50 Lunch'.

        """)
  }

  // MARK: - hledger's field names

  static let balanceRules = """
    skip 1
    separator ;
    fields date, payee, description, amount, balance
    date-format %d.%m.%Y
    decimal-mark ,

    """

  @Test func aBalanceThatTheAmountsMakeImports() async throws {
    let statement = """
      Datum;Empfänger;Zweck;Betrag;Saldo
      01.03.2025;REWE;Einkauf;-23,45;976,55
      02.03.2025;Arbeitgeber;Gehalt;2.500,00;3.476,55
      03.03.2025;Bank;Abschluss;0,00;3.476,55
      04.03.2025;Kino;Karten;-20,00;3.456,55

      """
    let result = try await importing(statement, rules: Self.balanceRules, dataRows: 4)
    #expect(result.status == 0)
    #expect(
      result.transcript == """
        > ledger import bank.csv
        Imported 3 transactions; skipped 0 duplicates, 1 row; rejected 0.
          line 4 skipped: the amount is zero
        > ledger list
        REF      DATE           AMOUNT  CATEGORY  MEMO
        61923fd  2025-03-04     -20.00            Karten
        052572c  2025-03-02  +2,500.00            Gehalt
        1b11dbd  2025-03-01     -23.45            Einkauf

        """)
  }

  @Test func aBalanceTheAmountsDoNotMakeImportsNothingAndSaysByHowMuch() async throws {
    let statement = """
      Datum;Empfänger;Zweck;Betrag;Saldo
      04.03.2025;Kino;Karten;-20,00;3.466,55
      02.03.2025;Arbeitgeber;Gehalt;2.500,00;3.476,55
      01.03.2025;REWE;Einkauf;-23,45;976,55

      """
    let result = try await importing(statement, rules: Self.balanceRules, dataRows: nil)
    #expect(result.status == 1)
    #expect(
      result.transcript == """
        > ledger import bank.csv
        ! test:1: error: Line 2 of 'bank.csv' is invalid, so nothing was imported: its balance is 3.466,55, but the running balance is 3.456,55 (difference: 10,00).
        ! line 2: its balance is 3.466,55, but the running balance is 3.456,55 (difference: 10,00)
        > ledger list
        No transactions yet: add one with 'ledger add expense 12.50 Lunch'.

        """)
  }

  @Test(arguments: [
    ("date2", "a Loop transaction has one date, 'date'"),
    (
      "status", "a Loop transaction has no status; leave out pending rows with an if block and skip"
    ),
    ("code", "a Loop transaction has no code"),
    ("balance1", "Loop checks the statement's running balance with 'balance'"),
    ("balance2", "Loop checks the statement's running balance with 'balance'"),
    (
      "amount2",
      "a Loop transaction has one amount, the statement's: 'amount', or 'amount-in' and "
        + "'amount-out'"
    ),
    (
      "amount2-in",
      "a Loop transaction has one amount, the statement's: 'amount', or 'amount-in' and "
        + "'amount-out'"
    ),
    (
      "amount3-out",
      "a Loop transaction has one amount, the statement's: 'amount', or 'amount-in' and "
        + "'amount-out'"
    ),
    ("account3", "a Loop transaction has one category, from 'account2'"),
    ("comment1", "Loop's memo takes the transaction's 'comment', not a posting's"),
    ("currency2", "a ledger keeps one currency, 'currency'"),
  ])
  func aFieldNameOfHledgersLoopDoesNotFollowIsRefusedWithItsLine(
    name: String, reason: String
  ) async throws {
    let statement = Self.header + "01.03.2025;REWE;Einkauf;-23,45;x\n"
    let rules = """
      skip 1
      separator ;
      fields date, payee, description, amount, \(name)

      """
    let result = try await importing(statement, rules: rules, dataRows: nil)
    #expect(result.status == 1)
    #expect(
      result.transcript == """
        > ledger import bank.csv
        ! test:1: error: Line 3 of 'bank.csv.rules': '\(name)' is hledger's and Loop does not follow it: \(reason).
        > ledger list
        No transactions yet: add one with 'ledger add expense 12.50 Lunch'.

        """)
  }

  @Test func aLineBreakInAnAssignmentIsASpaceInTheMemo() async throws {
    let statement = Self.header + "01.03.2025;REWE;Einkauf;-23,45\n"
    let rules = Self.rules + "description %payee\\n%description\ncomment \\nBeleg %amount\n"
    let result = try await importing(statement, rules: rules, dataRows: 1)
    #expect(
      result.transcript == """
        > ledger import bank.csv
        Imported 1 transaction; skipped 0 duplicates; rejected 0.
        > ledger list
        REF      DATE        AMOUNT  CATEGORY  MEMO
        e4313ba  2025-03-01  -23.45            REWE Einkauf; Beleg -23,45

        """)
  }

  @Test func anAccountInBracketsOrParenthesesIsTheCategoryInside() async throws {
    let statement =
      Self.header + "01.03.2025;REWE;Einkauf;-23,45\n02.03.2025;Kino;Karten;-20,00\n"
    let rules =
      Self.rules + "if REWE\n account2 [expenses:food]\nif Kino\n account2 (expenses:fun)\n"
    let result = try await importing(statement, rules: rules, dataRows: 2)
    #expect(
      result.transcript == """
        > ledger import bank.csv
        Imported 2 transactions; skipped 0 duplicates; rejected 0.
        > ledger list
        REF      DATE        AMOUNT  CATEGORY  MEMO
        09c021c  2025-03-02  -20.00  fun       Kino Karten
        516f86c  2025-03-01  -23.45  food      REWE Einkauf

        """)
  }
}
