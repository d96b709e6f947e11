import Foundation
import LedgerClient
import LoopTesting
import TestSupport
import Testing

@testable import Interchange

/// Generated tables and statements: what the CSV writer writes, the reader reads back, and no
/// statement or rules file, however broken, crashes the reader or loses a row.
///
/// Each test prints its seed; `LOOP_FUZZ_SEED=S` replays it and `LOOP_FUZZ_RUNS=N` runs N
/// cases (a long run on demand).
@Suite struct CSVFuzzTests {
  static var seed: UInt64 {
    ProcessInfo.processInfo.environment["LOOP_FUZZ_SEED"].flatMap { UInt64($0) }
      ?? UInt64.random(in: 0...UInt64.max)
  }

  static func runs(_ default: Int) -> Int {
    ProcessInfo.processInfo.environment["LOOP_FUZZ_RUNS"].flatMap { Int($0) } ?? `default`
  }

  /// The pieces a field is made of: quotes, every separator, line breaks of both kinds, spaces,
  /// and letters Latin-1 can write.
  static let pieces = [
    "a", "Z", "0", "7", "é", "ü", "ß", "€", "\"", "\"\"", ",", ";", "\t", "\n", "\r", "\r\n", " ",
    "x y", "Mustermann, Max", "Firma\"", "-12,50", "1.234,56", "#", "%", "'",
  ]

  static func field(_ generator: inout SplitMix64, latin1: Bool) -> String {
    var field = ""
    for _ in 0..<Int.random(in: 0...4, using: &generator) {
      let piece = pieces.randomElement(using: &generator) ?? "a"
      // NB: '€' is no Latin-1 character.
      field += latin1 && piece == "€" ? "¤" : piece
    }
    return field
  }

  /// A table written as the writer writes it, its records ended by LF or CRLF.
  static func written(_ table: [[String]], delimiter: Character, crlf: Bool) -> String {
    table.map { row in
      var record = CSV.write(header: row, rows: [], delimiter: delimiter)
      if crlf { record = String(record.dropLast()) + "\r\n" }
      return record
    }.joined()
  }

  /// What the reader gives for a field: a line break inside quotes is LF, whichever it was.
  static func read(_ field: String) -> String {
    field.replacingOccurrences(of: "\r\n", with: "\n")
  }

