import Foundation
import HabitClient
import Interchange
import LedgerClient
import LinkClient
import LoopTesting
import TestSupport

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
  await store.receive(.importResponse(.success(report))) {
    $0.isImporting = false
    $0.progress = nil
    $0.report = report
  }
}
