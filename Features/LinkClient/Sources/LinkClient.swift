import Foundation
import Loop

/// The links domain's dependency: links and their comments, read and written through named,
/// documented endpoints.
///
/// ```swift
/// @Dependency(\.linkClient) var linkClient
/// let link = try await linkClient.addLink(LinkDraft(title: "Swift", url: "https://swift.org"))
/// let recent = try await linkClient.fetchRecentLinks()
/// ```
///
/// Every endpoint throws only ``LinkError``, never returns silently on a failure, and changes
/// nothing when it throws. Every list has a defined order with the id as the last tie-breaker.
/// New ids and dates come from the `uuid` and `date` dependencies of the calling task.
///
/// This module is the interface, on Loop alone. The rules of every endpoint are written once,
/// on any ``LinkStorage`` (``init(storage:)``): `LinkClientLive`'s `live(context:)` stores over
/// a `ModelContext` (the app's value, on its SQLite file), and ``inMemory()`` on an
/// ``InMemoryLinkStorage`` (the tests' and previews', without a database). ``testValue`` fails
/// the test on any endpoint a test did not override.
///
/// An endpoint runs on its caller's actor (the main actor, in the app's effects), which suits
/// a quick lookup or write. The endpoints whose work grows with the data (the imports and
/// the export, every whole list, a page, ``fetchIDPrefixLengthOfAll``, ``addLinks``) run it off
/// the caller's actor, so the app keeps drawing and
/// answering the keyboard meanwhile.
public struct LinkClient: Sendable {
  /// Adds a comment to a link, with an id from the `uuid` dependency and the `date`
  /// dependency's now.
  ///
  /// Throws ``LinkError/emptyComment`` for blank text, ``LinkError/notFound(_:)`` for a missing
  /// link. The text is trimmed. Returns the stored comment.
  public var addComment:
    nonisolated(nonsending) @Sendable (_ linkID: Link.ID, _ text: String) async throws -> Comment =
      unimplemented("LinkClient.addComment")

  /// Adds a link from a draft, with an id from the `uuid` dependency and the `date`
  /// dependency's now as `createdAt`; it is not a favorite and has never been viewed.
  ///
  /// Throws what ``LinkDraft`` checks (``LinkError/emptyTitle``, ``LinkError/invalidURL(_:)``,
  /// ``LinkError/categoryNotFound(_:)``). Returns the stored link.
  public var addLink: nonisolated(nonsending) @Sendable (_ draft: LinkDraft) async throws -> Link =
    unimplemented("LinkClient.addLink")

  /// Adds links from drafts in one transaction: all of them, or none when one fails.
  ///
  /// Each link is made as ``addLink`` makes it (ids from the `uuid` dependency, in the drafts'
  /// order, and the `date` dependency's now). Throws what ``addLink`` throws for the first
  /// draft that fails; nothing is stored then. Returns the stored links, in the drafts' order.
  public var addLinks:
    nonisolated(nonsending) @Sendable (_ drafts: [LinkDraft]) async throws -> [Link] =
      unimplemented("LinkClient.addLinks")

  /// Deletes a comment.
  ///
  /// Throws ``LinkError/commentNotFound(_:)`` when it does not exist.
  public var deleteComment:
    nonisolated(nonsending) @Sendable (_ id: Comment.ID) async throws -> Void =
      unimplemented("LinkClient.deleteComment")

  /// Deletes a link and all of its comments, in one transaction.
  ///
  /// Throws ``LinkError/notFound(_:)`` when the link does not exist.
  public var deleteLink: nonisolated(nonsending) @Sendable (_ id: Link.ID) async throws -> Void =
    unimplemented("LinkClient.deleteLink")

  /// Everything the links domain stores: every category, link and comment, each list ordered by
  /// `createdAt`, then id (see ``LinkArchive``), read in one transaction.
  public var exportLinks: nonisolated(nonsending) @Sendable () async throws -> LinkArchive =
    unimplemented("LinkClient.exportLinks")

