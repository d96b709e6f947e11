import Foundation
import Loop

/// What a storage of links, their comments and the categories must do: the queries and
/// contracts every endpoint of ``LinkClient`` (and of `CategoryClient`) is written on, and
/// transactions.
///
/// A row is inserted (failing on an existing id) or updated (failing on a missing one), never
/// upserted. Lists come in the order each requirement names, with the id as the last tie-breaker,
/// so that no order depends on insertion. Each requirement throws only a ``LinkError``, and a
/// failed one changes nothing.
///
/// ``LinkClient/init(storage:)`` builds every endpoint on these requirements, so the rules of the
/// endpoints are written once: `LinkClientLive` keeps the rows in a `ModelContext`, and
/// ``InMemoryLinkStorage`` in memory, and both pass the same tests. One storage serves the link
/// client and the category client together, as one database does in the app.
public protocol LinkStorage: Sendable {
  /// Runs `body` as one transaction: its writes stay together when it returns (unless
  /// `rollingBack`, for a dry run), and none of them stays when it throws.
  func transaction<R>(
    rollingBack: Bool, _ body: () throws(LinkError) -> R
  ) throws(LinkError) -> R

  // MARK: Links

  /// Stores a new link; ``LinkError/storageFailed(_:)`` when a link has its id.
  func insert(_ link: Link) throws(LinkError)

  /// Replaces the stored link with the link's id; ``LinkError/notFound(_:)`` when there is none.
  func update(_ link: Link) throws(LinkError)

  /// Deletes the link with an id, not its comments; ``LinkError/notFound(_:)`` when there is
  /// none.
  func deleteLink(id: Link.ID) throws(LinkError)

  /// The link with an id, or `nil`.
  func fetchLink(id: Link.ID) throws(LinkError) -> Link?

  /// Every link, or a category's, newest first: by `createdAt`, then by id, both largest first.
  func fetchLinks(in categoryID: Category.ID?) throws(LinkError) -> [Link]

  /// Every link in no particular order, for an import's checks.
  func fetchEveryLink() throws(LinkError) -> [Link]

  /// At most `limit` links, or a category's, newest first (as ``fetchLinks(in:)``), after
  /// `cursor` when given.
  func fetchLinkSummaries(
    in categoryID: Category.ID?, after cursor: LinkPage.Cursor?, limit: Int
  ) throws(LinkError) -> [LinkSummary]

  /// At most `limit` links that were viewed: by when, then by id, both largest first.
  func fetchRecentLinks(limit: Int) throws(LinkError) -> [Link]

  /// The links whose folded title (Persistence's `caseFolded`) contains `folded`, newest first.
  func fetchLinks(titleContaining folded: String) throws(LinkError) -> [Link]

  /// At most `limit` links whose ids lie from `lower` through `upper`, by id, smallest first.
  func fetchLinks(idsFrom lower: Link.ID, through upper: Link.ID, limit: Int) throws(LinkError)
    -> [Link]

  /// How many leading hexadecimal digits of `id` no other stored link's id starts with: one
  /// more than it shares with the closer of its two neighbours in id order (at least 1).
  func fetchIDPrefixLength(of id: Link.ID) throws(LinkError) -> Int

  /// How many leading hexadecimal digits tell every stored link's id from every other's (at
  /// least 1).
  func fetchIDPrefixLengthOfAll() throws(LinkError) -> Int

  /// How many links are in a category.
  func countLinks(in categoryID: Category.ID) throws(LinkError) -> Int

  // MARK: Comments

  /// Stores a new comment; ``LinkError/storageFailed(_:)`` when a comment has its id.
  func insert(_ comment: Comment) throws(LinkError)

  /// Replaces the stored comment with the comment's id; ``LinkError/commentNotFound(_:)`` when
  /// there is none.
  func update(_ comment: Comment) throws(LinkError)

