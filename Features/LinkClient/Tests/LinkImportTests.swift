import Foundation
import LinkClient
import Loop
import Persistence
import Synchronization
import TestSupport
import Testing

import struct LinkClient.Comment

@Suite struct LinkImportTests {
  /// A date `seconds` after the harness's start.
  static func at(_ seconds: TimeInterval) -> Date { Harness.start.addingTimeInterval(seconds) }

  // MARK: importLinks

  @Test(arguments: ClientStorage.allCases)
  func importLinksAddsCheckedLinksAndCreatesEachCategoryOnce(_ kind: ClientStorage) async throws {
    let harness = try Harness(kind)
    let work = try harness.seedCategory(1, "Work")
    let summary = try await harness.run { client in
      try await client.importLinks([
        ImportedLink(
          line: 3, title: " Swift ", url: " https://swift.org ", category: "Dev", memo: " m ",
          createdAt: Self.at(-500)),
        ImportedLink(line: 4, title: "", url: "https://example.com", category: " work "),
        ImportedLink(line: 5, title: "Forums", url: "https://forums.swift.org", category: "DEV"),
        ImportedLink(line: 6, title: "None", url: "https://none.example", category: "  "),
      ])
    }
    #expect(
      summary
        == LinkImportSummary(linksImported: 4, categoriesCreated: ["Dev"], duplicates: 0))
    let dev = Category.ID(UUID(counting: 0))
    let links = try await harness.links.exportLinks().links
    #expect(
      links == [
        Link(
          id: linkID(1), title: "Swift", url: url("https://swift.org"), categoryID: dev,
          memo: "m", createdAt: Self.at(-500)),
        Link(
          id: linkID(2), title: "https://example.com", url: url("https://example.com"),
          categoryID: work.id, createdAt: Harness.start),
        Link(
          id: linkID(3), title: "Forums", url: url("https://forums.swift.org"), categoryID: dev,
          createdAt: Harness.start),
        Link(
          id: linkID(4), title: "None", url: url("https://none.example"),
          createdAt: Harness.start),
      ])
    #expect(
      try await harness.links.exportLinks().categories == [
        Category(id: dev, name: "Dev", createdAt: Harness.start), work,
      ])
  }

  @Test(arguments: Backend.allCases)
  func importLinksStoresTheNewLinksInTheOrderOfTheirIDs(_ backend: Backend) async throws {
    let harness = try Harness(backend)
    let counter = Mutex<UInt64>(100)
    // Ids that come out descending, the category's first.
    let descending = UUIDGenerator {
      UUID(
        counting: counter.withLock { count in
          defer { count -= 1 }
          return count
        })
    }
    _ = try await withDependencies {
      $0.uuid = descending
      $0.date = DateGenerator { Harness.start }
    } operation: {
      try await harness.links.importLinks([
        ImportedLink(line: 1, title: "A", url: "https://a.example", category: "Dev"),
        ImportedLink(line: 2, title: "B", url: "https://b.example"),
        ImportedLink(line: 3, title: "C", url: "https://c.example"),
      ])
    }
    // Each link has the id made for it, in the file's order; they are stored by id.
    let links = try harness.context.fetchAll(Link.self)
    #expect(links.map(\.title) == ["C", "B", "A"])
    #expect(links.map(\.id) == [linkID(97), linkID(98), linkID(99)])
    #expect(links.last?.categoryID == Category.ID(UUID(counting: 100)))
  }

  @Test func importLinksTrimsEveryKindOfWhitespaceAsAddLinkDoes() async throws {
    let harness = try Harness(.inMemory)
    let summary = try await harness.run { client in
      try await client.importLinks([
        ImportedLink(
          line: 1, title: "\u{3000}\t Swift\u{00A0}\n", url: "\u{2003}https://swift.org\r\n",
          category: " \u{2028}Dev\u{205F}", memo: "\u{0085} \u{000B}"),
        ImportedLink(line: 2, title: "Spaced", url: "https://spaced.example/a\u{00A0}b"),
      ])
    }
    #expect(
      summary
        == LinkImportSummary(
          linksImported: 1, categoriesCreated: ["Dev"],
          rejected: [
            LinkImportRejection(line: 2, error: .invalidURL("https://spaced.example/a\u{00A0}b"))
          ]))
    let link = try #require(try await harness.links.fetchLinks().first)
    #expect(link.title == "Swift")
    #expect(link.url == url("https://swift.org"))
    #expect(link.memo == nil)
  }

  @Test(arguments: ClientStorage.allCases)
  func importLinksSkipsAddressesSavedOrSeenEarlierAsDuplicates(_ kind: ClientStorage) async throws {
    let harness = try Harness(kind)
    let summary = try await harness.run { client in
      _ = try await client.addLink(LinkDraft(title: "Saved", url: "https://swift.org"))
      return try await client.importLinks([
        ImportedLink(line: 1, title: "Again", url: "https://swift.org"),
        ImportedLink(line: 2, title: "New", url: "https://new.example"),
        ImportedLink(line: 3, title: "New again", url: " https://new.example"),
      ])
    }
    #expect(summary == LinkImportSummary(linksImported: 1, duplicates: 2))
    #expect(try await harness.links.fetchLinks().map(\.title) == ["New", "Saved"])
  }

  @Test(arguments: ClientStorage.allCases)
  func importLinksRejectsInvalidAddressesWithTheirLinesAndImportsTheRest(
    _ kind: ClientStorage
  ) async throws {
    let harness = try Harness(kind)
    let summary = try await harness.run { client in
      try await client.importLinks([
        ImportedLink(line: 7, title: "Bookmarklet", url: "javascript:alert(1)"),
        ImportedLink(line: 8, title: "Good", url: "https://good.example"),
        ImportedLink(line: 9, title: "Nothing", url: " "),
        ImportedLink(line: 12, title: "", url: ""),
        ImportedLink(line: 14, title: "Places", url: "place:sort=8", category: "Never"),
      ])
    }
    #expect(
      summary
        == LinkImportSummary(
          linksImported: 1,
          rejected: [
            LinkImportRejection(line: 7, error: .invalidURL("javascript:alert(1)")),
            LinkImportRejection(line: 9, error: .invalidURL("")),
            LinkImportRejection(line: 12, error: .invalidURL("")),
            LinkImportRejection(line: 14, error: .invalidURL("place:sort=8")),
          ]))
    #expect(try await harness.links.exportLinks().categories == [])
  }

  @Test(arguments: ClientStorage.allCases)
  func aDryRunReportsWhatTheImportWouldDoAndWritesNothing(_ kind: ClientStorage) async throws {
    let harness = try Harness(kind)
    let links = [
      ImportedLink(line: 1, title: "A", url: "https://a.example", category: "Dev"),
      ImportedLink(line: 2, title: "B", url: "https://a.example"),
      ImportedLink(line: 3, title: "C", url: "nope"),
    ]
    let dryRun = try await harness.run { try await $0.importLinks(links, dryRun: true) }
    #expect(try await harness.links.exportLinks() == LinkArchive())
    let real = try await harness.run { try await $0.importLinks(links) }
    #expect(dryRun == real)
    #expect(
      real
        == LinkImportSummary(
          linksImported: 1, categoriesCreated: ["Dev"], duplicates: 1,
          rejected: [LinkImportRejection(line: 3, error: .invalidURL("nope"))]))
  }

  @Test(arguments: ClientStorage.allCases)
  func aLargeImportRejectsAndSkipsTheLinksASmallOneWould(_ kind: ClientStorage) async throws {
    // Large enough to be checked on several cores: every tenth address is invalid, and every
    // link from 6,000 on repeats an earlier address.
    let links = (0..<8_000).map { index in
      ImportedLink(
        line: index + 2, title: "Page \(index)",
        url: index % 10 == 3 ? "page \(index)" : "https://example.com/\(index % 6_000)")
    }
    let harness = try Harness(kind)
    let summary = try await harness.run { try await $0.importLinks(links) }
    let invalid = links.filter { $0.url.hasPrefix("page") }
    #expect(
      summary.rejected
        == invalid.map { LinkImportRejection(line: $0.line, error: .invalidURL($0.url)) })
    #expect(summary.duplicates == 2_000 - invalid.filter { $0.line >= 6_002 }.count)
    #expect(summary.linksImported == 8_000 - summary.rejected.count - summary.duplicates)
    let titles = Set(try await harness.links.exportLinks().links.map(\.title))
    #expect(titles.count == summary.linksImported)
    #expect(titles.contains("Page 5999") && !titles.contains("Page 6000"))
  }

  @Test(arguments: ClientStorage.allCases)
  func importLinksReportsProgressAfterEveryBatch(_ kind: ClientStorage) async throws {
    let harness = try Harness(kind)
    let links = (0..<2_500).map {
      ImportedLink(line: $0 + 1, title: "Page \($0)", url: "https://example.com/\($0)")
    }
    let reports = Mutex<[Int]>([])
    let summary = try await harness.run { client in
      try await client.importLinks(links) { processed in reports.withLock { $0.append(processed) } }
    }
    #expect(summary.linksImported == 2_500)
    #expect(reports.withLock { $0 } == [1_000, 2_000, 2_500])
  }

  @Test(arguments: Backend.persistent)
  func anImportFailingOnItsLastLinkLeavesTheDatabaseUnchanged(_ backend: Backend) async throws {
    let harness = try Harness(backend)
    let before = try await harness.run { client in
      _ = try await client.addLink(LinkDraft(title: "Saved", url: "https://saved.example"))
      return try await client.exportLinks()
    }
    try harness.refuseLinks(titled: "Last")
    let links = (0..<1_500).map {
      ImportedLink(
        line: $0 + 1, title: $0 == 1_499 ? "Last" : "Page \($0)",
        url: "https://example.com/\($0)", category: "Folder \($0 % 3)")
    }
    await #expect {
      try await harness.run { try await $0.importLinks(links) }
    } throws: { error in
      guard case LinkError.storageFailed(let reason) = error else { return false }
      return reason.contains(backend.refusalMessage)
    }
    #expect(try await harness.links.exportLinks() == before)
  }

  /// PostgreSQL aborts an import for a deadlock with another program, which added one of its
  /// categories and then waited for Loop's lock: the import runs again, whole, and uses that
  /// category.
  @Test(.enabled(if: PostgresTestServer.skipReason == nil))
  func anImportAbortedForADeadlockRunsAgainWhole() async throws {
    let harness = try Harness(.postgres)
    let schema = try #require(harness.schema)
    let url = try #require(PostgresTestServer.url)
    let other = try AdminConnection(PostgresTestServer.connectionString(url, schema: schema))
    let otherID = "00000000-0000-0000-0000-000000000abc"
    try other.execute(
      """
      SET deadlock_timeout = '60s'; BEGIN;
      INSERT INTO categories (id, name, loop_exact_created_at, loop_folded_name)
      VALUES ('\(otherID)', 'Folder 1', 0, 'folder 1')
      """)
    let otherFailure = Mutex<String?>(nil)
    let otherDone = DispatchSemaphore(value: 0)
    Thread {
      do {
        // Once the import waits for the other program's category, the other asks for Loop's
        // lock, which the import holds: each waits for the other.
        while try PostgresTestServer.value(
          "SELECT count(*) FROM pg_stat_activity WHERE application_name = '\(schema)' AND "
            + "wait_event_type = 'Lock'") == "0"
        {
          usleep(10_000)
        }
        try other.execute("LOCK TABLE loop_meta IN EXCLUSIVE MODE; COMMIT")
      } catch {
        otherFailure.withLock { $0 = "\(error)" }
      }
      otherDone.signal()
    }.start()
    let links = (0..<300).map {
      ImportedLink(
        line: $0 + 1, title: "Page \($0)", url: "https://example.com/\($0)",
        category: "Folder \($0 % 3)")
    }
    let summary = try await harness.run { try await $0.importLinks(links) }
    otherDone.wait()
    #expect(otherFailure.withLock { $0 } == nil)
    #expect(summary.linksImported == 300)
    #expect(summary.categoriesCreated == ["Folder 0", "Folder 2"])
    let archive = try await harness.links.exportLinks()
    #expect(archive.links.count == 300)
    let folder1 = try #require(archive.categories.first { $0.name == "Folder 1" })
    #expect(folder1.id.description == otherID.uppercased())
    #expect(archive.links.filter { $0.categoryID == folder1.id }.count == 100)
  }

  // MARK: exportLinks

  @Test(arguments: ClientStorage.allCases)
  func exportLinksListsEverythingByCreationThenID(_ kind: ClientStorage) async throws {
    let harness = try Harness(kind)
    let work = try harness.seedCategory(1, "Work")
    let archive = try await harness.run { client in
      harness.advance(by: 10)
      let b = try await client.addLink(LinkDraft(title: "B", url: "https://b.example"))
      let a = try await client.addLink(
        LinkDraft(title: "A", url: "https://a.example", categoryID: work.id))
      harness.advance(by: -5)
      let c = try await client.addLink(LinkDraft(title: "C", url: "https://c.example"))
      let second = try await client.addComment(b.id, "second")
      harness.advance(by: -1)
      let first = try await client.addComment(a.id, "first")
      let archive = try await client.exportLinks()
      #expect(archive.links == [c, b, a])
      #expect(archive.comments == [first, second])
      return archive
    }
    #expect(archive.categories == [work])
  }

  // MARK: restoreLinks

  /// An archive with a category, three links (one favorite, one viewed) and two comments.
  static func sampleArchive() -> LinkArchive {
    let dev = Category(id: Category.ID(UUID(counting: 0x100)), name: "Dev", createdAt: at(1))
    let swift = Link(
      id: Link.ID(UUID(counting: 0x200)), title: "Swift", url: url("https://swift.org"),
      categoryID: dev.id, memo: "the language", isFavorite: true, createdAt: at(2.5),
      lastViewedDate: at(30.125))
    let forums = Link(
      id: Link.ID(UUID(counting: 0x201)), title: "Forums", url: url("https://forums.swift.org"),
      createdAt: at(3))
    let news = Link(
      id: Link.ID(UUID(counting: 0x202)), title: "News", url: url("https://news.example"),
      categoryID: dev.id, createdAt: at(4))
    return LinkArchive(
      categories: [dev], links: [swift, forums, news],
      comments: [
        Comment(
          id: Comment.ID(UUID(counting: 0x300)), linkID: swift.id, text: "read", createdAt: at(5)),
        Comment(
          id: Comment.ID(UUID(counting: 0x301)), linkID: news.id, text: "later", createdAt: at(6)),
      ])
  }

  @Test(arguments: ClientStorage.allCases)
  func restoringAnArchiveIntoAnEmptyDatabaseReproducesItExactly(_ kind: ClientStorage) async throws
  {
    let archive = Self.sampleArchive()
    let harness = try Harness(kind)
    let summary = try await harness.run { try await $0.restoreLinks(archive) }
    #expect(
      summary
        == LinkImportSummary(linksImported: 3, commentsImported: 2, categoriesCreated: ["Dev"]))
    #expect(try await harness.links.exportLinks() == archive)
    #expect(try await harness.links.fetchRecentLinks().map(\.title) == ["Swift"])

    let copy = try Harness(kind)
    _ = try await copy.run { try await $0.restoreLinks(harness.links.exportLinks()) }
    #expect(try await copy.links.exportLinks() == archive)
  }

  @Test(arguments: ClientStorage.allCases)
  func restoringMergesWithStoredCategoriesAndSkipsStoredLinks(_ kind: ClientStorage) async throws {
    let archive = Self.sampleArchive()
    let harness = try Harness(kind)
    let dev = try harness.seedCategory(1, "DEV")
    try await harness.run { client in
      _ = try await client.addLink(LinkDraft(title: "Mine", url: "https://news.example"))
    }
    let summary = try await harness.run { try await $0.restoreLinks(archive) }
    #expect(summary == LinkImportSummary(linksImported: 2, commentsImported: 1, duplicates: 1))
    let stored = try await harness.links.exportLinks()
    #expect(stored.categories == [dev])
    #expect(stored.links.map(\.title) == ["Mine", "Swift", "Forums"])
    #expect(stored.links[1].categoryID == dev.id)
    #expect(stored.comments == [archive.comments[0]])

    let again = try await harness.run { try await $0.restoreLinks(archive) }
    #expect(again == LinkImportSummary(duplicates: 3))
    #expect(try await harness.links.exportLinks() == stored)
  }

  static let invalidArchives: [(String, @Sendable (inout LinkArchive) -> Void, LinkError)] = [
    (
      "category twice", { $0.categories.append($0.categories[0]) },
      .invalidArchive("category '00000000-0000-0000-0000-000000000100' appears twice")
    ),
    (
      "blank category name", { $0.categories[0].name = " " },
      .invalidArchive("category '00000000-0000-0000-0000-000000000100' has no name")
    ),
    (
      "category names clash",
      {
        $0.categories.append(
          Category(id: Category.ID(UUID(counting: 0x101)), name: "dev", createdAt: at(0)))
      },
      .invalidArchive(
        "category '00000000-0000-0000-0000-000000000101' has the name 'dev' of another category")
    ),
    (
      "link twice", { $0.links.append($0.links[0]) },
      .invalidArchive("link '00000000-0000-0000-0000-000000000200' appears twice")
    ),
    (
      "blank title", { $0.links[1].title = "\n" },
      .invalidArchive("link '00000000-0000-0000-0000-000000000201' has no title")
    ),
    (
      "not a web address", { $0.links[2].url = url("ftp://files.example") },
      .invalidArchive(
        "link '00000000-0000-0000-0000-000000000202' has 'ftp://files.example', not a web "
          + "address")
    ),
    (
      "missing category", { $0.categories = [] },
      .invalidArchive(
        "link '00000000-0000-0000-0000-000000000200' is in category "
          + "'00000000-0000-0000-0000-000000000100', which does not exist")
    ),
    (
      "comment twice", { $0.comments.append($0.comments[1]) },
      .invalidArchive("comment '00000000-0000-0000-0000-000000000301' appears twice")
    ),
    (
      "blank comment", { $0.comments[0].text = "" },
      .invalidArchive("comment '00000000-0000-0000-0000-000000000300' is empty")
    ),
    (
      "comment on no link", { $0.links.removeLast() },
      .invalidArchive(
        "comment '00000000-0000-0000-0000-000000000301' is on link "
          + "'00000000-0000-0000-0000-000000000202', which does not exist")
    ),
  ]

  @Test(arguments: Backend.allCases, invalidArchives.indices)
  func restoringAnInvalidArchiveWritesNothing(_ backend: Backend, _ index: Int) async throws {
    let (_, breakArchive, error) = Self.invalidArchives[index]
    var archive = Self.sampleArchive()
    breakArchive(&archive)
    let harness = try Harness(backend)
    await #expect(throws: error) {
      try await harness.run { try await $0.restoreLinks(archive) }
    }
    #expect(try await harness.links.exportLinks() == LinkArchive())
  }

  @Test func anInvalidArchiveErrorIsASentence() {
    #expect(
      LinkError.invalidArchive("link 'x' has no title").description
        == "The links cannot be restored: link 'x' has no title.")
  }

  @Test(arguments: ClientStorage.allCases)
  func aDryRunRestoreWritesNothing(_ kind: ClientStorage) async throws {
    let harness = try Harness(kind)
    let reports = Mutex<[Int]>([])
    let summary = try await harness.run { client in
      try await client.restoreLinks(Self.sampleArchive(), dryRun: true) { processed in
        reports.withLock { $0.append(processed) }
      }
    }
    #expect(
      summary
        == LinkImportSummary(linksImported: 3, commentsImported: 2, categoriesCreated: ["Dev"]))
    #expect(reports.withLock { $0 } == [4, 6])
    #expect(try await harness.links.exportLinks() == LinkArchive())
  }
}
