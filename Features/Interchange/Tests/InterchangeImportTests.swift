import Foundation
import HabitClient
import Interchange
import LedgerClient
import LinkClient
import LoopTesting
import TestSupport
import Testing

/// The sentence the links client gives for an address that is not one.
func notAWebAddress(_ address: String) -> String {
  LinkError.invalidURL(address).description
}

@MainActor
@Suite struct InterchangeImportTests {
  // MARK: Bookmarks

  @Test func importingAFirefoxExportReportsProgressThenTheSummary() async throws {
    let database = Database()
    let store = interchangeStore(database)
    await store.send(.importSubmitted(request(.links, "firefox.html", firefoxBookmarks))) {
      $0.isImporting = true
    }
    let report = ImportReport(
      scope: .links, format: .html, entries: 5, imported: EntryCounts(categories: 3, links: 4),
      rejected: [ImportRejection(line: 23, reason: notAWebAddress("place:parent=unfiled&sort=12"))])
    await receiveImport(of: 5, report: report, in: store)
    await store.receive(.delegate(.reload(.links)))
    await store.finish()
    #expect(
      report.summary == "Imported 4 links, 3 categories; skipped 0 duplicates; rejected 1.")

    let stored = try await database.links.exportLinks()
    #expect(
      stored.categories == [
        Category(id: Category.ID(uuid(1)), name: "Reading & Research", createdAt: now),
        Category(id: Category.ID(uuid(3)), name: "Reading & Research / Papers", createdAt: now),
        Category(id: Category.ID(uuid(5)), name: "Bookmarks Toolbar", createdAt: now),
      ])
    #expect(
      stored.links == [
        Link(
          id: Link.ID(uuid(0)), title: "Getting Started",
          url: url("https://www.mozilla.org/en-US/firefox/central/"),
          createdAt: unix(1_700_000_000)),
        Link(
          id: Link.ID(uuid(2)), title: "Search results for \"Swift\"",
          url: url("https://example.com/search?q=swift&lang=en"),
          categoryID: Category.ID(uuid(1)), memo: "Bob's favourite query — really",
          createdAt: unix(1_700_000_300)),
        Link(
          id: Link.ID(uuid(4)), title: "Attention Is All You Need",
          url: url("https://arxiv.org/abs/1706.03762"), categoryID: Category.ID(uuid(3)),
          createdAt: unix(1_700_000_500)),
        Link(
          id: Link.ID(uuid(6)), title: "Swift Documentation",
          url: url("https://developer.apple.com/documentation/swift"),
          categoryID: Category.ID(uuid(5)), createdAt: unix(1_700_000_800)),
      ])
  }

  @Test func importingAChromeExportSkipsTheRepeatedAddressAndRejectsTheBookmarklet() async throws {
    let database = Database()
    let store = interchangeStore(database)
    await store.send(.importSubmitted(request(.links, "chrome.html", chromeBookmarks))) {
      $0.isImporting = true
    }
    let report = ImportReport(
      scope: .links, format: .html, entries: 6, imported: EntryCounts(categories: 4, links: 4),
      duplicates: 1,
      rejected: [
        ImportRejection(line: 24, reason: notAWebAddress("javascript:alert(document.title)"))
      ])
    await receiveImport(of: 6, report: report, in: store)
    await store.receive(.delegate(.reload(.links)))
    await store.finish()

    let stored = try await database.links.exportLinks()
    #expect(
      stored.categories.map(\.name) == [
        "Bookmarks bar", "Bookmarks bar / Dev", "Bookmarks bar / Dev / Tools & Tips",
        "Other bookmarks",
      ])
    #expect(
      stored.links.map(\.title) == [
        "Swift.org - Welcome to Swift.org",
        "GitHub - swiftlang/swift: The Swift Programming Language", "Tom & Jerry's \"tips\" <3",
        "https://news.ycombinator.com/",
      ])
  }

  @Test func aDryRunReportsWhatWouldHappenAndWritesNothing() async throws {
    let database = Database()
    let store = interchangeStore(database)
    await store.send(
      .importSubmitted(request(.links, "chrome.html", chromeBookmarks, dryRun: true))
    ) {
      $0.isImporting = true
    }
    let report = ImportReport(
      scope: .links, format: .html, isDryRun: true, entries: 6,
      imported: EntryCounts(categories: 4, links: 4), duplicates: 1,
      rejected: [
        ImportRejection(line: 24, reason: notAWebAddress("javascript:alert(document.title)"))
      ])
    await receiveImport(of: 6, report: report, in: store)
    await store.finish()
    #expect(
      report.summary == "Would import 4 links, 4 categories; skipped 1 duplicate; rejected 1.")
    #expect(try await database.links.exportLinks() == LinkArchive())
  }

  @Test func importingTheSameFileAgainSkipsEveryLinkAsADuplicate() async throws {
    let database = Database()
    let store = interchangeStore(database)
    store.exhaustivity = .off
    await store.send(.importSubmitted(request(.links, "firefox.html", firefoxBookmarks)))
    await store.finish()
    let first = try await database.links.exportLinks()
    await store.send(.importSubmitted(request(.links, "firefox.html", firefoxBookmarks)))
    await store.finish()
    store.skipReceivedActions()
    #expect(
      store.state.report
        == ImportReport(
          scope: .links, format: .html, entries: 5, imported: EntryCounts(), duplicates: 4,
          rejected: [
            ImportRejection(line: 23, reason: notAWebAddress("place:parent=unfiled&sort=12"))
          ]))
    #expect(try await database.links.exportLinks() == first)
  }

  // MARK: CSV

  @Test func importingALinkCSVReportsRecordsAndAddressesItRejectedByLine() async throws {
    let database = Database()
    let store = interchangeStore(database)
    await store.send(.importSubmitted(request(.links, "links.csv", linksCSV))) {
      $0.isImporting = true
    }
    let report = ImportReport(
      scope: .links, format: .csv, entries: 7, imported: EntryCounts(categories: 2, links: 4),
      rejected: [
        ImportRejection(line: 6, reason: notAWebAddress("not a url")),
        ImportRejection(line: 7, reason: "it has 2 fields, but the header has 5"),
        ImportRejection(
          line: 8,
          reason: "'yesterday' is not a date: write it as 2025-03-15 or 2025-03-15T10:00:00Z"),
      ])
    await receiveImport(of: 7, from: 2, report: report, in: store)
    await store.receive(.delegate(.reload(.links)))
    await store.finish()

    let stored = try await database.links.exportLinks()
    #expect(stored.categories.map(\.name) == ["Dev", "Dev, Tools"])
    #expect(
      stored.links.map(\.title) == ["He said \"hi\"", "Swift, the language", "Plain", "Café ☕"])
    #expect(stored.links[1].memo == "Two\nlines")
    #expect(stored.links[3].categoryID == stored.categories[0].id)
  }

  @Test func importingAEuropeanLedgerCSVWithItsDateFormatAndDecimalComma() async throws {
    let database = Database()
    let store = interchangeStore(database)
    let options = LedgerCSVOptions(dateFormat: dateFormat("dd.MM.yyyy"), decimalSeparator: .comma)
    await store.send(
      .importSubmitted(request(.ledger, "bank.csv", europeanLedgerCSV, ledgerOptions: options))
    ) {
      $0.isImporting = true
    }
    let report = ImportReport(
      scope: .ledger, format: .csv, entries: 4, imported: EntryCounts(transactions: 4))
    await receiveImport(of: 4, report: report, in: store)
    await store.receive(.delegate(.reload(.ledger)))
    await store.finish()

    func expense(
      _ n: UInt64, _ kind: LedgerTransaction.Kind, _ minorUnits: Int64, _ day: String,
      _ memo: String, _ category: String?
    ) -> LedgerTransaction {
      LedgerTransaction(
        id: LedgerTransaction.ID(uuid(n)), kind: kind, amount: Money(minorUnits: minorUnits),
        date: iso(day), memo: memo, category: category, createdAt: now)
    }
    #expect(
      try await database.ledger.fetchTransactions() == [
        expense(3, .expense, 99, "2025-02-04T23:00:00Z", "Zeitung\n(Wochenende)", nil),
        expense(2, .expense, 1_250, "2025-02-02T23:00:00Z", "Café; Kuchen", "Essen"),
        expense(1, .expense, 123_450, "2025-01-31T23:00:00Z", "Miete", "Wohnen"),
        expense(0, .income, 320_000, "2025-01-30T23:00:00Z", "Gehalt", "Arbeit"),
      ])
  }

  @Test func aLedgerImportFailingOnItsLastRowLeavesTheLedgerUnchanged() async throws {
    let database = Database()
    let rent = LedgerTransaction(
      id: LedgerTransaction.ID(uuid(99)), kind: .expense, amount: Money(minorUnits: 50_000),
      date: now, memo: "Rent", createdAt: now)
    _ = try await database.ledger.addTransaction(rent)
    let store = interchangeStore(database)
    let options = LedgerCSVOptions(dateFormat: dateFormat("dd.MM.yyyy"), decimalSeparator: .comma)
    await store.send(
      .importSubmitted(
        request(.ledger, "bank.csv", europeanLedgerCSVWithABadLastRow, ledgerOptions: options))
    ) {
      $0.isImporting = true
    }
    let error = InterchangeError.rowsRejected(
      file: "bank.csv",
      [ImportRejection(line: 7, reason: "The amount must be greater than zero, not '-5.00'.")])
    await store.receive(.importResponse(.failure(error))) {
      $0.isImporting = false
      $0.failure = error
    }
    await store.finish()
    #expect(
      store.state.failure?.description
        == "Line 7 of 'bank.csv' is invalid, so nothing was imported: The amount must be "
        + "greater than zero, not '-5.00'.")
    #expect(try await database.ledger.fetchTransactions() == [rent])
  }

  // MARK: One import after another

  /// A links CSV of one link, and the report of importing it into an empty database.
  let oneLinkCSV = "title,url\nSwift,https://swift.org\n"
  let oneLinkReport = ImportReport(
    scope: .links, format: .csv, entries: 1, imported: EntryCounts(links: 1))

  /// Imports `oneLinkCSV`, asserting every step.
  func importOneLink(_ store: TestStore<Interchange.State, Interchange.Action>) async {
    await receiveImport(of: 1, report: oneLinkReport, in: store)
    await store.receive(.delegate(.reload(.links)))
  }

  @Test func aNewImportForgetsTheLastImportsReport() async {
    let store = interchangeStore(Database())
    await store.send(.importSubmitted(request(.links, "links.csv", oneLinkCSV))) {
      $0.isImporting = true
    }
    await importOneLink(store)
    await store.send(.importSubmitted(request(.links, "empty.html", ""))) {
      $0.isImporting = true
      $0.report = nil
    }
    await store.receive(.importResponse(.failure(.emptyFile(file: "empty.html")))) {
      $0.isImporting = false
      $0.failure = .emptyFile(file: "empty.html")
    }
    await store.finish()
    #expect(store.state.failure?.description == "'empty.html' is empty.")
  }

  @Test func anImportAfterAFailedOneClearsTheFailure() async {
    let store = interchangeStore(Database())
    await store.send(.importSubmitted(request(.links, "empty.html", ""))) {
      $0.isImporting = true
    }
    await store.receive(.importResponse(.failure(.emptyFile(file: "empty.html")))) {
      $0.isImporting = false
      $0.failure = .emptyFile(file: "empty.html")
    }
    await store.send(.importSubmitted(request(.links, "links.csv", oneLinkCSV))) {
      $0.isImporting = true
      $0.failure = nil
    }
    await importOneLink(store)
    await store.finish()
    #expect(store.state.failure == nil)
  }

  @Test func anImportSubmittedWhileAnotherRunsShowsNoneOfTheOthersProgress() async {
    var database = Database()
    database.links.importLinks = { _, _, _ in
      // NB: a clock nobody advances: the first import writes nothing until it is cancelled.
      try await TestClock().sleep(for: .seconds(1))
      throw CancellationError()
    }
    let store = interchangeStore(database)
    await store.send(.importSubmitted(request(.links, "links.csv", oneLinkCSV))) {
      $0.isImporting = true
    }
    await store.receive(.importProgressed(ImportProgress(processed: 0, total: 1))) {
      $0.progress = ImportProgress(processed: 0, total: 1)
    }
    await store.send(.importSubmitted(request(.links, "empty.html", ""))) {
      $0.progress = nil
    }
    await store.receive(.importResponse(.failure(.emptyFile(file: "empty.html")))) {
      $0.isImporting = false
      $0.failure = .emptyFile(file: "empty.html")
    }
    await store.skipInFlightEffects()
    await store.finish()
    #expect(store.state.failure?.description == "'empty.html' is empty.")
  }

  // MARK: Rejected files

  nonisolated static let rejectedFiles:
    [(DataScope, String, [UInt8], FileFormat?, InterchangeError)] = [
      (.links, "empty.html", [], nil, .emptyFile(file: "empty.html")),
      (.links, "blank.csv", Array("\n \n".utf8), nil, .emptyFile(file: "blank.csv")),
      (
        .links, "utf16.html", [0xFF, 0xFE] + Array("<\0D\0L\0>\0".utf8), nil,
        .utf16(file: "utf16.html")
      ),
      (
        .ledger, "latin1.csv",
        Array("date,kind,amount,memo\n2025-03-01,expense,1,Caf".utf8) + [0xE9],
        nil, .notUTF8(file: "latin1.csv", line: 2, byte: 0xE9)
      ),
      (
        .links, "cut.html", Array(chromeBookmarks(firstLines: 18).utf8), nil,
        .truncated(file: "cut.html", line: 16, reason: "a folder's <DL> list is never closed")
      ),
      (
        .links, "cut.csv", Array("title,url,memo\nA,https://a.example,\"half a memo\n".utf8), nil,
        .truncated(file: "cut.csv", line: 2, reason: "a quoted field is never closed")
      ),
      (
        .everything, "cut.json",
        Array("{\"format\": \"loop-export\", \"version\": 1,\n\"links\": [".utf8),
        nil,
        .truncated(
          file: "cut.json", line: 2, reason: "the JSON stops before its objects and lists close")
      ),
      (
        .links, "page.html", Array("<html><body>Hello</body></html>".utf8), nil,
        .notFormat(
          file: "page.html", format: .html,
          reason: "it has neither <!DOCTYPE NETSCAPE-Bookmark-file-1> nor a <DL> list of bookmarks")
      ),
      (
        .links, "links.csv", Array(linksCSV.utf8), .html,
        .notFormat(
          file: "links.csv", format: .html,
          reason: "it has neither <!DOCTYPE NETSCAPE-Bookmark-file-1> nor a <DL> list of bookmarks")
      ),
      (
        .links, "bookmarks.json", Array(chromeBookmarks.utf8), .json,
        .notFormat(
          file: "bookmarks.json", format: .json,
          reason: "it is not a JSON object with \"format\": \"loop-export\"")
      ),
      (
        .ledger, "chrome.html", Array(chromeBookmarks.utf8), nil,
        .cannotImport(.html, into: .ledger)
      ),
      (.everything, "links.csv", Array(linksCSV.utf8), nil, .cannotImport(.csv, into: .everything)),
      (
        .links, "ledger.json",
        Array(
          "{\"format\":\"loop-export\",\"version\":1,\"exportedAt\":\"2025-03-15\",\"transactions\":[]}"
            .utf8),
        nil, .nothingToImport(file: "ledger.json", scope: .links)
      ),
    ]

  @Test(arguments: rejectedFiles.indices)
  func aBadFileGetsOneClearErrorAndWritesNothing(_ index: Int) async throws {
    let (scope, file, bytes, format, error) = Self.rejectedFiles[index]
    let database = Database()
    let store = interchangeStore(database)
    let request = ImportRequest(scope: scope, file: file, contents: Data(bytes), format: format)
    await store.send(.importSubmitted(request)) { $0.isImporting = true }
    await store.receive(.importResponse(.failure(error))) {
      $0.isImporting = false
      $0.failure = error
    }
    await store.finish()
    #expect(
      try await database.export()
        == LoopExport(exportedAt: now, links: LinkArchive(), habits: .init(), transactions: []))
  }

  @Test func aFileOverTheLimitIsRefusedWhole() async throws {
    let database = Database()
    let store = interchangeStore(database)
    let huge = Data(count: ImportFile.sizeLimit + 1)
    await store.send(
      .importSubmitted(ImportRequest(scope: .links, file: "huge.csv", contents: huge))
    ) {
      $0.isImporting = true
    }
    let error = InterchangeError.fileTooLarge(file: "huge.csv", bytes: ImportFile.sizeLimit + 1)
    await store.receive(.importResponse(.failure(error))) {
      $0.isImporting = false
      $0.failure = error
    }
    await store.finish()
    #expect(
      store.state.failure?.description
        == "'huge.csv' is 100.0 MB, over the limit of 100 MB: split it into smaller files.")
  }

  @Test func aNewImportClearsTheLastError() async {
    let store = interchangeStore(
      Database(), state: Interchange.State(failure: .emptyFile(file: "earlier.csv")))
    await store.send(.importSubmitted(request(.links, "empty.html", ""))) {
      $0.isImporting = true
      $0.failure = nil
    }
    await store.receive(.importResponse(.failure(.emptyFile(file: "empty.html")))) {
      $0.isImporting = false
      $0.failure = .emptyFile(file: "empty.html")
    }
    await store.finish()
    #expect(store.state.failure?.description == "'empty.html' is empty.")
  }

  @Test func aClientFailureLandsInTheState() async {
    var database = Database()
    database.links.importLinks = { _, _, _ in throw LinkError.storageFailed("Disk on fire.") }
    let store = interchangeStore(database)
    await store.send(.importSubmitted(request(.links, "chrome.html", chromeBookmarks))) {
      $0.isImporting = true
    }
    await store.receive(.importProgressed(ImportProgress(processed: 0, total: 6))) {
      $0.progress = ImportProgress(processed: 0, total: 6)
    }
    await store.receive(.importResponse(.failure(.links(.storageFailed("Disk on fire."))))) {
      $0.isImporting = false
      $0.progress = nil
      $0.failure = .links(.storageFailed("Disk on fire."))
    }
    await store.finish()
    #expect(
      store.state.failure?.description == "The links could not be read or saved: Disk on fire.")
  }
}
