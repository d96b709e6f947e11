import Foundation
import LinkClient
import Synchronization
import TestSupport
import Testing

@testable import LinkClientLive

@Suite struct LinkPageTests {
  /// Seven links, one a second, and their ids newest first.
  private func seven(_ harness: Harness) async throws -> [Link.ID] {
    var ids: [Link.ID] = []
    for index in 0..<7 {
      harness.advance(by: 1)
      let link = try await harness.run { client in
        try await client.addLink(
          LinkDraft(title: "Link \(index)", url: "https://example.com/\(index)"))
      }
      ids.insert(link.id, at: 0)
    }
    return ids
  }

  /// Every page of two from the first, until the last.
  private func everyPage(_ client: LinkClient) async throws -> [LinkPage] {
    var pages = [try await client.fetchLinkPage(nil, nil, 2)]
    while let next = pages.last?.next { pages.append(try await client.fetchLinkPage(nil, next, 2)) }
    return pages
  }

  @Test(arguments: ClientStorage.allCases)
  func pagesReadToTheEndGiveEveryLinkOnceNewestFirst(_ kind: ClientStorage) async throws {
    let harness = try Harness(kind)
    let ids = try await seven(harness)
    let pages = try await everyPage(harness.links)
    #expect(pages.map(\.links.count) == [2, 2, 2, 1])
    #expect(pages.flatMap(\.links).map(\.id) == ids)
  }

  /// ``seven(_:)``'s links, then their first two pages of two: answering the second reads the
  /// third ahead.
  private func twoPages(
    _ harness: Harness
  ) async throws -> (ids: [Link.ID], first: LinkPage, second: LinkPage) {
    let ids = try await seven(harness)
    let first = try await harness.links.fetchLinkPage(nil, nil, 2)
    return (ids, first, try await harness.links.fetchLinkPage(nil, first.next, 2))
  }

  @Test(arguments: ClientStorage.allCases)
  func aLinkDeletedAfterItsPageWasReadAheadIsNotListed(_ kind: ClientStorage) async throws {
    let harness = try Harness(kind)
    let (ids, _, second) = try await twoPages(harness)
    try await harness.links.deleteLink(ids[4])
    let third = try await harness.links.fetchLinkPage(nil, second.next, 2)
    #expect(third.links.map(\.id) == [ids[5], ids[6]])
    #expect(third.next == nil)
  }

  @Test(arguments: ClientStorage.allCases)
  func aPageAskedForAgainIsThatPageNotTheOneReadAhead(_ kind: ClientStorage) async throws {
    let harness = try Harness(kind)
    let (ids, first, second) = try await twoPages(harness)
    let again = try await harness.links.fetchLinkPage(nil, first.next, 2)
    #expect(again == second)
    #expect(again.links.map(\.id) == [ids[2], ids[3]])
    let larger = try await harness.links.fetchLinkPage(nil, second.next, 3)
    #expect(larger.links.map(\.id) == [ids[4], ids[5], ids[6]])
  }
}

/// The read-ahead itself, over a source of empty pages that counts its reads.
@Suite struct LinkPageReadAheadTests {
  private final class Source: Sendable {
    let reads = Mutex<[Int]>([])
    let writes = Mutex(0)
    /// How many more reads of each page fail, by page number.
    let failures = Mutex<[Int: Int]>([:])

    /// Page `n` (after cursor `n`, the first after none) is followed by page `n + 1`, up to 9;
    /// the next cursor's id tells how the page was read: 100 × the size, plus 1,000 for a
    /// category, plus the write count then.
    func read(
      _ categoryID: Category.ID?, _ cursor: LinkPage.Cursor?, _ limit: Int
    ) throws(LinkError) -> LinkPage {
      let number = cursor.map { Int($0.createdAt.timeIntervalSinceReferenceDate) } ?? 0
      reads.withLock { $0.append(number) }
      let fails = failures.withLock { failures in
        defer { failures[number] = max(0, (failures[number] ?? 0) - 1) }
        return (failures[number] ?? 0) > 0
      }
      if fails { throw .storageFailed("Page \(number) is unreadable.") }
      let how = 100 * limit + (categoryID == nil ? 0 : 1_000) + writes.withLock { $0 }
      return LinkPage(links: [], next: number < 9 ? Self.cursor(number + 1, how) : nil)
    }