  /// A link's comments, oldest first (ties by id).
  ///
  /// Throws ``LinkError/notFound(_:)`` for a missing link.
  public var fetchComments:
    nonisolated(nonsending) @Sendable (_ linkID: Link.ID) async throws -> [Comment] =
      unimplemented("LinkClient.fetchComments")

  /// How many leading hexadecimal digits of a link's id no other stored link's id starts with
  /// (at least 1): the shortest prefix that names it alone, found from its two neighbours in id
  /// order.
  ///
  /// The link need not be stored: for an id that is not, it is the prefix that would name it
  /// alone.
  public var fetchIDPrefixLength:
    nonisolated(nonsending) @Sendable (_ id: Link.ID) async throws -> Int =
      unimplemented("LinkClient.fetchIDPrefixLength")

  /// How many leading hexadecimal digits tell every stored link's id from every other's (at
  /// least 1): the largest ``fetchIDPrefixLength`` of them.
  ///
  /// It reads every id, in one pass over the id index (its memory does not grow with the
  /// links), off the caller's actor.
  public var fetchIDPrefixLengthOfAll: nonisolated(nonsending) @Sendable () async throws -> Int =
    unimplemented("LinkClient.fetchIDPrefixLengthOfAll")

  /// The link with an id.
  ///
  /// Throws ``LinkError/notFound(_:)`` when there is none.
  public var fetchLink: nonisolated(nonsending) @Sendable (_ id: Link.ID) async throws -> Link =
    unimplemented("LinkClient.fetchLink")

  /// A page of links, newest first (``fetchLinks``'s order): at most `limit` links after
  /// `cursor` (from the newest when `nil`), only a category's when `categoryID` is given.
  ///
  /// The page's ``LinkPage/next`` is where the next page starts, `nil` after the last. It reads
  /// only the page's links, from the `(createdAt, id)` index, off the caller's actor. Throws
  /// ``LinkError/categoryNotFound(_:)`` for a missing category. A `limit` below 1 reads nothing
  /// and keeps the cursor. The live client reads the page after a page asked for with a cursor
  /// ahead, while the caller shows that one, and answers from it only when it is the page asked
  /// for next and nothing was written since: a list paged to its end waits less, and an answer
  /// is always what a read at that moment gives.
  public var fetchLinkPage:
    nonisolated(nonsending) @Sendable (
      _ categoryID: Category.ID?, _ cursor: LinkPage.Cursor?, _ limit: Int
    ) async throws -> LinkPage =
      unimplemented("LinkClient.fetchLinkPage")

  /// Every link, newest first (by `createdAt` descending, ties by id descending).
  public var fetchLinks: nonisolated(nonsending) @Sendable () async throws -> [Link] =
    unimplemented("LinkClient.fetchLinks")

  /// The links whose id starts with a prefix, by id ascending, at most `limit` of them.
  ///
  /// An id is read as its UUID's 32 hexadecimal digits without dashes; the prefix is matched in
  /// any letter case, its dashes ignored, so `"9f3a"` finds `9F3A2C…`. A prefix of anything but
  /// hexadecimal digits (or longer than 32 of them) matches no link. It reads only the matching
  /// links, however many are stored: it is how a short ref typed by the user is resolved.
  public var fetchLinksWithIDPrefix:
    nonisolated(nonsending) @Sendable (_ prefix: String, _ limit: Int) async throws -> [Link] =
      unimplemented("LinkClient.fetchLinksWithIDPrefix")

  /// The links of a category, newest first.
  ///
  /// The order is ``fetchLinks``'s. Throws ``LinkError/categoryNotFound(_:)`` for a missing
  /// category.
  public var fetchLinksInCategory:
    nonisolated(nonsending) @Sendable (_ categoryID: Category.ID) async throws -> [Link] =
      unimplemented("LinkClient.fetchLinksInCategory")

