import Foundation
import LinkClient
import Loop
import Persistence
import TestSupport
import Testing

import struct LinkClient.Comment

@Suite struct LinkClientTests {
  // MARK: Adding

  @Test(arguments: ClientStorage.allCases)
  func addLinkStoresTheCheckedDraft(_ kind: ClientStorage) async throws {
    let harness = try Harness(kind)
    let link = try await harness.run { client in
      try await client.addLink(
        LinkDraft(title: "  Swift Testing \n", url: " https://swift.org/testing ", memo: " new "))
    }
    let expected = Link(
      id: linkID(0), title: "Swift Testing", url: url("https://swift.org/testing"), memo: "new",
      createdAt: Harness.start)
    #expect(link == expected)
    #expect(try await harness.links.fetchLink(linkID(0)) == expected)
  }

  @Test(arguments: ClientStorage.allCases)
  func addLinkWithABlankMemoHasNoMemo(_ kind: ClientStorage) async throws {
    let harness = try Harness(kind)
    let link = try await harness.run { client in
      try await client.addLink(LinkDraft(title: "Swift", url: "http://swift.org", memo: "  "))
    }
    #expect(link.memo == nil)
    #expect(try await harness.links.fetchLink(link.id).memo == nil)
  }

  @Test(arguments: ClientStorage.allCases)
  func addLinkInACategory(_ kind: ClientStorage) async throws {
    let harness = try Harness(kind)
    let work = try harness.seedCategory(1, "Work")
    let link = try await harness.run { client in
      try await client.addLink(
        LinkDraft(title: "Swift", url: "https://swift.org", categoryID: work.id))
    }
    #expect(link.categoryID == work.id)
    #expect(try await harness.links.fetchLinksInCategory(work.id) == [link])
  }

  static let invalidDrafts: [(LinkDraft, LinkError)] = [
    (LinkDraft(title: "", url: "https://swift.org"), .emptyTitle),
    (LinkDraft(title: " \n\t", url: "https://swift.org"), .emptyTitle),
    (LinkDraft(title: "", url: "swift.org"), .emptyTitle),
    (LinkDraft(title: "Swift", url: ""), .invalidURL("")),
    (LinkDraft(title: "Swift", url: "swift.org"), .invalidURL("swift.org")),
    (LinkDraft(title: "Swift", url: " htp:/swift "), .invalidURL("htp:/swift")),
    (LinkDraft(title: "Swift", url: "ftp://swift.org"), .invalidURL("ftp://swift.org")),
    (LinkDraft(title: "Swift", url: "https://"), .invalidURL("https://")),
    (LinkDraft(title: "Swift", url: "https://swift .org"), .invalidURL("https://swift .org")),
    (LinkDraft(title: "Swift", url: "/relative/path"), .invalidURL("/relative/path")),
    (
      LinkDraft(
        title: "Swift", url: "https://swift.org", categoryID: Category.ID(UUID(counting: 99))),
      .categoryNotFound(Category.ID(UUID(counting: 99)))
    ),
  ]

