import Foundation
import Loop
import Testing

@testable import LoopCLI

/// A German bank's statement: a preamble, a pending row, a zero row, newest first.
let statementFile = """
  Girokonto DE12 3456 7890 1234 5678 90
  Kontostand vom 15.03.2025: 1.234,56 EUR

  Buchungstag;Status;Auftraggeber/Empfänger;Verwendungszweck;Betrag (€)
  14.03.2025;Vorgemerkt;Kino;Karten;-20,00
  13.03.2025;Gebucht;REWE Markt;Einkauf;-23,45
  13.03.2025;Gebucht;Bank;Abschluss;0,00
  12.03.2025;Gebucht;Arbeitgeber GmbH;Gehalt;2.500,00

  """

/// hledger rules for ``statementFile``, with a category for groceries.
let statementRules = """
  # Girokonto
  skip 3
  separator ;
  fields date, state, payee, description, amount
  date-format %d.%m.%Y
  decimal-mark ,
  description %payee %description

  if %state vorgemerkt
   skip
  if REWE|EDEKA
   account2 expenses:Food

  """

/// `ledger import` of bank statements through the REPL: with a rules file, without one.
@MainActor
@Suite struct StatementTranscriptTests {
  /// A folder holding `files` (name, bytes), removed with the returned value.
  func folder(_ files: [String: Data]) throws -> TemporaryFolder {
    let folder = try TemporaryFolder()
    for (name, data) in files {
      try data.write(to: URL(fileURLWithPath: folder.path(name)))
    }
    return folder
  }

  func run(_ script: String, in folder: TemporaryFolder) async throws -> TranscriptResult {
    try await transcript(script, currentDirectory: folder.url.path)
  }