  /// Deletes the comment with an id; ``LinkError/commentNotFound(_:)`` when there is none.
  func deleteComment(id: Comment.ID) throws(LinkError)

  /// Deletes every comment on a link; none is fine.
  func deleteComments(on linkID: Link.ID) throws(LinkError)

  /// The comment with an id, or `nil`.
  func fetchComment(id: Comment.ID) throws(LinkError) -> Comment?

  /// The comments on a link, oldest first: by `createdAt`, then by id.
  func fetchComments(on linkID: Link.ID) throws(LinkError) -> [Comment]

  // MARK: Categories

  /// Stores a new category; ``LinkError/duplicateCategoryName(_:)`` when another has its name,
  /// ignoring case, and ``LinkError/storageFailed(_:)`` when one has its id.
  func insert(_ category: Category) throws(LinkError)

  /// Replaces the stored category with the category's id; ``LinkError/categoryNotFound(_:)``
  /// when there is none, ``LinkError/duplicateCategoryName(_:)`` when another has its name.
  func update(_ category: Category) throws(LinkError)

  /// Deletes the category with an id, not its links; ``LinkError/categoryNotFound(_:)`` when
  /// there is none.
  func deleteCategory(id: Category.ID) throws(LinkError)

  /// The category with an id, or `nil`.
  func fetchCategory(id: Category.ID) throws(LinkError) -> Category?

  /// The category whose folded name is `folded`, or `nil`.
  func fetchCategory(foldedName folded: String) throws(LinkError) -> Category?

  /// Every category by folded name (unique, so without ties).
  func fetchCategories() throws(LinkError) -> [Category]

  // MARK: Archives

  /// Every category, link and comment, each kind oldest first: by `createdAt`, then by id.
  func fetchArchive() throws(LinkError) -> LinkArchive
}

extension LinkClient {
  /// The client whose every endpoint follows its rules on `storage`, one transaction each.
  ///
  /// The endpoints whose work grows with the data (the lists, ``exportLinks``,
  /// ``importLinks``, ``restoreLinks``, ``searchLinks``, ``addLinks``) run off the caller's
  /// actor.
  public init(storage: some LinkStorage) {
    self.init()
    addComment = { try storage.addComment(to: $0, text: $1) }
    addLink = { try storage.addLink($0) }
    addLinks = { drafts in try await offMainActor { try storage.addLinks(drafts) } }
    deleteComment = { try storage.deleteComment(id: $0) }
    deleteLink = { try storage.deleteLinkAndComments(id: $0) }
    exportLinks = { try await offMainActor { try storage.fetchArchive() } }
    fetchComments = { try storage.fetchComments(onExisting: $0) }
    fetchIDPrefixLength = { try storage.fetchIDPrefixLength(of: $0) }
    fetchIDPrefixLengthOfAll = {
      try await offMainActor { () throws(LinkError) in
        try LinkError.checkCancellation()
        return try storage.fetchIDPrefixLengthOfAll()
      }
    }
    fetchLink = { try storage.existingLink($0) }
    fetchLinkPage = { categoryID, cursor, limit in
      try await offMainActor {
        try storage.fetchLinkPage(in: categoryID, after: cursor, limit: limit)
      }
    }
    fetchLinks = { try await offMainActor { try storage.fetchLinks(in: nil) } }
    fetchLinksWithIDPrefix = { try storage.fetchLinks(idPrefix: $0, limit: $1) }
    fetchLinksInCategory = { id in
      try await offMainActor { try storage.fetchLinks(inExisting: id) }
    }
    fetchRecentLinks = { try storage.fetchRecentLinks(limit: max(0, $0)) }
    importLinks = { links, dryRun, progress in
      try await offMainActor {
        try storage.importLinks(links, dryRun: dryRun, progress: progress)
      }
    }
    markViewed = { id in
      @Dependency(\.date) var date
      let now = date.now
      return try storage.modifyLink(id) { $0.lastViewedDate = now }
    }
    restoreLinks = { archive, dryRun, progress in
      try await offMainActor {
        try storage.restoreLinks(archive, dryRun: dryRun, progress: progress)
      }
    }
    searchLinks = { query in
      try await offMainActor { try storage.searchLinks(query: query) }
    }
    setFavorite = { id, isFavorite in try storage.modifyLink(id) { $0.isFavorite = isFavorite } }
    updateComment = { try storage.updateComment(id: $0, text: $1) }
    updateLink = { try storage.updateLink(id: $0, $1) }
  }
}