  @Test(arguments: Backend.allCases, invalidDrafts)
  func addLinkRejectsAnInvalidDraftAndStoresNothing(
    _ backend: Backend, _ invalid: (draft: LinkDraft, error: LinkError)
  ) async throws {
    let harness = try Harness(backend)
    await #expect(throws: invalid.error) {
      try await harness.run { client in try await client.addLink(invalid.draft) }
    }
    #expect(try await harness.links.fetchLinks() == [])
  }

  @Test(arguments: ClientStorage.allCases)
  func addLinkAcceptsHTTPAndHTTPSInAnyCase(_ kind: ClientStorage) async throws {
    let harness = try Harness(kind)
    let urls = try await harness.run { client in
      var urls: [String] = []
      for address in ["http://localhost:8080/a", "HTTPS://Swift.org/b?c=d#e"] {
        urls.append(
          try await client.addLink(LinkDraft(title: "A", url: address)).url.absoluteString)
      }
      return urls
    }
    #expect(urls == ["http://localhost:8080/a", "HTTPS://Swift.org/b?c=d#e"])
  }

  // MARK: Fetching

  @Test(arguments: ClientStorage.allCases)
  func fetchLinksIsNewestFirstWithTiesByIDDescending(_ kind: ClientStorage) async throws {
    let harness = try Harness(kind)
    try await harness.run { client in
      _ = try await client.addLink(LinkDraft(title: "A", url: "https://a.com"))
      harness.advance(by: 60)
      _ = try await client.addLink(LinkDraft(title: "B", url: "https://b.com"))
      _ = try await client.addLink(LinkDraft(title: "C", url: "https://c.com"))
      harness.advance(by: 60)
      _ = try await client.addLink(LinkDraft(title: "D", url: "https://d.com"))
    }
    let links = try await harness.links.fetchLinks()
    #expect(links.map(\.title) == ["D", "C", "B", "A"])
    #expect(links.map(\.id) == [linkID(3), linkID(2), linkID(1), linkID(0)])
  }

  @Test(arguments: ClientStorage.allCases)
  func fetchLinkOfAMissingIDThrowsNotFound(_ kind: ClientStorage) async throws {
    let harness = try Harness(kind)
    await #expect(throws: LinkError.notFound(linkID(7))) {
      try await harness.links.fetchLink(linkID(7))
    }
  }

  @Test(arguments: ClientStorage.allCases)
  func fetchLinksInACategoryIsNewestFirstAndLeavesOthersOut(_ kind: ClientStorage) async throws {
    let harness = try Harness(kind)
    let work = try harness.seedCategory(1, "Work")
    let home = try harness.seedCategory(2, "Home")
    try await harness.run { client in
      _ = try await client.addLink(
        LinkDraft(title: "W1", url: "https://a.com", categoryID: work.id))
      _ = try await client.addLink(
        LinkDraft(title: "H1", url: "https://b.com", categoryID: home.id))
      _ = try await client.addLink(LinkDraft(title: "None", url: "https://c.com"))
      harness.advance(by: 1)
      _ = try await client.addLink(
        LinkDraft(title: "W2", url: "https://d.com", categoryID: work.id))
    }
    #expect(try await harness.links.fetchLinksInCategory(work.id).map(\.title) == ["W2", "W1"])
    #expect(try await harness.links.fetchLinksInCategory(home.id).map(\.title) == ["H1"])
  }

  @Test(arguments: ClientStorage.allCases)
  func fetchLinksInAMissingCategoryThrowsCategoryNotFound(_ kind: ClientStorage) async throws {
    let harness = try Harness(kind)
    let missing = Category.ID(UUID(counting: 42))
    await #expect(throws: LinkError.categoryNotFound(missing)) {
      try await harness.links.fetchLinksInCategory(missing)
    }
  }

  // MARK: Searching

  /// Links titled "Swift Testing", "SWIFT concurrency", "Straße" and "Kotlin", in that order.
  private func seedSearchable(_ harness: Harness) async throws {
    try await harness.run { client in
      for title in ["Swift Testing", "SWIFT concurrency", "Straße", "Kotlin"] {
        _ = try await client.addLink(LinkDraft(title: title, url: "https://example.com"))
        harness.advance(by: 1)
      }
    }
  }

  static let searches: [(query: String, titles: [String])] = [
    ("swift", ["SWIFT concurrency", "Swift Testing"]),
    ("  Swift  ", ["SWIFT concurrency", "Swift Testing"]),
    ("TEST", ["Swift Testing"]),
    ("strasse", ["Straße"]),
    ("", ["Kotlin", "Straße", "SWIFT concurrency", "Swift Testing"]),
    ("   ", ["Kotlin", "Straße", "SWIFT concurrency", "Swift Testing"]),
    ("rust", []),
  ]

  @Test(arguments: Backend.allCases, searches)
  func searchLinksMatchesTitlesIgnoringCaseNewestFirst(
    _ backend: Backend, _ search: (query: String, titles: [String])
  ) async throws {
    let harness = try Harness(backend)
    try await seedSearchable(harness)
    #expect(try await harness.links.searchLinks(search.query).map(\.title) == search.titles)
  }

  // MARK: Recent

  @Test(arguments: ClientStorage.allCases)
  func fetchRecentLinksIsTheSixLastViewedMostRecentFirst(_ kind: ClientStorage) async throws {
    let harness = try Harness(kind)
    try await harness.run { client in
      for number in 0..<9 {
        _ = try await client.addLink(LinkDraft(title: "L\(number)", url: "https://a.com"))
      }
      // Viewed: L8 first, then L0 to L6 in order; L7 never.
      for number in [8, 0, 1, 2, 3, 4, 5, 6] as [UInt64] {
        harness.advance(by: 10)
        _ = try await client.markViewed(linkID(number))
      }
    }
    let recent = try await harness.links.fetchRecentLinks()
    #expect(recent.map(\.title) == ["L6", "L5", "L4", "L3", "L2", "L1"])
    #expect(recent.first?.lastViewedDate == Harness.start.addingTimeInterval(80))
    #expect(try await harness.links.fetchRecentLinks(limit: 2).map(\.title) == ["L6", "L5"])
    #expect(try await harness.links.fetchRecentLinks(limit: 20).count == 8)
    #expect(try await harness.links.fetchRecentLinks(limit: -1) == [])
  }

  @Test(arguments: ClientStorage.allCases)
  func fetchRecentLinksBreaksTiesByIDDescending(_ kind: ClientStorage) async throws {
    let harness = try Harness(kind)
    try await harness.run { client in
      for title in ["A", "B", "C"] {
        _ = try await client.addLink(LinkDraft(title: title, url: "https://a.com"))
      }
      for number in [1, 0, 2] as [UInt64] { _ = try await client.markViewed(linkID(number)) }
    }
    #expect(try await harness.links.fetchRecentLinks().map(\.title) == ["C", "B", "A"])
  }

  // MARK: Updating

  @Test(arguments: ClientStorage.allCases)
  func updateLinkReplacesTheEditableValuesAndKeepsTheRest(_ kind: ClientStorage) async throws {
    let harness = try Harness(kind)
    let work = try harness.seedCategory(1, "Work")
    let updated = try await harness.run { client in
      _ = try await client.addLink(LinkDraft(title: "Old", url: "https://old.com", memo: "m"))
      _ = try await client.setFavorite(linkID(0), true)
      harness.advance(by: 5)
      _ = try await client.markViewed(linkID(0))
      harness.advance(by: 5)
      return try await client.updateLink(
        linkID(0), LinkDraft(title: " New ", url: "https://new.com", categoryID: work.id))
    }
    let expected = Link(
      id: linkID(0), title: "New", url: url("https://new.com"), categoryID: work.id, memo: nil,
      isFavorite: true, createdAt: Harness.start,
      lastViewedDate: Harness.start.addingTimeInterval(5))
    #expect(updated == expected)
    #expect(try await harness.links.fetchLinks() == [expected])
  }

  static let invalidUpdates: [(LinkDraft, LinkError)] = [
    (LinkDraft(title: " ", url: "https://new.com"), .emptyTitle),
    (LinkDraft(title: "New", url: "new.com"), .invalidURL("new.com")),
    (
      LinkDraft(title: "New", url: "https://new.com", categoryID: Category.ID(UUID(counting: 9))),
      .categoryNotFound(Category.ID(UUID(counting: 9)))
    ),
  ]

  @Test(arguments: Backend.allCases, invalidUpdates)
  func updateLinkRejectsAnInvalidDraftAndChangesNothing(
    _ backend: Backend, _ invalid: (draft: LinkDraft, error: LinkError)
  ) async throws {
    let harness = try Harness(backend)
    let original = try await harness.run { client in
      try await client.addLink(LinkDraft(title: "Old", url: "https://old.com"))
    }
    await #expect(throws: invalid.error) {
      try await harness.links.updateLink(original.id, invalid.draft)
    }
    #expect(try await harness.links.fetchLinks() == [original])
  }

  @Test(arguments: ClientStorage.allCases)
  func updateLinkOfAMissingIDThrowsNotFound(_ kind: ClientStorage) async throws {
    let harness = try Harness(kind)
    await #expect(throws: LinkError.notFound(linkID(3))) {
      try await harness.links.updateLink(linkID(3), LinkDraft(title: "A", url: "https://a.com"))
    }
  }

  @Test(arguments: ClientStorage.allCases)
  func markViewedRecordsNow(_ kind: ClientStorage) async throws {
    let harness = try Harness(kind)
    let viewed = try await harness.run { client in
      _ = try await client.addLink(LinkDraft(title: "A", url: "https://a.com"))
      harness.advance(by: 30)
      return try await client.markViewed(linkID(0))
    }
    #expect(viewed.lastViewedDate == Harness.start.addingTimeInterval(30))
    #expect(try await harness.links.fetchLink(linkID(0)) == viewed)
  }

  @Test(arguments: ClientStorage.allCases)
  func setFavoriteMarksAndUnmarks(_ kind: ClientStorage) async throws {
    let harness = try Harness(kind)
    try await harness.run { client in
      _ = try await client.addLink(LinkDraft(title: "A", url: "https://a.com"))
    }
    #expect(try await harness.links.setFavorite(linkID(0), true).isFavorite)
    #expect(try await harness.links.fetchLink(linkID(0)).isFavorite)
    #expect(try await !harness.links.setFavorite(linkID(0), false).isFavorite)
    #expect(try await !harness.links.fetchLink(linkID(0)).isFavorite)
  }

  @Test(arguments: ClientStorage.allCases)
  func markViewedAndSetFavoriteOfAMissingIDThrowNotFound(_ kind: ClientStorage) async throws {
    let harness = try Harness(kind)
    await #expect(throws: LinkError.notFound(linkID(1))) {
      try await harness.run { client in try await client.markViewed(linkID(1)) }
    }
    await #expect(throws: LinkError.notFound(linkID(1))) {
      try await harness.links.setFavorite(linkID(1), true)
    }
  }

  // MARK: Deleting

  @Test(arguments: ClientStorage.allCases)
  func deleteLinkDeletesItsCommentsAndNothingElse(_ kind: ClientStorage) async throws {
    let harness = try Harness(kind)
    try await harness.run { client in
      _ = try await client.addLink(LinkDraft(title: "Gone", url: "https://a.com"))  // 0
      _ = try await client.addLink(LinkDraft(title: "Kept", url: "https://b.com"))  // 1
      _ = try await client.addComment(linkID(0), "one")  // 2
      _ = try await client.addComment(linkID(1), "kept")  // 3
      _ = try await client.addComment(linkID(0), "two")  // 4
      try await client.deleteLink(linkID(0))
    }
    #expect(try await harness.links.fetchLinks().map(\.title) == ["Kept"])
    #expect(try await harness.links.fetchComments(linkID(1)).map(\.text) == ["kept"])
    await #expect(throws: LinkError.notFound(linkID(0))) {
      try await harness.links.fetchComments(linkID(0))
    }
    await #expect(throws: LinkError.commentNotFound(commentID(2))) {
      try await harness.links.deleteComment(commentID(2))
    }
  }

  @Test(arguments: ClientStorage.allCases)
  func deleteLinkOfAMissingIDThrowsNotFoundAndDeletesNothing(_ kind: ClientStorage) async throws {
    let harness = try Harness(kind)
    let kept = try await harness.run { client in
      try await client.addLink(LinkDraft(title: "Kept", url: "https://b.com"))
    }
    await #expect(throws: LinkError.notFound(linkID(5))) {
      try await harness.links.deleteLink(linkID(5))
    }
    #expect(try await harness.links.fetchLinks() == [kept])
  }

  // MARK: Comments

  @Test(arguments: ClientStorage.allCases)
  func commentsAreAddedTrimmedAndFetchedOldestFirst(_ kind: ClientStorage) async throws {
    let harness = try Harness(kind)
    let added = try await harness.run { client in
      _ = try await client.addLink(LinkDraft(title: "A", url: "https://a.com"))
      harness.advance(by: 10)
      let first = try await client.addComment(linkID(0), "  first \n")
      let second = try await client.addComment(linkID(0), "second")
      harness.advance(by: 10)
      let third = try await client.addComment(linkID(0), "third")
      return [first, second, third]
    }
    #expect(
      added == [
        Comment(
          id: commentID(1), linkID: linkID(0), text: "first",
          createdAt: Harness.start.addingTimeInterval(10)),
        Comment(
          id: commentID(2), linkID: linkID(0), text: "second",
          createdAt: Harness.start.addingTimeInterval(10)),
        Comment(
          id: commentID(3), linkID: linkID(0), text: "third",
          createdAt: Harness.start.addingTimeInterval(20)),
      ])
    #expect(try await harness.links.fetchComments(linkID(0)) == added)
  }

  @Test(arguments: ClientStorage.allCases)
  func addCommentRejectsBlankTextAndMissingLinks(_ kind: ClientStorage) async throws {
    let harness = try Harness(kind)
    try await harness.run { client in
      _ = try await client.addLink(LinkDraft(title: "A", url: "https://a.com"))
    }
    await #expect(throws: LinkError.emptyComment) {
      try await harness.links.addComment(linkID(0), " \n ")
    }
    await #expect(throws: LinkError.notFound(linkID(8))) {
      try await harness.run { client in try await client.addComment(linkID(8), "hello") }
    }
    #expect(try await harness.links.fetchComments(linkID(0)) == [])
  }

  @Test(arguments: ClientStorage.allCases)
  func updateCommentReplacesTheTextOnly(_ kind: ClientStorage) async throws {
    let harness = try Harness(kind)
    let original = try await harness.run { client in
      _ = try await client.addLink(LinkDraft(title: "A", url: "https://a.com"))
      return try await client.addComment(linkID(0), "draft")
    }
    harness.advance(by: 100)
    let updated = try await harness.links.updateComment(original.id, " final ")
    var expected = original
    expected.text = "final"
    #expect(updated == expected)
    #expect(try await harness.links.fetchComments(linkID(0)) == [expected])
  }

  @Test(arguments: ClientStorage.allCases)
  func updateCommentRejectsBlankTextAndMissingComments(_ kind: ClientStorage) async throws {
    let harness = try Harness(kind)
    let original = try await harness.run { client in
      _ = try await client.addLink(LinkDraft(title: "A", url: "https://a.com"))
      return try await client.addComment(linkID(0), "draft")
    }
    await #expect(throws: LinkError.emptyComment) {
      try await harness.links.updateComment(original.id, "")
    }
    await #expect(throws: LinkError.commentNotFound(commentID(9))) {
      try await harness.links.updateComment(commentID(9), "text")
    }
    #expect(try await harness.links.fetchComments(linkID(0)) == [original])
  }

  @Test(arguments: ClientStorage.allCases)
  func deleteCommentRemovesOnlyThatComment(_ kind: ClientStorage) async throws {
    let harness = try Harness(kind)
    try await harness.run { client in
      _ = try await client.addLink(LinkDraft(title: "A", url: "https://a.com"))
      _ = try await client.addComment(linkID(0), "one")
      _ = try await client.addComment(linkID(0), "two")
      try await client.deleteComment(commentID(1))
    }
    #expect(try await harness.links.fetchComments(linkID(0)).map(\.text) == ["two"])
    await #expect(throws: LinkError.commentNotFound(commentID(1))) {
      try await harness.links.deleteComment(commentID(1))
    }
  }

  // MARK: Every storage

  @Test func everyStorageGivesTheSameAnswersToTheSameStory() async throws {
    func story(_ backend: Backend) async throws -> [String] {
      let harness = try Harness(backend)
      return try await harness.run { client in
        var answers: [String] = []
        func record(_ value: some Encodable) throws {
          let encoder = JSONEncoder()
          encoder.outputFormatting = .sortedKeys
          answers.append(String(decoding: try encoder.encode(value), as: UTF8.self))
        }
        for number in 0..<12 {
          _ = try await client.addLink(
            LinkDraft(
              title: number.isMultiple(of: 3) ? "Swift \(number)" : "Other \(number)",
              url: "https://example.com/\(number)"))
          harness.advance(by: Double(number % 4))
        }
        for number in [3, 1, 4, 1, 5, 9, 2, 6] as [UInt64] {
          harness.advance(by: 2)
          _ = try await client.markViewed(linkID(number))
        }
        _ = try await client.setFavorite(linkID(4), true)
        _ = try await client.addComment(linkID(4), "b")
        _ = try await client.addComment(linkID(4), "a")
        try await client.deleteLink(linkID(2))
        try record(try await client.fetchLinks())
        try record(try await client.searchLinks("SWIFT"))
        try record(try await client.fetchRecentLinks())
        try record(try await client.fetchComments(linkID(4)))
        return answers
      }
    }
    let inMemory = try await story(.inMemory)
    #expect(inMemory.count == 4)
    for backend in Backend.persistent {
      #expect(try await story(backend) == inMemory, "\(backend)")
    }
  }
}
