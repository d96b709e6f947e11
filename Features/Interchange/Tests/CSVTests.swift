import TestSupport
import Testing

@testable import Interchange

@Suite struct CSVTests {
  @Test func readsQuotedCommasNewlinesAndDoubledQuotesWithTheLineEachRecordStartsOn() throws {
    let table = try CSV.parse(linksCSV, file: "links.csv")
    #expect(table.header == ["title", "url", "category", "memo", "created"])
    #expect(table.delimiter == ",")
    #expect(
      table.records == [
        CSV.Record(
          line: 2,
          fields: [
            "Swift, the language", "https://swift.org", "Dev", "Two\nlines",
            "2025-03-15T01:00:00Z",
          ]),
        CSV.Record(line: 4, fields: ["Plain", "https://plain.example", "", "", ""]),
        CSV.Record(
          line: 5,
          fields: [
            "He said \"hi\"", "https://example.com/hi?a=1&b=2", "Dev, Tools", " ", "2025-03-15",
          ]),
        CSV.Record(line: 6, fields: ["Broken", "not a url", "", "", ""]),
        CSV.Record(line: 7, fields: ["Short row", "https://short.example"]),
        CSV.Record(line: 8, fields: ["Dated badly", "https://dated.example", "", "", "yesterday"]),
        CSV.Record(line: 10, fields: ["Café ☕", "https://cafe.example/menu", "dev", "", ""]),
      ])
  }

  @Test func readsCRLFLineEndingsInsideAndOutsideQuotes() throws {
    let table = try CSV.parse("a,b\r\n\"1\r\n2\",x\r\n3,\"y\"\r\n", file: "crlf.csv")
    #expect(table.header == ["a", "b"])
    #expect(
      table.records == [
        CSV.Record(line: 2, fields: ["1\n2", "x"]), CSV.Record(line: 4, fields: ["3", "y"]),
      ])
  }

  @Test func findsSemicolonsAndTabsAsDelimitersFromTheHeader() throws {
    let semicolons = try CSV.parse(europeanLedgerCSV, file: "bank.csv")
    #expect(semicolons.delimiter == ";")
    #expect(
      semicolons.records[2]
        == CSV.Record(
          line: 4, fields: ["03.02.2025", "Expense", "12,5", "Café; Kuchen", "Essen"]))
    #expect(
      semicolons.records[3]
        == CSV.Record(
          line: 5, fields: ["05.02.2025", "expense", "0,99", "Zeitung\n(Wochenende)", ""]))
    let tabs = try CSV.parse("a\tb\tc,d\n1\t2,5\t3\n", file: "tabs.tsv")
    #expect(tabs.records == [CSV.Record(line: 2, fields: ["1", "2,5", "3"])])
    let tie = try CSV.parse("a;b,c\n1;2,3\n", file: "tie.csv")
    #expect(tie.delimiter == ",")
  }

  @Test func aQuoteInsideAnUnquotedFieldIsKept() throws {
    let table = try CSV.parse("a,b\n5\" screen,x\n", file: "a.csv")
    #expect(table.records == [CSV.Record(line: 2, fields: ["5\" screen", "x"])])
  }

  @Test func aStatementsQuoteOpeningAFieldNeverClosedIsAQuote() throws {
    let records = try CSV.records(
      in: "date;memo;amount\n1;\"Miete;-7\n2;Brot;-2\n", file: "bank.csv", delimiter: ";")
    #expect(
      records == [
        CSV.Record(line: 1, fields: ["date", "memo", "amount"]),
        CSV.Record(line: 2, fields: ["1", "\"Miete", "-7"]),
        CSV.Record(line: 3, fields: ["2", "Brot", "-2"]),
      ])
  }

  @Test func aStatementsQuotedFieldMaySpanLinesAndTheNextRecordKeepsItsLine() throws {
    let records = try CSV.records(
      in: "1;\"two\r\nlines\";-7\r\n2;Brot;-2\r\n", file: "bank.csv", delimiter: ";")
    #expect(
      records == [
        CSV.Record(line: 1, fields: ["1", "two\nlines", "-7"]),
        CSV.Record(line: 3, fields: ["2", "Brot", "-2"]),
      ])
  }

  @Test func aStatementReadALineAtATimeEndsAQuotedFieldWithItsLine() throws {
    let records = try CSV.records(
      in: "1;\"Miete;-7\n2;Brot\";-2\n", file: "bank.csv", delimiter: ";",
      quotesSpanLines: false)
    #expect(
      records == [
        CSV.Record(line: 1, fields: ["1", "\"Miete", "-7"]),
        CSV.Record(line: 2, fields: ["2", "Brot\"", "-2"]),
      ])
  }

  @Test func aRecordOfOneEmptyFieldIsWrittenQuotedAndReadBack() throws {
    let text = CSV.write(header: ["a"], rows: [[""], ["b"]])
    #expect(text == "a\n\"\"\nb\n")
    #expect(try CSV.parse(text, file: "a.csv").records.map(\.fields) == [[""], ["b"]])
  }

  @Test func aLastRecordWithoutANewlineIsRead() throws {
    let table = try CSV.parse("a,b\n1,\"2\"", file: "a.csv")
    #expect(table.records == [CSV.Record(line: 2, fields: ["1", "2"])])
  }

  @Test func aQuotedFieldNeverClosedIsATruncatedFile() {
    #expect(
      throws: InterchangeError.truncated(
        file: "cut.csv", line: 3, reason: "a quoted field is never closed")
    ) {
      try CSV.parse("a,b\n1,2\n3,\"four\nfive,6\n", file: "cut.csv")
    }
  }

  @Test func textAfterAClosingQuoteIsMalformed() {
    #expect(
      throws: InterchangeError.malformedCSV(
        file: "bad.csv", line: 2,
        reason: "a quoted field is followed by text; quote the whole field and double the "
          + "quotes inside it")
    ) {
      try CSV.parse("a,b\n\"x\"y,2\n", file: "bad.csv")
    }
  }

  @Test func writesQuotesOnlyWhereNeeded() {
    let text = CSV.write(
      header: ["a", "b", "c"],
      rows: [["plain", "with, comma", "with \"quotes\""], ["two\nlines", " padded", ""]])
    #expect(
      text == """
        a,b,c
        plain,"with, comma","with ""quotes""\"
        "two
        lines"," padded",

        """)
  }

  @Test func readingWhatItWritesGivesTheFieldsBack() throws {
    let rows = [["a;b", "\"", "x\r\ny"], ["", " ", "é"]]
    let text = CSV.write(header: ["1", "2", "3"], rows: rows, delimiter: ";")
    let table = try CSV.parse(text, file: "a.csv")
    #expect(table.records.map(\.fields) == [["a;b", "\"", "x\ny"], ["", " ", "é"]])
  }
}