// MARK: - The rules, on the contracts

extension LinkStorage {
  /// A page of links newest first (a category's, if given) after `cursor`, at most `limit`.
  package func fetchLinkPage(
    in categoryID: Category.ID?, after cursor: LinkPage.Cursor?, limit: Int
  ) throws(LinkError) -> LinkPage {
    guard limit > 0 else { return LinkPage(links: [], next: cursor) }
    return try transaction { () throws(LinkError) in
      if let categoryID { try checkCategory(categoryID) }
      // NB: one link more than the page, to learn whether another page follows.
      var links = try fetchLinkSummaries(in: categoryID, after: cursor, limit: limit + 1)
      guard links.count > limit else { return LinkPage(links: links, next: nil) }
      links.removeLast(links.count - limit)
      return LinkPage(links: links, next: links.last.map(LinkPage.Cursor.init(after:)))
    }
  }

  func fetchLinks(inExisting categoryID: Category.ID) throws(LinkError) -> [Link] {
    try transaction { () throws(LinkError) in
      try checkCategory(categoryID)
      return try fetchLinks(in: categoryID)
    }
  }

  func searchLinks(query: String) throws(LinkError) -> [Link] {
    let folded = query.trimmedOfWhitespace.foldedForSearch
    guard !folded.isEmpty else { return try fetchLinks(in: nil) }
    return try fetchLinks(titleContaining: folded)
  }

  func fetchLinks(idPrefix prefix: String, limit: Int) throws(LinkError) -> [Link] {
    guard let (lower, upper) = Self.idRange(prefix: prefix), limit > 0 else { return [] }
    return try fetchLinks(idsFrom: lower, through: upper, limit: limit)
  }

  /// The smallest and largest ids that start with `prefix` (hexadecimal digits, dashes
  /// ignored), or `nil` when it is not such a prefix.
  ///
  /// NB: ids are stored as the UUID's bytes, which sort as their hexadecimal digits do, so the
  /// ids with a prefix are one range of the id index: no link outside it is read.
  static func idRange(prefix: String) -> (Link.ID, Link.ID)? {
    // NB: built from the digits' values: formatting and parsing UUID strings cost more than the
    // lookup itself.
    var digits: [UInt8] = []
    for byte in prefix.utf8 where byte != UInt8(ascii: "-") {
      guard digits.count < 32, let digit = hexValue(of: byte) else { return nil }
      digits.append(digit)
    }
    func id(padding: UInt8) -> Link.ID {
      var bytes = [UInt8](repeating: 0, count: 16)
      for position in 0..<32 {
        let digit = position < digits.count ? digits[position] : padding
        bytes[position / 2] |= position.isMultiple(of: 2) ? digit << 4 : digit
      }
      return Link.ID(
        UUID(
          uuid: (
            bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
            bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
          )))
    }
    return (id(padding: 0), id(padding: 0xF))
  }

  /// The value of an ASCII hexadecimal digit, in either case, or `nil`.
  private static func hexValue(of byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }

  func addLink(_ draft: LinkDraft) throws(LinkError) -> Link {
    try addLinks([draft])[0]
  }

