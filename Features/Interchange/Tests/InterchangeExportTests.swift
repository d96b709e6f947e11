import Foundation
import HabitClient
import Interchange
import LedgerClient
import LinkClient
import Loop
import LoopTesting
import TestSupport
import Testing

/// "Now" while seeding: a date with a fraction of a second no decimal writes exactly, so that a
/// lossless round trip has something to lose.
let seedingTime = Date(timeIntervalSinceReferenceDate: 763_722_000.123_456_7)

/// A database with data in every domain, added through the clients as the app adds it: links
/// in two categories (one nested), a comment, a favorite, a viewed link; an active habit done
/// today and an archived one; two ledger transactions.
func seededDatabase() async throws -> Database {
  let database = Database()
  try await withDependencies {
    $0.date = .constant(seedingTime)
    $0.uuid = .incrementing
    $0.timeZone = berlin
  } operation: {
    _ = try await database.links.importLinks([
      ImportedLink(
        line: 1, title: "Swift", url: "https://swift.org", category: "Dev", memo: "the language",
        createdAt: iso("2024-01-02T03:04:05.5Z")),
      ImportedLink(
        line: 2, title: "Forums", url: "https://forums.swift.org", category: "Dev / Community"),
      ImportedLink(line: 3, title: "News, \"daily\"", url: "https://news.example/?a=1&b=2"),
    ])
    let swift = try #require(try await database.links.searchLinks("swift").last)
    _ = try await database.links.addComment(swift.id, "Read the \"book\"")
    _ = try await database.links.setFavorite(swift.id, true)
    _ = try await database.links.markViewed(swift.id)
    let read = try await database.habits.addHabit("Read")
    _ = try await database.habits.addCompletion(read.id, Day(seedingTime, in: berlin))
    let walk = try await database.habits.addHabit("Walk")
    _ = try await database.habits.archiveHabit(walk.id)
    for (n, kind, minorUnits, memo) in [
      (UInt64(0x100), LedgerTransaction.Kind.income, Int64(320_000), "Gehalt"),
      (0x101, .expense, 1_250, "Café; Kuchen"),
    ] {
      _ = try await database.ledger.addTransaction(
        LedgerTransaction(
          id: LedgerTransaction.ID(uuid(n)), kind: kind, amount: Money(minorUnits: minorUnits),
          date: seedingTime, memo: memo, category: memo == "Gehalt" ? "Arbeit" : nil,
          createdAt: seedingTime))
    }
  }
  return database
}

@MainActor
@Suite struct InterchangeExportTests {
  /// Sends an export and returns its file; the stories of ``exportsEachDomainInEachOfItsFormats()``
  /// assert every step of an export, so this helper checks only the file.
  func export(
    _ request: ExportRequest, from store: TestStore<Interchange.State, Interchange.Action>
  ) async throws -> ExportedFile {
    let exhaustivity = store.exhaustivity
    store.exhaustivity = .off
    defer { store.exhaustivity = exhaustivity }
    await store.send(.exportSubmitted(request))
    await store.receive({ if case .exportResponse(.success) = $0 { true } else { false } })
    let file = try #require(store.state.exportedFile)
    #expect(file.scope == request.scope)
    #expect(file.format == request.format)
    return file
  }

  // MARK: Round trips

  @Test func anExportOfEverythingImportedIntoAnEmptyDatabaseReproducesItExactly() async throws {
    let original = try await seededDatabase()
    let file = try await export(
      ExportRequest(scope: .everything), from: interchangeStore(original))
    #expect(
      file.counts
        == EntryCounts(
          categories: 2, links: 3, comments: 1, habits: 2, completions: 1, transactions: 2))

    let copy = Database()
    let store = interchangeStore(copy)
    await store.send(
      .importSubmitted(
        ImportRequest(scope: .everything, file: "loop.json", contents: file.contents))
    ) {
      $0.isImporting = true
    }
    for processed in [0, 5, 6, 8, 9, 11] {
      await store.receive(.importProgressed(ImportProgress(processed: processed, total: 11))) {
        $0.progress = ImportProgress(processed: processed, total: 11)
      }
    }
    let report = ImportReport(
      scope: .everything, format: .json, entries: 11,
      imported: EntryCounts(
        categories: 2, links: 3, comments: 1, habits: 2, completions: 1, transactions: 2))
    await store.receive(.importResponse(.success(report))) {
      $0.isImporting = false
      $0.progress = nil
      $0.report = report
    }
    await store.receive(.delegate(.reload(.everything)))
    await store.finish()

