import Foundation
import LinkClient
import Loop
import Persistence

extension LinkClient: DependencyKey {
  /// The client on the app's database file (`ModelContainer.defaultFilePath()`).
  ///
  /// When the file cannot be opened, every endpoint throws ``LinkError/storageFailed(_:)`` with
  /// the reason; nothing crashes.
  ///
  /// NB: the conformance is this module's, so a program resolves `\.linkClient` to it only when
  /// it links this module (the app's composition imports it); the interface declares the test
  /// value.
  public static var liveValue: LinkClient {
    live(opening: .file(ModelContainer.defaultFilePath()))
  }
}

extension LinkClient {
  /// The model types of the links domain.
  ///
  /// Open the app's one container with them (and other domains' models):
  ///
  /// ```swift
  /// let container = try ModelContainer(for: LinkClient.models, storage: .file(path))
  /// let linkClient = LinkClient.live(context: ModelContext(container))
  /// ```
  public static var models: [any PersistentModel.Type] { [Link.self, Comment.self, Category.self] }

  /// The client over a model context: the one implementation, used on SQLite and in memory.
  ///
  /// The context's container must hold ``models``. Writes that touch several rows (deleting a
  /// link and its comments, adding a link to a category) run in one transaction.
  ///
  /// - Parameter context: The context to read and write.
  /// - Returns: The client.
  public static func live(context: ModelContext) -> LinkClient {
    live(LinkStorage(context: context))
  }

  /// The client over a new container on `storage` (`.inMemory` for real storage gone with the
  /// client: what tests get as TestSupport's `inMemory()`), or a client that throws the reason
  /// when it cannot be opened.
  ///
  /// - Parameter storage: Where the container keeps its data.
  /// - Returns: The client.
  public static func live(opening storage: ModelContainer.Storage) -> LinkClient {
    do {
      return live(context: ModelContext(try ModelContainer(for: models, storage: storage)))
    } catch {
      return failing(LinkError(error))
    }
  }

  /// Every endpoint over the storage.
  private static func live(_ storage: LinkStorage) -> LinkClient {
    let pages = LinkPageReadAhead(
      read: { categoryID, cursor, limit throws(LinkError) in
        try storage.fetchLinkPage(in: categoryID, after: cursor, limit: limit)
      },
      writeCount: { storage.context.container.writeCount })
    var client = LinkClient()
    client.addComment = { try storage.addComment(to: $0, text: $1) }
    client.addLink = { try storage.addLink($0) }
    client.addLinks = { drafts in try await offMainActor { try storage.addLinks(drafts) } }
    client.deleteComment = { try storage.deleteComment(id: $0) }
    client.deleteLink = { try storage.deleteLink(id: $0) }
    client.exportLinks = { try await offMainActor { try storage.exportLinks() } }
    client.fetchComments = { try storage.fetchComments(for: $0) }
    client.fetchIDPrefixLength = { try storage.fetchIDPrefixLength(of: $0) }
    client.fetchIDPrefixLengthOfAll = {
      try await offMainActor { try storage.fetchIDPrefixLengthOfAll() }
    }
    client.fetchLink = { try storage.fetchLink(id: $0) }
    client.fetchLinkPage = { try await pages.page(in: $0, after: $1, limit: $2) }
    client.fetchLinks = { try await offMainActor { try storage.fetchLinks() } }
    client.fetchLinksWithIDPrefix = { try storage.fetchLinks(idPrefix: $0, limit: $1) }
    client.fetchLinksInCategory = { id in
      try await offMainActor { try storage.fetchLinks(in: id) }
    }
    client.fetchRecentLinks = { try storage.fetchRecentLinks(limit: $0) }
    client.importLinks = { links, dryRun, progress in
      try await offMainActor {
        try storage.importLinks(links, dryRun: dryRun, progress: progress)
      }
    }
    client.markViewed = { try storage.markViewed(id: $0) }
    client.restoreLinks = { archive, dryRun, progress in
      try await offMainActor {
        try storage.restoreLinks(archive, dryRun: dryRun, progress: progress)
      }
    }
    client.searchLinks = { query in
      try await offMainActor { try storage.searchLinks(query: query) }
    }
    client.setFavorite = { try storage.setFavorite(id: $0, $1) }
    client.updateComment = { try storage.updateComment(id: $0, text: $1) }
    client.updateLink = { try storage.updateLink(id: $0, $1) }

    return client
  }
}