  func addLinks(_ drafts: [LinkDraft]) throws(LinkError) -> [Link] {
    let checked = try drafts.map { draft throws(LinkError) in (draft, try draft.checked()) }
    return try transaction { () throws(LinkError) in
      @Dependency(\.uuid) var uuid
      @Dependency(\.date) var date
      // NB: the links share one date, read after the first id is drawn: a recorded session
      // replays its readings in order, and `link add` has always read the id first.
      var now: Date?
      var knownCategories: Set<Category.ID> = []
      return try checked.map { draft, checked throws(LinkError) in
        if let categoryID = draft.categoryID, !knownCategories.contains(categoryID) {
          try checkCategory(categoryID)
          knownCategories.insert(categoryID)
        }
        let id = Link.ID(uuid())
        let createdAt = now ?? date.now
        now = createdAt
        let link = Link(id: id, draft, checked, createdAt: createdAt)
        try insert(link)
        return link
      }
    }
  }

  func updateLink(id: Link.ID, _ draft: LinkDraft) throws(LinkError) -> Link {
    let checked = try draft.checked()
    return try transaction { () throws(LinkError) in
      var link = try existingLink(id)
      if let categoryID = draft.categoryID { try checkCategory(categoryID) }
      link.title = checked.title
      link.url = checked.url
      link.categoryID = draft.categoryID
      link.memo = checked.memo
      try update(link)
      return link
    }
  }

  func deleteLinkAndComments(id: Link.ID) throws(LinkError) {
    try transaction { () throws(LinkError) in
      _ = try existingLink(id)
      try deleteComments(on: id)
      try deleteLink(id: id)
    }
  }

  func modifyLink(_ id: Link.ID, _ change: (inout Link) -> Void) throws(LinkError) -> Link {
    try transaction { () throws(LinkError) in
      var link = try existingLink(id)
      change(&link)
      try update(link)
      return link
    }
  }

  // MARK: Comments

  func fetchComments(onExisting linkID: Link.ID) throws(LinkError) -> [Comment] {
    try transaction { () throws(LinkError) in
      _ = try existingLink(linkID)
      return try fetchComments(on: linkID)
    }
  }

  func addComment(to linkID: Link.ID, text: String) throws(LinkError) -> Comment {
    let text = try checkedComment(text)
    return try transaction { () throws(LinkError) in
      _ = try existingLink(linkID)
      @Dependency(\.uuid) var uuid
      @Dependency(\.date) var date
      let comment = Comment(id: Comment.ID(uuid()), linkID: linkID, text: text, createdAt: date.now)
      try insert(comment)
      return comment
    }
  }

  func updateComment(id: Comment.ID, text: String) throws(LinkError) -> Comment {
    let text = try checkedComment(text)
    return try transaction { () throws(LinkError) in
      guard var comment = try fetchComment(id: id) else { throw .commentNotFound(id) }
      comment.text = text
      try update(comment)
      return comment
    }
  }

  // MARK: Helpers

  /// Runs `body` as one transaction that keeps its writes.
  package func transaction<R>(_ body: () throws(LinkError) -> R) throws(LinkError) -> R {
    try transaction(rollingBack: false, body)
  }

  /// The link with an id; ``LinkError/notFound(_:)`` when there is none.
  func existingLink(_ id: Link.ID) throws(LinkError) -> Link {
    guard let link = try fetchLink(id: id) else { throw .notFound(id) }
    return link
  }

  /// Throws ``LinkError/categoryNotFound(_:)`` when no category has the id.
  package func checkCategory(_ id: Category.ID) throws(LinkError) {
    guard try fetchCategory(id: id) != nil else { throw .categoryNotFound(id) }
  }

  private func checkedComment(_ text: String) throws(LinkError) -> String {
    let text = text.trimmedOfWhitespace
    guard !text.isEmpty else { throw .emptyComment }
    return text
  }
}

extension Link {
  /// A new link made of a draft's checked values.
  fileprivate init(id: ID, _ draft: LinkDraft, _ checked: LinkDraft.Checked, createdAt: Date) {
    self.init(
      id: id, title: checked.title, url: checked.url, categoryID: draft.categoryID,
      memo: checked.memo, createdAt: createdAt)
  }
}