  @Test func anyTableWrittenOutReadsBackAsTheSameTable() throws {
    let seed = Self.seed
    let runs = Self.runs(300)
    print("CSVFuzzTests.anyTable…: seed \(seed); LOOP_FUZZ_SEED=\(seed) replays it")
    var generator = SplitMix64(seed: seed)
    for run in 0..<runs {
      let delimiter = [",", ";", "\t"].randomElement(using: &generator) ?? ","
      let latin1 = Bool.random(using: &generator)
      let crlf = Bool.random(using: &generator)
      let width = Int.random(in: 1...5, using: &generator)
      let table = (0..<Int.random(in: 1...8, using: &generator)).map { _ in
        (0..<width).map { _ in Self.field(&generator, latin1: latin1) }
      }
      let text = Self.written(table, delimiter: Character(delimiter), crlf: crlf)
      let bytes = latin1 ? text.data(using: .isoLatin1) : Data(text.utf8)
      let data = try #require(bytes, "run \(run): not encodable")
      guard !text.allSatisfy(\.isWhitespace) else {
        // NB: separators and line breaks alone (a table of empty fields) are an empty file.
        #expect(throws: InterchangeError.emptyFile(file: "t.csv")) {
          try ImportFile.statementText(of: data, file: "t.csv", encoding: .utf8)
        }
        continue
      }
      let (decoded, _) = try ImportFile.statementText(
        of: data, file: "t.csv", encoding: latin1 ? .latin1 : .utf8)
      let records = try CSV.records(in: decoded, file: "t.csv", delimiter: Character(delimiter))
      let context = "seed \(seed), run \(run): \(text.debugDescription)"
      #expect(records.count == table.count, Comment(rawValue: context))
      #expect(
        records.map(\.fields) == table.map { $0.map(Self.read) }, Comment(rawValue: context))
      // NB: each record starts on the line after the last one's line breaks.
      var line = 1
      for (record, row) in zip(records, table) {
        #expect(record.line == line, Comment(rawValue: context))
        line += 1 + row.reduce(0) { $0 + $1.utf8.count { $0 == UInt8(ascii: "\n") } }
      }
    }
  }

  @Test func aTableWithAHeaderOfNamesReadsBackWithItsSeparatorFound() throws {
    let seed = Self.seed
    print("CSVFuzzTests.aTableWithAHeader…: seed \(seed); LOOP_FUZZ_SEED=\(seed) replays it")
    var generator = SplitMix64(seed: seed)
    for run in 0..<Self.runs(200) {
      let delimiter = [",", ";", "\t"].randomElement(using: &generator) ?? ","
      let width = Int.random(in: 2...5, using: &generator)
      let header = (0..<width).map { "column\($0)" }
      let rows = (0..<Int.random(in: 0...6, using: &generator)).map { _ in
        (0..<width).map { _ in Self.field(&generator, latin1: false) }
      }
      let text = CSV.write(header: header, rows: rows, delimiter: Character(delimiter))
      let table = try CSV.parse(text, file: "t.csv")
      let context = Comment(rawValue: "seed \(seed), run \(run): \(text.debugDescription)")
      #expect(table.delimiter == Character(delimiter), context)
      #expect(table.header == header, context)
      #expect(table.records.map(\.fields) == rows.map { $0.map(Self.read) }, context)
    }
  }

  // MARK: - Statements and rules

  /// Lines a rules file may hold: Loop's, hledger's it refuses, broken ones.
  static let ruleLines = [
    "skip 1", "skip", "skip x", "separator ;", "separator ,", "separator TAB", "separator ;;",
    "encoding latin1", "encoding utf-16", "fields date, payee, amount",
    "fields date, description, amount, balance", "fields date, amount-in, amount-out",
    "fields date, amount2", "fields date, status, amount", "fields date, , amount", "fields",
    "date-format %d.%m.%Y", "date-format %Y-%m-%d", "date-format %Q", "decimal-mark ,",
    "decimal-mark .", "decimal-mark x", "newest-first", "description %payee %2",
    "description %nope", "comment \\n%1", "account2 [expenses:food]", "amount -%amount",
    "balance %3", "if REWE", "if %payee ^x", "if (", " skip", " skip 2", " end",
    " account2 (a:b)", " amount %2", " status x", "& %1 1", "timezone UTC", "# comment", "",
    "date %1", "amount %2", "amount1 %2", "account3 x", "date2 %1",
  ]

  /// Rules files Loop reads.
  static let validRules = [
    "fields date, payee, amount", "skip 1\nfields date, description, amount, balance",
    "separator ;\nfields date, payee, amount\ndate-format %d.%m.%Y\ndecimal-mark ,",
    "fields date, amount-in, amount-out\nnewest-first",
    "fields date, payee, amount\nif REWE\n account2 [expenses:food]\nif \"\n skip",
    "fields date, payee, amount\nif %payee ^-\n end\ncomment \\n%1",
  ]

  /// Values a statement's field may hold.
  static let values = [
    "2025-03-01", "01.03.2025", "31.02.2025", "-12,50", "12.50", "1.000", "1.005", "0", "0,00",
    "EUR", "zwanzig", "", " ", "REWE", "Mustermann, Max", "Firma\"", "\"", "\"open", "x\"y",
    "1.234,56", "(5.00)", "-", "--5", "99999999999999999999", "é", "\t",
  ]

  @Test func noStatementOrRulesCrashTheReaderOrLoseARow() throws {
    let seed = Self.seed
    print("CSVFuzzTests.noStatement…: seed \(seed); LOOP_FUZZ_SEED=\(seed) replays it")
    var generator = SplitMix64(seed: seed)
    var read = 0
    for run in 0..<Self.runs(400) {
      // NB: mostly a rules file Loop reads, so that statements get read; now and then any line.
      let base = Self.validRules.randomElement(using: &generator) ?? ""
      let extra = (0..<Int.random(in: 0...3, using: &generator)).map { _ in
        Self.ruleLines.randomElement(using: &generator) ?? ""
      }
      let rulesText = ([base] + extra).joined(separator: "\n")
      guard let rules = try? CSVRules(parsing: rulesText, file: "t.csv.rules") else { continue }
      let delimiter = rules.separator ?? ","
      let withQuotes = Bool.random(using: &generator)
      let lines = (0..<Int.random(in: 0...10, using: &generator)).map { _ in
        (0..<Int.random(in: 1...5, using: &generator)).map { _ -> String in
          let value = Self.values.randomElement(using: &generator) ?? ""
          return withQuotes ? value : value.replacingOccurrences(of: "\"", with: "")
        }.joined(separator: String(delimiter))
      }
      let text =
        lines.joined(separator: Bool.random(using: &generator) ? "\n" : "\r\n") + "\n"
      let statement: BankStatement
      do {
        statement = try BankStatement.read(
          text, file: "t.csv", rules: rules, today: now, calendar: gregorian(berlin))
      } catch {
        continue
      }
      read += 1
      let context = Comment(
        rawValue: "seed \(seed), run \(run):\n\(rulesText)\n---\n\(text.debugDescription)")
      let reported =
        statement.rows.map(\.line) + statement.skipped.map(\.line)
        + statement.rejected.map(\.line)
      #expect(Set(reported).count == reported.count, context)
      if !withQuotes {
        #expect(
          reported.count == dataRows(in: text, skip: rules.skip, delimiter: delimiter), context)
      }
    }
    print("CSVFuzzTests.noStatement…: \(read) statements read")
  }
}