  /// The links viewed most recently, at most `limit` of them.
  ///
  /// Ordered by `lastViewedDate` descending, ties by id descending; links never viewed are left
  /// out. A negative `limit` is `0`.
  public var fetchRecentLinks:
    nonisolated(nonsending) @Sendable (_ limit: Int) async throws -> [Link] =
      unimplemented("LinkClient.fetchRecentLinks")

  /// Adds links read from a file, in one transaction: all of them are saved, or none.
  ///
  /// Each link is checked as ``addLink`` checks a draft (a blank title becomes the address) and
  /// left out, with its line, when invalid. A link whose address is saved already, or comes
  /// earlier in the same import, is skipped as a duplicate. Its category is found by name,
  /// ignoring case, or created. New ids come from the `uuid` dependency, and the `date`
  /// dependency's now is the `createdAt` of links that have none (and of new categories).
  ///
  /// With `dryRun`, the import runs in full and is then rolled back: the summary says exactly
  /// what it would do, and nothing is written. `progress` is called, on the importing task,
  /// after every ``importBatchSize`` links stored and after the last, with how many were
  /// processed (the links left out count as processed from the start). The links are stored in
  /// the order of their ids. Throws ``LinkError/storageFailed(_:)`` (nothing is written then).
  public var importLinks:
    nonisolated(nonsending) @Sendable (
      _ links: [ImportedLink], _ dryRun: Bool, _ progress: @escaping @Sendable (Int) -> Void
    ) async throws -> LinkImportSummary =
      unimplemented("LinkClient.importLinks")

  /// Records that a link was viewed now.
  ///
  /// "Now" is the `date` dependency's. Throws ``LinkError/notFound(_:)``. Returns the updated
  /// link.
  public var markViewed: nonisolated(nonsending) @Sendable (_ id: Link.ID) async throws -> Link =
    unimplemented("LinkClient.markViewed")

  /// Stores an archive's categories, links and comments with their own ids and dates, in one
  /// transaction: into an empty database, ``exportLinks`` then returns the same archive.
  ///
  /// The archive is checked first, and ``LinkError/invalidArchive(_:)`` names the first problem
  /// (nothing is written). Into a database that has links, it merges: a category whose id or
  /// name (ignoring case) is stored is reused, a link whose id or address is stored is skipped
  /// as a duplicate, and so are comments already stored or whose link was skipped.
  ///
  /// `dryRun` and `progress` work as for ``importLinks``; progress counts the archive's entries
  /// (categories, then links, then comments).
  public var restoreLinks:
    nonisolated(nonsending) @Sendable (
      _ archive: LinkArchive, _ dryRun: Bool, _ progress: @escaping @Sendable (Int) -> Void
    ) async throws -> LinkImportSummary =
      unimplemented("LinkClient.restoreLinks")

  /// The links whose title contains the query, ignoring case, newest first.
  ///
  /// Case is ignored by Unicode case folding (`straße` matches `STRASSE`); the order is
  /// ``fetchLinks``'s. The query is trimmed; a blank query matches every link.
  public var searchLinks:
    nonisolated(nonsending) @Sendable (_ query: String) async throws -> [Link] =
      unimplemented("LinkClient.searchLinks")

  /// Marks a link as a favorite or not.
  ///
  /// Throws ``LinkError/notFound(_:)``. Returns the updated link.
  public var setFavorite:
    nonisolated(nonsending) @Sendable (_ id: Link.ID, _ isFavorite: Bool) async throws -> Link =
      unimplemented("LinkClient.setFavorite")

  /// Replaces a comment's text.
  ///
  /// The text is trimmed. Throws ``LinkError/emptyComment`` for blank text and
  /// ``LinkError/commentNotFound(_:)``. Returns the updated comment.
  public var updateComment:
    nonisolated(nonsending) @Sendable (_ id: Comment.ID, _ text: String) async throws -> Comment =
      unimplemented("LinkClient.updateComment")

