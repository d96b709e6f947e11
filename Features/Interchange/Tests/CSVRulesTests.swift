import Foundation
import LedgerClient
import Testing

@testable import Interchange

@Suite struct CSVRulesTests {
  @Test func aRuleLoopDoesNotSupportIsAnErrorNamingItsLine() {
    let text = """
      # Beispielbank
      skip 1
      timezone Europe/Berlin
      fields date, description, amount

      """
    #expect(
      throws: InterchangeError.invalidRules(
        file: "bank.csv.rules", line: 3,
        reason: "Loop does not support the rule 'timezone'; it reads skip, separator, encoding, "
          + "fields, date-format, decimal-mark, newest-first, if blocks, and date, description, "
          + "payee, comment, amount, amount-in, amount-out, currency, balance, account1 and "
          + "account2")
    ) {
      try CSVRules(parsing: text, file: "bank.csv.rules")
    }
    #expect(
      InterchangeError.invalidRules(
        file: "bank.csv.rules", line: 3,
        reason: CSVRules.unsupported("timezone")
      ).description
        == "Line 3 of 'bank.csv.rules': Loop does not support the rule 'timezone'; it reads "
        + "skip, separator, encoding, fields, date-format, decimal-mark, newest-first, if "
        + "blocks, and date, description, payee, comment, amount, amount-in, amount-out, "
        + "currency, balance, account1 and account2.")
  }

  @Test(arguments: [
    (
      "fields date, amount\n if x\n", 2,
      "an indented rule belongs to an if block, and no if comes before it"
    ),
    ("fields date, amount\nbalance2 %2\n", 2, CSVRules.unsupported("balance2")),
    ("fields date, amount\nif foo\n status *\n", 3, CSVRules.unsupported("status")),
    (
      "fields date, amount\nif foo\n", 2,
      "the if block has no rules: indent them under its patterns"
    ),
    ("fields date, amount\nif\n skip\n", 2, "the if block has no pattern"),
    ("fields date, amount\nif (unclosed\n skip\n", 2, "'(unclosed' is not a regular expression"),
    (
      "fields date, amount\nif %memo x\n skip\n", 2,
      "'%memo' names no column: name it in the fields list, or use its number, such as '%1'"
    ),
    (
      "fields date, amount\ndescription %memo\n", 2,
      "'%memo' names no column: name it in the fields list, or use its number, such as '%1'"
    ),
    ("fields date, amount\nskip many\n", 2, "skip takes a number of records, not 'many'"),
    (
      "fields date, amount\nseparator ;;\n", 2,
      "separator is one character (such as ';' or ','), tab or space, not ';;'"
    ),
    (
      "fields date, amount\nencoding utf-16\n", 2,
      "Loop reads the encodings utf-8, iso-8859-1 (latin1, cp1252) and iso-8859-15, not 'utf-16'"
    ),
    (
      "fields date, amount\ndate-format %b %d %Y\n", 2,
      "'%b %d %Y' is not a date format Loop reads: use %Y (or %y), %m (or %-m) and %d (or %-d) "
        + "with separators, such as '%d.%m.%Y'"
    ),
    ("fields date, amount\ndecimal-mark ;\n", 2, "decimal-mark is ',' or '.', not ';'"),
    ("fields date, amount\nnewest-first yes\n", 2, "newest-first takes no value"),
    ("fields date, amount\nend\n", 2, "end belongs in an if block"),
    (
      "fields date, the amount\n", 1,
      "'the amount' is not a field name: use letters, digits, '_' and '-', no spaces"
    ),
  ])
  func aRuleLoopCannotReadIsAnErrorNamingItsLine(_ text: String, _ line: Int, _ reason: String) {
    #expect(throws: InterchangeError.invalidRules(file: "r", line: line, reason: reason)) {
      try CSVRules(parsing: text, file: "r")
    }
  }

  @Test func rulesWithoutADateOrAnAmountSaySoWithoutALine() {
    #expect(
      throws: InterchangeError.invalidRules(
        file: "r", line: nil,
        reason: "the rules give no date: name a column 'date' in fields, or write 'date %1'")
    ) {
      try CSVRules(parsing: "fields day, amount\n", file: "r")
    }
    #expect(
      throws: InterchangeError.invalidRules(
        file: "r", line: nil,
        reason: "the rules give no amount: name a column 'amount' (or 'amount-in' and "
          + "'amount-out') in fields, or write 'amount %2'")
    ) {
      try CSVRules(parsing: "fields date, sum\n", file: "r")
    }
    #expect(
      InterchangeError.invalidRules(file: "r", line: nil, reason: "it lacks a date").description
        == "'r': it lacks a date.")
  }

  @Test func rulesAreReadAsHledgerWritesThem() throws {
    let rules = try CSVRules(
      parsing: """
        ; a comment
        * another
        skip
        skip 3
        separator TAB
        encoding Latin1
        fields: "Date", _, Payee-Name, , amount1
        date: %1
        date-format %-d/%-m/%Y
        decimal-mark ,
        newest-first
        description %(payee-name)!
        currency1 EUR

        if %payee-name ^rewe
        & ! %5 ^-
        other pattern && %1 2025
         account2 income:Refunds
         skip 2

        """, file: "r")
    #expect(rules.skip == 1)
    #expect(rules.separator == "\t")
    #expect(rules.encoding == .latin1)
    #expect(rules.fields == ["date", "", "payee-name", "", "amount1"])
    #expect(rules.dateFormat?.strftime == "%-d/%-m/%Y")
    #expect(rules.decimalMark == .comma)
    #expect(rules.isNewestFirst)
    #expect(
      rules.assignments == [
        CSVRules.Assignment(field: .date, template: "%1", line: -1),
        CSVRules.Assignment(field: .amount, template: "%5", line: -1),
        CSVRules.Assignment(field: .date, template: "%1", line: 8),
        CSVRules.Assignment(field: .description, template: "%(payee-name)!", line: 12),
        CSVRules.Assignment(field: .currency, template: "EUR", line: 13),
      ])
    #expect(
      rules.blocks == [
        CSVRules.Block(
          groups: [
            [
              CSVRules.Matcher(column: "payee-name", pattern: "^rewe", isNegated: false),
              CSVRules.Matcher(column: "5", pattern: "^-", isNegated: true),
            ],
            [
              CSVRules.Matcher(column: nil, pattern: "other pattern", isNegated: false),
              CSVRules.Matcher(column: "1", pattern: "2025", isNegated: false),
            ],
          ],
          actions: [
            .assign(
              CSVRules.Assignment(field: .account2, template: "income:Refunds", line: 18)),
            .skip(count: 2),
          ],
          line: 15)
      ])
  }

  @Test func aTemplateNamesColumnsThreeWays() {
    #expect(
      Template.pieces(of: "%payee: %(note)s, 100% %3") == [
        .column("payee"), .text(": "), .column("note"), .text("s, 100% "), .column("3"),
      ])
  }

  @Test func aFieldNameOfHledgersLoopDoesNotFollowIsRefusedAsAnAssignmentWithItsLine() {
    #expect(
      throws: InterchangeError.invalidRules(
        file: "bank.csv.rules", line: 3,
        reason: "'date2' is hledger's and Loop does not follow it: a Loop transaction has one "
          + "date, 'date'")
    ) {
      try CSVRules(
        parsing: "fields date, amount\nif x\n date2 %1\n", file: "bank.csv.rules")
    }
    #expect(
      InterchangeError.invalidRules(
        file: "bank.csv.rules", line: 2, reason: CSVRules.unsupported("amount2")
      ).description
        == "Line 2 of 'bank.csv.rules': 'amount2' is hledger's and Loop does not follow it: a "
        + "Loop transaction has one amount, the statement's: 'amount', or 'amount-in' and "
        + "'amount-out'.")
  }

  @Test(arguments: ["amount1", "amount1-in", "amount1-out", "currency1", "account1", "account2"])
  func hledgersNamesForTheStatementsSideAreFollowed(name: String) {
    #expect(CSVRules.refusal(of: name) == nil)
  }

  @Test func aRulesFileWithWindowsLineEndingsIsRead() throws {
    let rules = try CSVRules(
      parsing: "skip 1\r\nseparator ;\r\nfields date, amount\r\n", file: "bank.csv.rules")
    #expect(rules.skip == 1)
    #expect(rules.separator == ";")
    #expect(rules.fields == ["date", "amount"])
  }
}