  @Test func aStatementBesideItsRulesFileImportsWithThemAndOnceOnly() async throws {
    let folder = try folder([
      "bank.csv": Data(statementFile.utf8), "bank.csv.rules": Data(statementRules.utf8),
    ])
    let result = try await run(
      "ledger import bank.csv\nledger list\nledger import bank.csv", in: folder)
    #expect(result.status == 0)
    #expect(
      result.transcript == """
        > ledger import bank.csv
        Imported 2 transactions; skipped 0 duplicates, 2 rows; rejected 0.
          line 5 skipped: the rule on line 9 of 'bank.csv.rules' skips it
          line 7 skipped: the amount is zero
        > ledger list
        REF      DATE           AMOUNT  CATEGORY  MEMO
        957ca28  2025-03-13     -23.45  Food      REWE Markt Einkauf
        b8fc456  2025-03-12  +2,500.00            Arbeitgeber GmbH Gehalt
        > ledger import bank.csv
        Imported nothing; skipped 2 duplicates, 2 rows; rejected 0.
          line 5 skipped: the rule on line 9 of 'bank.csv.rules' skips it
          line 7 skipped: the amount is zero

        """)
  }

  @Test func theRulesFileGivenWithRulesFileIsRead() async throws {
    let folder = try folder([
      "umsaetze.csv": Data(statementFile.utf8), "giro.rules": Data(statementRules.utf8),
    ])
    let result = try await run(
      "ledger import umsaetze.csv --rules-file giro.rules --dry-run\n"
        + "ledger import umsaetze.csv --rules-file missing.rules", in: folder)
    #expect(result.status == 1)
    #expect(
      result.transcript == """
        > ledger import umsaetze.csv --rules-file giro.rules --dry-run
        Would import 2 transactions; skipped 0 duplicates, 2 rows; rejected 0.
          line 5 skipped: the rule on line 9 of 'giro.rules' skips it
          line 7 skipped: the amount is zero
        Nothing was written (--dry-run).
        > ledger import umsaetze.csv --rules-file missing.rules
        ! test:2: error: Cannot read 'missing.rules': there is no such file.

        """)
  }

  @Test func theDryRunPrintsTheInferredRulesWhichSavedImportTheSameTransactions() async throws {
    let inferred = try folder(["bank.csv": Data(statementFile.utf8)])
    let dryRun = try await run("ledger import bank.csv --dry-run", in: inferred)
    #expect(dryRun.status == 0)
    let printed = String(dryRun.transcript.drop { $0 != "\n" }.dropFirst())
    #expect(
      printed == """
        # Rules inferred by Loop from 'bank.csv', in hledger's CSV rules format. Check them, save
        # them as 'bank.csv.rules' beside it, and adjust them: 'ledger import' then reads them.
        skip 3
        separator ;
        encoding utf-8
        fields date, status_, payee, description, amount
        date-format %d.%m.%Y
        decimal-mark ,
        newest-first
        description %payee %description

        # 'vorgemerkt': pending, not booked yet
        if %status_ ^vorgemerkt$
         skip
        # Would import 2 transactions; skipped 0 duplicates, 2 rows; rejected 0.
        #   line 5 skipped: the rule on line 13 of the inferred rules skips it
        #   line 7 skipped: the amount is zero
        # Nothing was written (--dry-run).

        """)
    let imported = try await run("ledger import bank.csv\nledger list", in: inferred)

    let saved = try folder([
      "bank.csv": Data(statementFile.utf8), "bank.csv.rules": Data(printed.utf8),
    ])
    let fromSaved = try await run("ledger import bank.csv\nledger list", in: saved)
    #expect(
      fromSaved.transcript
        == imported.transcript.replacingOccurrences(
          of: "of the inferred rules", with: "of 'bank.csv.rules'"))
    #expect(
      fromSaved.transcript == """
        > ledger import bank.csv
        Imported 2 transactions; skipped 0 duplicates, 2 rows; rejected 0.
          line 5 skipped: the rule on line 13 of 'bank.csv.rules' skips it
          line 7 skipped: the amount is zero
        > ledger list
        REF      DATE           AMOUNT  CATEGORY  MEMO
        957ca28  2025-03-13     -23.45            REWE Markt Einkauf
        b8fc456  2025-03-12  +2,500.00            Arbeitgeber GmbH Gehalt

        """)
  }

  @Test func aLatin1StatementWithoutRulesImports() async throws {
    let text =
      "Buchung;Auftraggeber/Empfänger;Verwendungszweck;Betrag;Währung\n"
      + "07.03.25;Café Größenwahn;Frühstück;-10,7;EUR\n"
    let folder = try folder([
      "bank.csv": Data(text.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) })
    ])
    let result = try await run("ledger import bank.csv\nledger list", in: folder)
    #expect(result.status == 0)
    #expect(
      result.transcript == """
        > ledger import bank.csv
        Imported 1 transaction; skipped 0 duplicates; rejected 0.
        > ledger list
        REF      DATE        AMOUNT  CATEGORY  MEMO
        92aed26  2025-03-07  -10.70            Café Größenwahn Frühstück

        """)
  }

  @Test func aRuleLoopDoesNotSupportIsAnErrorNamingItsLine() async throws {
    let folder = try folder([
      "bank.csv": Data(statementFile.utf8),
      "bank.csv.rules": Data("skip 3\nseparator ;\ntimezone Europe/Berlin\n".utf8),
    ])
    let result = try await run("ledger import bank.csv\nledger list", in: folder)
    #expect(result.status == 1)
    #expect(
      result.transcript == """
        > ledger import bank.csv
        ! test:1: error: Line 3 of 'bank.csv.rules': Loop does not support the rule 'timezone'; it reads skip, separator, encoding, fields, date-format, decimal-mark, newest-first, if blocks, and date, description, payee, comment, amount, amount-in, amount-out, currency, balance, account1 and account2.
        > ledger list
        No transactions yet: add one with 'ledger add expense 12.50 Lunch'.

        """)
  }

  @Test func aStatementLoopCannotReadAsksForARulesFile() async throws {
    let folder = try folder([
      "bank.csv": Data("Kontoauszug\nBuchungstag;Betrag\n01.03.2025;-1,00\n".utf8)
    ])
    let result = try await run("ledger import bank.csv", in: folder)
    #expect(result.status == 1)
    #expect(
      result.transcript == """
        > ledger import bank.csv
        ! test:1: error: Loop cannot read 'bank.csv' as a bank statement: it could not find the memo column (such as Verwendungszweck, Auftraggeber/Empfänger, Description or Payee) in the header on line 2, 'Buchungstag;Betrag'. Describe it in a rules file, 'bank.csv.rules' (see "Importing a bank statement" in the README).

        """)
  }

  @Test func aSessionImportingStatementsRecordedReplaysIdentically() async throws {
    let folder = try folder([
      "bank.csv": Data(statementFile.utf8), "bank.csv.rules": Data(statementRules.utf8),
      "other.csv": Data(statementFile.utf8),
    ])
    let log = Captured()
    let session = Session(
      environment: try transcriptEnvironment(),
      console: Console(writeOutput: { log.append($0) }, writeError: { log.append($0) }),
      configuration: Session.Configuration(mode: .interactive, currentDirectory: folder.url.path))
    let commands = ["ledger import bank.csv", "ledger import other.csv", "ledger list"]
    try await session.startRecording(to: "statements.txt")
    for command in commands { _ = await session.execute(command) }
    session.stopRecording()
    #expect(log.value.contains("skipped 2 duplicates, 2 rows"))

    // NB: replayed where neither the statements nor the rules file are: the recording holds
    // them, and that 'other.csv.rules' was absent.
    let text = try String(contentsOfFile: folder.path("statements.txt"), encoding: .utf8)
    #expect(text.contains("value file\n| other.csv.rules\n| absent\n"))
    let outcome = await SessionReplay.replay(text, named: "statements.txt")
    let steps = try Recording(text: text).entries.count {
      if case .step = $0 { true } else { false }
    }
    #expect(outcome == .identical(commands: commands.count, actions: steps))
  }

  @Test func theDateFormatAndDecimalSeparatorGivenSettleWhatTheValuesLeaveOpen() async throws {
    let folder = try folder([
      "us.csv": Data("Date,Description,Amount\n01/02/2025,Rent,\"-1.000,50\"\n".utf8)
    ])
    let result = try await run(
      "ledger import us.csv\nledger import us.csv --date-format MM/dd/yyyy --decimal-separator ,"
        + "\nledger list", in: folder)
    #expect(
      result.transcript == """
        > ledger import us.csv
        ! test:1: error: Loop cannot read 'us.csv' as a bank statement: it could not tell whether the dates in the column 'Date', such as '01/02/2025', are written %d/%m/%Y or %m/%d/%Y. Describe it in a rules file, 'us.csv.rules' (see "Importing a bank statement" in the README).
        > ledger import us.csv --date-format MM/dd/yyyy --decimal-separator ,
        Imported 1 transaction; skipped 0 duplicates; rejected 0.
        > ledger list
        REF      DATE           AMOUNT  CATEGORY  MEMO
        6eb9b7b  2025-01-02  -1,000.50            Rent

        """)
  }
}
