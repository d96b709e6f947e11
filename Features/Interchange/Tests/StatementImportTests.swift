import Foundation
import LedgerClient
import LoopTesting
import TestSupport
import Testing

@testable import Interchange

/// Importing bank statements through the feature: with rules, without, twice, and a bad row.
@MainActor
@Suite struct StatementImportTests {
  /// A statement with a preamble, a zero row and a pending row, newest first.
  static let statement = """
    Girokonto DE12 3456 7890 1234 5678 90
    Kontostand vom 15.03.2025: 1.234,56 EUR

    Buchungstag;Status;Auftraggeber/Empfänger;Verwendungszweck;Betrag (€)
    14.03.2025;Vorgemerkt;Kino;Karten;-20,00
    13.03.2025;Gebucht;REWE Markt;Einkauf;-23,45
    13.03.2025;Gebucht;Bank;Abschluss;0,00
    12.03.2025;Gebucht;Arbeitgeber GmbH;Gehalt;2.500,00

    """

  static let rules = """
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

  /// The transactions the statement holds, the one of the 12th first in the ledger's order.
  func transactions(categorised: Bool) -> [LedgerTransaction] {
    let rewe = "2025-03-13|-2345|REWE Markt Einkauf|0"
    let salary = "2025-03-12|250000|Arbeitgeber GmbH Gehalt|0"
    return [
      LedgerTransaction(
        id: LedgerTransaction.ID(BankStatement.identity(rewe)), kind: .expense,
        amount: Money(minorUnits: 2_345), date: iso("2025-03-12T23:00:00Z"),
        memo: "REWE Markt Einkauf", category: categorised ? "Food" : nil, createdAt: now),
      LedgerTransaction(
        id: LedgerTransaction.ID(BankStatement.identity(salary)), kind: .income,
        amount: Money(minorUnits: 250_000), date: iso("2025-03-11T23:00:00Z"),
        memo: "Arbeitgeber GmbH Gehalt",
        createdAt: now.addingTimeInterval(-0.001)),
    ]
  }

  func importStatement(
    _ store: TestStore<Interchange.State, Interchange.Action>, rules: CSVRules?,
    dryRun: Bool = false, expecting report: ImportReport
  ) async {
    let request = ImportRequest(
      scope: .ledger, file: "bank.csv", contents: Data(Self.statement.utf8), isDryRun: dryRun,
      rules: rules)
    await store.send(.importSubmitted(request)) {
      $0.isImporting = true
      $0.report = nil
    }
    await receiveImport(of: 2, report: report, in: store)
    if !dryRun { await store.receive(.delegate(.reload(.ledger))) }
  }

  @Test func aStatementWithItsRulesImportsCategorisedAndSkipsWhatIsNoTransaction() async throws {
    let database = Database()
    let store = interchangeStore(database)
    let rules = try CSVRules(parsing: Self.rules, file: "bank.csv.rules")
    let report = ImportReport(
      scope: .ledger, format: .csv, entries: 4, imported: EntryCounts(transactions: 2),
      skipped: [
        ImportRejection(line: 5, reason: "the rule on line 8 of 'bank.csv.rules' skips it"),
        ImportRejection(line: 7, reason: "the amount is zero"),
      ])
    await importStatement(store, rules: rules, expecting: report)
    await store.finish()
    #expect(
      report.summary == "Imported 2 transactions; skipped 0 duplicates, 2 rows; rejected 0.")
    #expect(try await database.ledger.fetchTransactions() == transactions(categorised: true))
  }

  @Test func importingTheSameStatementAgainSkipsEveryTransaction() async throws {
    let database = Database()
    let store = interchangeStore(database)
    let rules = try CSVRules(parsing: Self.rules, file: "bank.csv.rules")
    let skipped = [
      ImportRejection(line: 5, reason: "the rule on line 8 of 'bank.csv.rules' skips it"),
      ImportRejection(line: 7, reason: "the amount is zero"),
    ]
    await importStatement(
      store, rules: rules,
      expecting: ImportReport(
        scope: .ledger, format: .csv, entries: 4, imported: EntryCounts(transactions: 2),
        skipped: skipped))
    await importStatement(
      store, rules: rules,
      expecting: ImportReport(
        scope: .ledger, format: .csv, entries: 4, imported: EntryCounts(), duplicates: 2,
        skipped: skipped))
    await store.finish()
    #expect(try await database.ledger.fetchTransactions() == transactions(categorised: true))
  }

  @Test func aStatementWithoutRulesImportsWithTheRulesInferred() async throws {
    let database = Database()
    let store = interchangeStore(database)
    let inferred = try StatementDetector.rules(
      for: Self.statement, file: "bank.csv", encoding: .utf8)
    let report = ImportReport(
      scope: .ledger, format: .csv, isDryRun: true, entries: 4,
      imported: EntryCounts(transactions: 2),
      skipped: [
        ImportRejection(line: 5, reason: "the rule on line 13 of the inferred rules skips it"),
        ImportRejection(line: 7, reason: "the amount is zero"),
      ], inferredRules: inferred)
    await importStatement(store, rules: nil, dryRun: true, expecting: report)
    #expect(try await database.ledger.fetchTransactions() == [])
    let real = ImportReport(
      scope: .ledger, format: .csv, entries: 4, imported: EntryCounts(transactions: 2),
      skipped: report.skipped, inferredRules: inferred)
    await importStatement(store, rules: nil, expecting: real)
    await store.finish()
    #expect(try await database.ledger.fetchTransactions() == transactions(categorised: false))
  }

  @Test func aStatementWithABadRowImportsNothing() async throws {
    let database = Database()
    let store = interchangeStore(database)
    let text = Self.statement + "31.02.2025;Gebucht;X;Y;-1,00\n"
    let request = ImportRequest(scope: .ledger, file: "bank.csv", contents: Data(text.utf8))
    await store.send(.importSubmitted(request)) { $0.isImporting = true }
    let error = InterchangeError.rowsRejected(
      file: "bank.csv",
      [ImportRejection(line: 9, reason: "'31.02.2025' is not a date written %d.%m.%Y")])
    await store.receive(.importResponse(.failure(error))) {
      $0.isImporting = false
      $0.failure = error
    }
    await store.finish()
    #expect(try await database.ledger.fetchTransactions() == [])
  }
}
