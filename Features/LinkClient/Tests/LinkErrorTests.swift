import Foundation
import LinkClient
import LinkClientLive
import Loop
import Persistence
import TestSupport
import Testing

import struct LinkClient.Comment

@Suite struct LinkErrorTests {
  static let messages: [(LinkError, String)] = [
    (
      .notFound(Link.ID(UUID(counting: 1))),
      "No link with id '00000000-0000-0000-0000-000000000001' exists."
    ),
    (
      .commentNotFound(Comment.ID(UUID(counting: 2))),
      "No comment with id '00000000-0000-0000-0000-000000000002' exists."
    ),
    (
      .categoryNotFound(Category.ID(UUID(counting: 3))),
      "No category with id '00000000-0000-0000-0000-000000000003' exists."
    ),
    (.emptyTitle, "A link needs a title."),
    (
      .invalidURL("swift.org"),
      "'swift.org' is not a web address: enter an absolute http or https URL, such as "
        + "'https://example.com'."
    ),
    (.emptyComment, "A comment cannot be empty."),
    (.emptyCategoryName, "A category needs a name."),
    (.duplicateCategoryName("Work"), "A category named 'Work' already exists."),
    (.storageFailed("Disk full."), "The links could not be read or saved: Disk full."),
  ]

  @Test(arguments: messages)
  func messagesAreSentencesForTheUser(_ error: LinkError, _ message: String) {
    #expect(error.description == message)
    #expect(error.errorDescription == message)
    #expect(error.localizedDescription == message)
  }

  @Test func anyErrorBecomesALinkError() {
    struct Other: Error, CustomStringConvertible {
      var description: String { "Something else." }
    }
    #expect(LinkError(LinkError.emptyTitle) == .emptyTitle)
    #expect(
      LinkError(PersistenceError.notADatabase(path: "/tmp/x"))
        == .storageFailed("'/tmp/x' is not an SQLite database."))
    #expect(LinkError(Other()) == .storageFailed("Something else."))
  }

  @Test func aFailingClientThrowsItsErrorFromEveryEndpoint() async {
    let client = LinkClient.failing(.storageFailed("Closed."))
    let id = Link.ID(UUID(counting: 1))
    let draft = LinkDraft(title: "A", url: "https://a.com")
    let calls: [@Sendable () async throws -> Void] = [
      { _ = try await client.addComment(id, "x") },
      { _ = try await client.addLink(draft) },
      { try await client.deleteComment(Comment.ID(UUID(counting: 1))) },
      { try await client.deleteLink(id) },
      { _ = try await client.fetchComments(id) },
      { _ = try await client.fetchLink(id) },
      { _ = try await client.fetchLinks() },
      { _ = try await client.fetchLinksInCategory(Category.ID(UUID(counting: 1))) },
      { _ = try await client.fetchRecentLinks() },
      { _ = try await client.markViewed(id) },
      { _ = try await client.searchLinks("a") },
      { _ = try await client.setFavorite(id, true) },
      { _ = try await client.updateComment(Comment.ID(UUID(counting: 1)), "x") },
      { _ = try await client.updateLink(id, draft) },
    ]
    for call in calls {
      await #expect(throws: LinkError.storageFailed("Closed.")) { try await call() }
    }
  }
}