    #expect(try await copy.export() == original.export())
    let again = try await export(ExportRequest(scope: .everything), from: interchangeStore(copy))
    #expect(again.text == file.text)
  }

  @Test func importingAnExportIntoTheDatabaseItCameFromChangesNothing() async throws {
    let database = try await seededDatabase()
    let before = try await database.export()
    let store = interchangeStore(database)
    store.exhaustivity = .off
    let file = try await export(ExportRequest(scope: .everything), from: store)
    await store.send(
      .importSubmitted(
        ImportRequest(scope: .everything, file: "loop.json", contents: file.contents)))
    await store.finish()
    store.skipReceivedActions()
    #expect(store.state.report?.imported == EntryCounts())
    #expect(store.state.report?.duplicates == 3 + 3 + 2)
    #expect(try await database.export() == before)
  }

  @Test func eachDomainsExportImportsBackIntoItsDomain() async throws {
    let original = try await seededDatabase()
    let source = interchangeStore(original)
    let copy = Database()
    let target = interchangeStore(copy)
    target.exhaustivity = .off
    for scope in [DataScope.links, .habits, .ledger] {
      let file = try await export(ExportRequest(scope: scope), from: source)
      await target.send(
        .importSubmitted(
          ImportRequest(scope: scope, file: "\(scope).json", contents: file.contents)))
      await target.finish()
      #expect(target.state.failure == nil)
    }
    #expect(try await copy.export() == original.export())
  }

  @Test func aLinkCSVExportImportsBackWithTitlesAddressesCategoriesMemosAndDates() async throws {
    let original = try await seededDatabase()
    let file = try await export(
      ExportRequest(scope: .links, format: .csv), from: interchangeStore(original))
    let copy = Database()
    let store = interchangeStore(copy)
    store.exhaustivity = .off
    await store.send(
      .importSubmitted(ImportRequest(scope: .links, file: "links.csv", contents: file.contents)))
    await store.finish()
    let before = try await original.links.exportLinks()
    let after = try await copy.links.exportLinks()
    #expect(after.links.map(\.title) == before.links.map(\.title))
    #expect(after.links.map(\.url) == before.links.map(\.url))
    #expect(after.links.map(\.memo) == before.links.map(\.memo))
    #expect(after.links.map(\.createdAt) == before.links.map(\.createdAt))
    #expect(after.categories.map(\.name).sorted() == before.categories.map(\.name).sorted())
  }

  @Test func aBookmarkExportImportsBackIntoTheSameFolders() async throws {
    let original = try await seededDatabase()
    let file = try await export(
      ExportRequest(scope: .links, format: .html), from: interchangeStore(original))
    #expect(file.text.hasPrefix("<!DOCTYPE NETSCAPE-Bookmark-file-1>\n"))
    let copy = Database()
    let store = interchangeStore(copy)
    store.exhaustivity = .off
    await store.send(
      .importSubmitted(
        ImportRequest(scope: .links, file: "bookmarks.html", contents: file.contents)))
    await store.finish()
    let before = try await original.links.exportLinks()
    let after = try await copy.links.exportLinks()
    func folders(_ archive: LinkArchive) -> [String: String] {
      let names = Dictionary(uniqueKeysWithValues: archive.categories.map { ($0.id, $0.name) })
      return Dictionary(
        uniqueKeysWithValues: archive.links.map {
          ($0.title, $0.categoryID.flatMap { names[$0] } ?? "")
        })
    }
    #expect(folders(after) == folders(before))
  }

  // MARK: Formats

  @Test func exportsEachDomainInEachOfItsFormats() async throws {
    let database = try await seededDatabase()
    let store = interchangeStore(database)
    let links = try await database.links.exportLinks()
    let habits = try await database.habits.exportHabits()
    let transactions = try await database.ledger.fetchTransactions()
    let linkCounts = EntryCounts(categories: 2, links: 3)
    let european = LedgerCSVOptions(dateFormat: dateFormat("dd.MM.yyyy"), decimalSeparator: .comma)
    let expected: [(ExportRequest, ExportedFile)] = [
      (
        ExportRequest(scope: .links, format: .csv),
        ExportedFile(
          scope: .links, format: .csv, contents: Data(LinkCSV.write(links).utf8),
          counts: linkCounts)
      ),
      (
        ExportRequest(scope: .links, format: .html),
        ExportedFile(
          scope: .links, format: .html, contents: Data(BookmarkFile.write(links).utf8),
          counts: linkCounts)
      ),
      (
        ExportRequest(scope: .links),
        ExportedFile(
          scope: .links, format: .json,
          contents: try LoopExport(exportedAt: now, links: links).encoded(),
          counts: EntryCounts(categories: 2, links: 3, comments: 1))
      ),
      (
        ExportRequest(scope: .habits, format: .csv),
        ExportedFile(
          scope: .habits, format: .csv, contents: Data(HabitCSV.write(habits).utf8),
          counts: EntryCounts(habits: 2, completions: 1))
      ),
      (
        ExportRequest(scope: .ledger, format: .csv, ledgerOptions: european),
        ExportedFile(
          scope: .ledger, format: .csv,
          contents: Data(
            """
            date;kind;amount;memo;category
            15.03.2025;income;3200,00;Gehalt;Arbeit
            15.03.2025;expense;12,50;"Café; Kuchen";

            """.utf8),
          counts: EntryCounts(transactions: 2))
      ),
      (
        ExportRequest(scope: .ledger),
        ExportedFile(
          scope: .ledger, format: .json,
          contents: try LoopExport(exportedAt: now, transactions: transactions).encoded(),
          counts: EntryCounts(transactions: 2))
      ),
    ]
    var previous: ExportedFile?
    for (request, file) in expected {
      await store.send(.exportSubmitted(request)) {
        $0.isExporting = true
        $0.exportedFile = nil
      }
      await store.receive(.exportResponse(.success(file))) {
        $0.isExporting = false
        $0.exportedFile = file
      }
      #expect(previous?.contents != file.contents)
      previous = file
    }
    await store.finish()
  }

  nonisolated static let unsupported: [(DataScope, FileFormat, String)] = [
    (
      .everything, .csv,
      "CSV holds one domain: use 'link export', 'habit export' or 'ledger export' with "
        + "'--format csv'."
    ),
    (.everything, .html, "Only links can be exported as a bookmark file, not data."),
    (.habits, .html, "Only links can be exported as a bookmark file, not habits."),
    (.ledger, .html, "Only links can be exported as a bookmark file, not ledger transactions."),
  ]

  @Test(arguments: unsupported)
  func anExportInAFormatTheDataDoesNotFitFailsWithASentence(
    _ scope: DataScope, _ format: FileFormat, _ message: String
  ) async {
    let store = interchangeStore(Database())
    await store.send(.exportSubmitted(ExportRequest(scope: scope, format: format))) {
      $0.isExporting = true
    }
    await store.receive(.exportResponse(.failure(.cannotExport(scope, as: format)))) {
      $0.isExporting = false
      $0.failure = .cannotExport(scope, as: format)
    }
    await store.finish()
    #expect(store.state.failure?.description == message)
  }

  @Test func aClientFailureDuringAnExportLandsInTheState() async {
    var database = Database()
    database.habits.exportHabits = { throw HabitError.storageFailed("Disk on fire.") }
    let store = interchangeStore(
      database,
      state: Interchange.State(
        exportedFile: ExportedFile(
          scope: .links, format: .csv, contents: Data(), counts: EntryCounts())))
    await store.send(.exportSubmitted(ExportRequest(scope: .everything))) {
      $0.isExporting = true
      $0.exportedFile = nil
    }
    await store.receive(.exportResponse(.failure(.habits(.storageFailed("Disk on fire."))))) {
      $0.isExporting = false
      $0.failure = .habits(.storageFailed("Disk on fire."))
    }
    await store.finish()
    #expect(
      store.state.failure?.description == "The habits could not be read or saved: Disk on fire.")
  }

  @Test func anExportAfterAFailedOneClearsTheFailure() async {
    let store = interchangeStore(Database())
    await store.send(.exportSubmitted(ExportRequest(scope: .everything, format: .csv))) {
      $0.isExporting = true
    }
    await store.receive(.exportResponse(.failure(.cannotExport(.everything, as: .csv)))) {
      $0.isExporting = false
      $0.failure = .cannotExport(.everything, as: .csv)
    }
    await store.send(.exportSubmitted(ExportRequest(scope: .links, format: .csv))) {
      $0.isExporting = true
      $0.failure = nil
    }
    let file = ExportedFile(
      scope: .links, format: .csv, contents: Data(LinkCSV.write(LinkArchive()).utf8),
      counts: EntryCounts())
    await store.receive(.exportResponse(.success(file))) {
      $0.isExporting = false
      $0.exportedFile = file
    }
    await store.finish()
    #expect(store.state.failure == nil)
  }
}