    static func cursor(_ number: Int, _ how: Int = 200) -> LinkPage.Cursor {
      LinkPage.Cursor(
        createdAt: Date(timeIntervalSinceReferenceDate: TimeInterval(number)),
        id: linkID(UInt64(how)))
    }

    func readAhead() -> LinkPageReadAhead {
      LinkPageReadAhead(
        read: { [self] categoryID, cursor, limit throws(LinkError) in
          try read(categoryID, cursor, limit)
        },
        writeCount: { [self] in writes.withLock { $0 } })
    }

    func readCount(of number: Int) -> Int { reads.withLock { $0.count { $0 == number } } }
  }

  @Test func thePageAfterASecondPageIsReadOnceAheadOfItsRequest() async throws {
    let source = Source()
    let pages = source.readAhead()
    _ = try await pages.page(in: nil, after: nil, limit: 2)
    _ = try await pages.page(in: nil, after: Source.cursor(1), limit: 2)
    #expect(pages.cursorReadAhead == Source.cursor(2))
    let third = try await pages.page(in: nil, after: Source.cursor(2), limit: 2)
    #expect(third.next == Source.cursor(3))
    #expect(source.readCount(of: 2) == 1)
  }

  @Test func aFirstPageReadsNothingAhead() async throws {
    let source = Source()
    let pages = source.readAhead()
    _ = try await pages.page(in: nil, after: nil, limit: 2)
    #expect(pages.cursorReadAhead == nil)
  }

  @Test func theLastPageReadsNothingAhead() async throws {
    let source = Source()
    let pages = source.readAhead()
    let last = try await pages.page(in: nil, after: Source.cursor(9), limit: 2)
    #expect(last.next == nil)
    #expect(pages.cursorReadAhead == nil)
  }

  @Test func aWriteSinceThePageWasReadAheadReadsItAgain() async throws {
    let source = Source()
    let pages = source.readAhead()
    _ = try await pages.page(in: nil, after: Source.cursor(1), limit: 2)
    source.writes.withLock { $0 += 1 }
    let second = try await pages.page(in: nil, after: Source.cursor(2), limit: 2)
    #expect(second.next == Source.cursor(3, 201))
  }

  @Test func anotherSizeOrCategoryReadsThePageAgain() async throws {
    let source = Source()
    let pages = source.readAhead()
    _ = try await pages.page(in: nil, after: Source.cursor(1), limit: 2)
    let larger = try await pages.page(in: nil, after: Source.cursor(2), limit: 3)
    #expect(larger.next == Source.cursor(3, 300))
    let category = try await pages.page(in: categoryID(1), after: Source.cursor(3, 300), limit: 3)
    #expect(category.next == Source.cursor(4, 1_300))
  }

  @Test func aPageWhoseReadAheadFailedIsReadAgainWhenAskedFor() async throws {
    let source = Source()
    source.failures.withLock { $0[2] = 1 }
    let pages = source.readAhead()
    _ = try await pages.page(in: nil, after: Source.cursor(1), limit: 2)
    let second = try await pages.page(in: nil, after: Source.cursor(2), limit: 2)
    #expect(second.next == Source.cursor(3))
    #expect(source.readCount(of: 2) == 2)
  }

  @Test func aPageThatCannotBeReadThrowsTheErrorOfItsOwnRead() async throws {
    let source = Source()
    source.failures.withLock { $0[2] = 2 }
    let pages = source.readAhead()
    _ = try await pages.page(in: nil, after: Source.cursor(1), limit: 2)
    let error = await #expect(throws: LinkError.self) {
      try await pages.page(in: nil, after: Source.cursor(2), limit: 2)
    }
    #expect(error == .storageFailed("Page 2 is unreadable."))
    #expect(error?.description == "The links could not be read or saved: Page 2 is unreadable.")
    #expect(source.readCount(of: 2) == 2)
  }
}