/// The links domain's logic over a model context; every failure is a `LinkError`.
///
/// Fetches go through the context's generic `fetchAll`/`fetch(_:id:)` helpers; what each
/// endpoint adds is its predicate, its order and its checks.
struct LinkStorage: Sendable {
  let context: ModelContext

  /// Newest first; the id breaks ties so the order never depends on insertion.
  static var newestFirst: [SortDescriptor<Link>] {
    [SortDescriptor(\.createdAt, order: .reverse), SortDescriptor(\.id, order: .reverse)]
  }

  // MARK: Links

  func fetchLinks() throws(LinkError) -> [Link] {
    try LinkError.capturing { try context.fetchAll(Link.self, sortBy: Self.newestFirst) }
  }

  /// A page of links newest first (a category's, if given) after `cursor`, at most `limit`.
  ///
  /// NB: read as two ranges of the `(createdAt, id)` index, the links added at the cursor's
  /// instant with a smaller id, then those added before it, rather than one `OR`: SQLite seeks
  /// straight to each range, where an `OR` makes it walk every link before the cursor, so the
  /// pages of 200,000 links added in one import would cost quadratic time.
  func fetchLinkPage(
    in categoryID: Category.ID?, after cursor: LinkPage.Cursor?, limit: Int
  ) throws(LinkError) -> LinkPage {
    guard limit > 0 else { return LinkPage(links: [], next: cursor) }
    let target: Category.ID? = categoryID
    // NB: one link more than the page, to learn whether another page follows.
    let wanted = limit + 1
    return try LinkError.capturing {
      try context.transaction { context in
        if let categoryID { try checkCategory(categoryID, in: context) }
        func summaries(_ predicate: Predicate<Link>?, limit: Int) throws -> [LinkSummary] {
          var descriptor = FetchDescriptor(predicate: predicate, sortBy: Self.newestFirst)
          descriptor.fetchLimit = limit
          return try context.fetch(descriptor, reading: LinkSummary.init(row:))
        }
        var links: [LinkSummary]
        if let cursor {
          let (date, id) = (cursor.createdAt, cursor.id)
          links = try summaries(
            categoryID == nil
              ? #Predicate { $0.createdAt == date && $0.id < id }
              : #Predicate { $0.categoryID == target && $0.createdAt == date && $0.id < id },
            limit: wanted)
          if links.count < wanted {
            links += try summaries(
              categoryID == nil
                ? #Predicate { $0.createdAt < date }
                : #Predicate { $0.categoryID == target && $0.createdAt < date },
              limit: wanted - links.count)
          }
        } else {
          links = try summaries(
            categoryID == nil ? nil : #Predicate { $0.categoryID == target }, limit: wanted)
        }
        guard links.count > limit else { return LinkPage(links: links, next: nil) }
        links.removeLast(links.count - limit)
        return LinkPage(links: links, next: links.last.map(LinkPage.Cursor.init(after:)))
      }
    }
  }

  /// How many leading hexadecimal digits of `id` no other stored link's id starts with: one
  /// more than it shares with the closer of its two neighbours in id order (at least 1).
  func fetchIDPrefixLength(of id: Link.ID) throws(LinkError) -> Int {
    try LinkError.capturing { try context.fetchIDPrefixLength(of: id) }
  }

  /// How many leading hexadecimal digits tell every stored link's id from every other's (at
  /// least 1): one pass over the id index, whose memory does not grow with the links.
  func fetchIDPrefixLengthOfAll() throws(LinkError) -> Int {
    try LinkError.checkCancellation()
    return try LinkError.capturing { try context.fetchIDPrefixLength(Link.self) }
  }

  func fetchLink(id: Link.ID) throws(LinkError) -> Link {
    try LinkError.capturing { try existingLink(id, in: context) }
  }

  func fetchLinks(in categoryID: Category.ID) throws(LinkError) -> [Link] {
    let target: Category.ID? = categoryID
    return try LinkError.capturing {
      try context.transaction { context in
        try checkCategory(categoryID, in: context)
        return try context.fetchAll(
          Link.self, predicate: #Predicate { $0.categoryID == target }, sortBy: Self.newestFirst)
      }
    }
  }

  func fetchRecentLinks(limit: Int) throws(LinkError) -> [Link] {
    try LinkError.capturing {
      try context.fetchAll(
        Link.self, predicate: #Predicate { $0.lastViewedDate != nil },
        sortBy: [
          SortDescriptor(\.lastViewedDate, order: .reverse), SortDescriptor(\.id, order: .reverse),
        ],
        limit: max(0, limit))
    }
  }

  func searchLinks(query: String) throws(LinkError) -> [Link] {
    let folded = query.trimmingCharacters(in: .whitespacesAndNewlines).caseFolded
    guard !folded.isEmpty else { return try fetchLinks() }
    return try LinkError.capturing {
      try context.fetchAll(
        Link.self, predicate: #Predicate { $0.title.caseFolded.contains(folded) },
        sortBy: Self.newestFirst)
    }
  }

  func addLink(_ draft: LinkDraft) throws(LinkError) -> Link {
    let checked = try draft.checked()
    return try LinkError.capturing {
      try context.transaction { context in
        if let categoryID = draft.categoryID { try checkCategory(categoryID, in: context) }
        @Dependency(\.uuid) var uuid
        @Dependency(\.date) var date
        let link = Link(
          id: Link.ID(uuid()), title: checked.title, url: checked.url,
          categoryID: draft.categoryID, memo: checked.memo, createdAt: date.now)
        try context.insert(link)
        return link
      }
    }
  }

  func fetchLinks(idPrefix prefix: String, limit: Int) throws(LinkError) -> [Link] {
    guard let (lower, upper) = Self.idRange(prefix: prefix), limit > 0 else { return [] }
    return try LinkError.capturing {
      try context.fetchAll(
        Link.self, predicate: #Predicate { $0.id >= lower && $0.id <= upper },
        sortBy: [SortDescriptor(\.id)], limit: limit)
    }
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

  func addLinks(_ drafts: [LinkDraft]) throws(LinkError) -> [Link] {
    let checked = try drafts.map { draft throws(LinkError) in (draft, try draft.checked()) }
    return try LinkError.capturing {
      try context.transaction { context in
        @Dependency(\.uuid) var uuid
        @Dependency(\.date) var date
        let now = date.now
        var knownCategories: Set<Category.ID> = []
        return try checked.map { draft, checked in
          if let categoryID = draft.categoryID, !knownCategories.contains(categoryID) {
            try checkCategory(categoryID, in: context)
            knownCategories.insert(categoryID)
          }
          let link = Link(
            id: Link.ID(uuid()), title: checked.title, url: checked.url,
            categoryID: draft.categoryID, memo: checked.memo, createdAt: now)
          try context.insert(link)
          return link
        }
      }
    }
  }

  func updateLink(id: Link.ID, _ draft: LinkDraft) throws(LinkError) -> Link {
    let checked = try draft.checked()
    return try LinkError.capturing {
      try context.transaction { context in
        var link = try existingLink(id, in: context)
        if let categoryID = draft.categoryID { try checkCategory(categoryID, in: context) }
        link.title = checked.title
        link.url = checked.url
        link.categoryID = draft.categoryID
        link.memo = checked.memo
        try context.update(link)
        return link
      }
    }
  }

  func deleteLink(id: Link.ID) throws(LinkError) {
    try LinkError.capturing {
      try context.transaction { context in
        _ = try existingLink(id, in: context)
        try context.delete(Comment.self, where: #Predicate { $0.linkID == id })
        try context.delete(Link.self, id: id)
      }
    }
  }

  func markViewed(id: Link.ID) throws(LinkError) -> Link {
    try modifyLink(id) { link in
      @Dependency(\.date) var date
      link.lastViewedDate = date.now
    }
  }

  func setFavorite(id: Link.ID, _ isFavorite: Bool) throws(LinkError) -> Link {
    try modifyLink(id) { $0.isFavorite = isFavorite }
  }

  // MARK: Comments

  func fetchComments(for linkID: Link.ID) throws(LinkError) -> [Comment] {
    try LinkError.capturing {
      try context.transaction { context in
        _ = try existingLink(linkID, in: context)
        return try context.fetchAll(
          Comment.self, predicate: #Predicate { $0.linkID == linkID },
          sortBy: [SortDescriptor(\.createdAt), SortDescriptor(\.id)])
      }
    }
  }

  func addComment(to linkID: Link.ID, text: String) throws(LinkError) -> Comment {
    let text = try checkedComment(text)
    return try LinkError.capturing {
      try context.transaction { context in
        _ = try existingLink(linkID, in: context)
        @Dependency(\.uuid) var uuid
        @Dependency(\.date) var date
        let comment = Comment(
          id: Comment.ID(uuid()), linkID: linkID, text: text, createdAt: date.now)
        try context.insert(comment)
        return comment
      }
    }
  }

  func updateComment(id: Comment.ID, text: String) throws(LinkError) -> Comment {
    let text = try checkedComment(text)
    return try LinkError.capturing {
      try context.transaction { context in
        guard var comment = try context.fetch(Comment.self, id: id) else {
          throw LinkError.commentNotFound(id)
        }
        comment.text = text
        try context.update(comment)
        return comment
      }
    }
  }

  func deleteComment(id: Comment.ID) throws(LinkError) {
    try LinkError.capturing {
      try context.transaction { context in
        guard try context.fetch(Comment.self, id: id) != nil else {
          throw LinkError.commentNotFound(id)
        }
        try context.delete(Comment.self, id: id)
      }
    }
  }

  // MARK: Helpers

  private func modifyLink(_ id: Link.ID, _ change: (inout Link) -> Void) throws(LinkError) -> Link {
    try LinkError.capturing {
      try context.transaction { context in
        var link = try existingLink(id, in: context)
        change(&link)
        try context.update(link)
        return link
      }
    }
  }

  private func existingLink(_ id: Link.ID, in context: ModelContext) throws -> Link {
    guard let link = try context.fetch(Link.self, id: id) else { throw LinkError.notFound(id) }
    return link
  }

  private func checkCategory(_ id: Category.ID, in context: ModelContext) throws {
    guard try context.fetch(Category.self, id: id) != nil else {
      throw LinkError.categoryNotFound(id)
    }
  }

  private func checkedComment(_ text: String) throws(LinkError) -> String {
    let text = text.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !text.isEmpty else { throw .emptyComment }
    return text
  }
}

extension LinkSummary {
  /// Reads a summary from a link's stored row: its address as the text stored, not parsed.
  init(row: Row<Link>) throws {
    typealias Paths = SummaryKeyPaths
    self.init(
      id: try row[Paths.id], title: try row[Paths.title],
      address: try row[Paths.url, as: String.self],
      // NB: the category's id read as the UUID stored, which skips making an array of its bytes.
      categoryID: try row[Paths.categoryID, as: UUID?.self].map { Category.ID(rawValue: $0) },
      isFavorite: try row[Paths.isFavorite],
      createdAt: try row[Paths.createdAt])
  }
}

/// The key paths of the columns a summary reads, made once.
///
/// NB: a key path literal is looked up in the run time (`swift_getKeyPath`) each time it is
/// evaluated: written in `init(row:)`, six lookups for each of a listing's 200,000 rows.
private enum SummaryKeyPaths {
  static let id: KeyPath<Link, Link.ID> & Sendable = \.id
  static let title: KeyPath<Link, String> & Sendable = \.title
  static let url: KeyPath<Link, URL> & Sendable = \.url
  static let categoryID: KeyPath<Link, Category.ID?> & Sendable = \.categoryID
  static let isFavorite: KeyPath<Link, Bool> & Sendable = \.isFavorite
  static let createdAt: KeyPath<Link, Date> & Sendable = \.createdAt
}