  /// Replaces a link's title, address, category and memo with a draft's, keeping its id,
  /// `createdAt`, favorite flag and `lastViewedDate`.
  ///
  /// Throws ``LinkError/notFound(_:)`` and what ``LinkDraft`` checks. Returns the updated link.
  public var updateLink:
    nonisolated(nonsending) @Sendable (_ id: Link.ID, _ draft: LinkDraft) async throws -> Link =
      unimplemented("LinkClient.updateLink")

  /// A client whose every endpoint reports an issue and throws (the test value): the live
  /// module sets each endpoint on it, and a test the ones it uses.
  public init() {}
}

extension LinkClient {
  /// How many links ``fetchRecentLinks(limit:)`` returns unless told otherwise.
  public static let recentLinksLimit = 6

  /// How many links ``importLinks`` writes between two calls of its `progress`.
  public static let importBatchSize = 1_000

  /// The links viewed most recently, at most `limit` (6 unless told); see ``fetchRecentLinks``.
  public nonisolated(nonsending) func fetchRecentLinks(limit: Int = recentLinksLimit) async throws
    -> [Link]
  {
    try await fetchRecentLinks(limit)
  }

  /// Adds links read from a file, for real and without progress unless told; see
  /// ``importLinks``.
  public nonisolated(nonsending) func importLinks(
    _ links: [ImportedLink], dryRun: Bool = false,
    progress: @escaping @Sendable (Int) -> Void = { _ in }
  ) async throws -> LinkImportSummary {
    try await importLinks(links, dryRun, progress)
  }

  /// Stores an archive, for real and without progress unless told; see ``restoreLinks``.
  public nonisolated(nonsending) func restoreLinks(
    _ archive: LinkArchive, dryRun: Bool = false,
    progress: @escaping @Sendable (Int) -> Void = { _ in }
  ) async throws -> LinkImportSummary {
    try await restoreLinks(archive, dryRun, progress)
  }
}

// MARK: - Dependency

extension LinkClient: TestDependencyKey {
  /// A client whose every endpoint fails the test that calls it without overriding it; a test
  /// sets the endpoints it uses (`$0.linkClient.fetchLinks = { … }`).
  ///
  /// NB: every endpoint defaults to `unimplemented`, so the list of endpoints is written once,
  /// above; ``init(storage:)`` sets each on ``init()``, and the live module declares the live
  /// value (its conformance to `DependencyKey`).
  public static var testValue: LinkClient { LinkClient() }
}

extension LinkClient {
  /// A client whose every endpoint throws `error`: what the live value is when the database
  /// cannot be opened, and what a test uses to show a failure.
  ///
  /// - Parameter error: The error every endpoint throws.
  /// - Returns: The client.
  public static func failing(_ error: LinkError) -> LinkClient {
    var client = LinkClient()
    client.addComment = { _, _ in throw error }
    client.addLink = { _ in throw error }
    client.addLinks = { _ in throw error }
    client.deleteComment = { _ in throw error }
    client.deleteLink = { _ in throw error }
    client.exportLinks = { throw error }
    client.fetchComments = { _ in throw error }
    client.fetchIDPrefixLength = { _ in throw error }
    client.fetchIDPrefixLengthOfAll = { throw error }
    client.fetchLink = { _ in throw error }
    client.fetchLinkPage = { _, _, _ in throw error }
    client.fetchLinks = { throw error }
    client.fetchLinksWithIDPrefix = { _, _ in throw error }
    client.fetchLinksInCategory = { _ in throw error }
    client.fetchRecentLinks = { _ in throw error }
    client.importLinks = { _, _, _ in throw error }
    client.markViewed = { _ in throw error }
    client.restoreLinks = { _, _, _ in throw error }
    client.searchLinks = { _ in throw error }
    client.setFavorite = { _, _ in throw error }
    client.updateComment = { _, _ in throw error }
    client.updateLink = { _, _ in throw error }
    return client
  }
}

extension DependencyValues {
  /// The links domain's client: links and their comments.
  public var linkClient: LinkClient {
    get { self[LinkClient.self] }
    set { self[LinkClient.self] = newValue }
  }
}
