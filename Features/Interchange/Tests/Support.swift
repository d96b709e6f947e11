import Foundation
import HabitClient
import LedgerClient
import LinkClient
import LoopTesting
import TestSupport
import Testing

@testable import Interchange

/// The instant `seconds` after 1970-01-01 (as bookmark files count).
func unix(_ seconds: TimeInterval) -> Date { Date(timeIntervalSince1970: seconds) }

/// The instant an ISO 8601 text names; the test fails loudly on a typo.
func iso(_ text: String) -> Date {
  guard let date = Timestamp.date(from: text) else { preconditionFailure("bad date '\(text)'") }
  return date
}

/// "Now" in these tests: 2025-03-15 10:00 in Berlin.
let now = iso("2025-03-15T09:00:00Z")

let berlin = zone("Europe/Berlin")
let utc = zone("UTC")

/// The id the counting `uuid` dependency gives its `n`th value.
func uuid(_ n: UInt64) -> UUID { UUID(counting: n) }

/// One in-memory client per domain: a database of the app, in memory.
struct Database {
  var links = LinkClient.inMemory()
  var habits = HabitClient.inMemory()
  var ledger = LedgerClient.inMemory()

  /// Everything stored, as a whole-database export made at `now`.
  func export() async throws -> LoopExport {
    LoopExport(
      exportedAt: now, links: try await links.exportLinks(),
      habits: try await habits.exportHabits(), transactions: try await ledger.fetchTransactions())
  }
}

/// A test store of the Interchange feature over `database`, with every dependency fixed: the
/// date (`now`), counting ids, Berlin's time zone (the calendar's own is UTC, so the dependency
/// must win), a test clock.
@MainActor
func interchangeStore(
  _ database: Database, state: Interchange.State = Interchange.State()
) -> TestStore<Interchange.State, Interchange.Action> {
  TestStore(initialState: state) {
    Interchange()
  } withDependencies: {
    $0.linkClient = database.links
    $0.habitClient = database.habits
    $0.ledgerClient = database.ledger
    $0.date = .constant(now)
    $0.uuid = .incrementing
    $0.calendar = gregorian(utc)
    $0.timeZone = berlin
    $0.continuousClock = TestClock()
  }
}

/// A request to import `text` from `file`.
func request(
  _ scope: DataScope, _ file: String, _ text: String, format: FileFormat? = nil,
  dryRun: Bool = false, ledgerOptions: LedgerCSVOptions = LedgerCSVOptions()
) -> ImportRequest {
  ImportRequest(
    scope: scope, file: file, contents: Data(text.utf8), format: format, isDryRun: dryRun,
    ledgerOptions: ledgerOptions)
}

/// A date format from a pattern the test knows is valid.
func dateFormat(_ pattern: String) -> DateFormat {
  do {
    return try DateFormat(pattern)
  } catch {
    preconditionFailure("bad date format '\(pattern)': \(error)")
  }
}

/// The rest of an import `store` started: it reports `first` of `total` entries processed, then
/// all of them, then answers with `report`.
@MainActor
func receiveImport(
  of total: Int, from first: Int = 0, report: ImportReport,
  in store: TestStore<Interchange.State, Interchange.Action>
) async {
  await store.receive(.importProgressed(ImportProgress(processed: first, total: total))) {
    $0.progress = ImportProgress(processed: first, total: total)
  }
  await store.receive(.importProgressed(ImportProgress(processed: total, total: total))) {
    $0.progress = ImportProgress(processed: total, total: total)
  }
  if report.scope == .ledger, report.format == .csv {
    // NB: every statement the tests import accounts for each of its rows.
    #expect(
      report.imported.transactions + report.duplicates + report.skipped.count
        + report.rejected.count == report.entries)
  }
  await store.receive(.importResponse(.success(report))) {
    $0.isImporting = false
    $0.progress = nil
    $0.report = report
  }
}

/// How many rows a statement holds after its first `skip` records, counted without Loop's
/// reader: its lines, a quoted field's line breaks joining them (a quote opens a field only at
/// its start, `""` inside is a quote), less lines of one empty field (blank, or `""`) and,
/// after the skip, lines of blank fields.
func dataRows(in text: String, skip: Int, delimiter: Character) -> Int {
  var records: [[String]] = []
  var fields: [String] = []
  var field = ""
  var inQuotes = false
  var atFieldStart = true
  let characters = Array(text)
  var index = 0
  func endRecord() {
    fields.append(field)
    records.append(fields)
    fields = []
    field = ""
    atFieldStart = true
  }
  while index < characters.count {
    let character = characters[index]
    index += 1
    if inQuotes {
      if character == "\"" {
        if index < characters.count, characters[index] == "\"" {
          field.append("\"")
          index += 1
        } else {
          inQuotes = false
        }
      } else {
        field.append(character)
      }
      continue
    }
    switch character {
    case "\"" where atFieldStart:
      inQuotes = true
      atFieldStart = false
    case delimiter:
      fields.append(field)
      field = ""
      atFieldStart = true
    case "\n", "\r\n":
      endRecord()
    default:
      field.append(character)
      atFieldStart = false
    }
  }
  if !field.isEmpty || !fields.isEmpty || inQuotes { endRecord() }
  let isBlank = { (record: [String]) in
    record.allSatisfy { $0.allSatisfy(\.isWhitespace) }
  }
  // NB: as in hledger, `skip` counts a line of spaces: only a line of one empty field is no
  // record.
  return records.filter { $0 != [""] }.dropFirst(skip).filter { !isBlank($0) }.count
}

/// Checks that a statement accounts for every row after the header: each is a transaction, a
/// skipped row or a rejected one.
func expectEveryRowCounted(
  _ statement: BankStatement, text: String, rules: CSVRules,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  let counted = statement.rows.count + statement.skipped.count + statement.rejected.count
  let expected = dataRows(in: text, skip: rules.skip, delimiter: rules.separator ?? ",")
  #expect(
    counted == expected,
    Comment(
      rawValue: "\(statement.rows.count) transactions + \(statement.skipped.count) skipped + "
        + "\(statement.rejected.count) rejected, but the statement has \(expected) rows"),
    sourceLocation: sourceLocation)
}
