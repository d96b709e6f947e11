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

  /// The client over a model context: the rules of ``LinkClient/init(storage:)`` on the
  /// context's rows, with each page of links read ahead while the caller shows the one before.
  ///
  /// The context's container must hold ``models``. Writes that touch several rows (deleting a
  /// link and its comments, adding a link to a category) run in one transaction.
  ///
  /// - Parameter context: The context to read and write.
  /// - Returns: The client.
  public static func live(context: ModelContext) -> LinkClient {
    let storage = ContextLinkStorage(context: context)
    let pages = LinkPageReadAhead(
      read: { categoryID, cursor, limit throws(LinkError) in
        try storage.fetchLinkPage(in: categoryID, after: cursor, limit: limit)
      },
      writeCount: { context.container.writeCount })
    var client = LinkClient(storage: storage)
    client.fetchLinkPage = { try await pages.page(in: $0, after: $1, limit: $2) }
    return client
  }

  /// The client over a new container on `storage`, or a client that throws the reason when it
  /// cannot be opened.
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
}

/// The storage contracts of ``LinkStorage`` over a model context: each requirement is one query
/// or write, and Persistence's failures become ``LinkError``s.
package struct ContextLinkStorage: LinkStorage {
  let context: ModelContext

  /// The storage over `context`, whose container holds ``LinkClient/models``.
  package init(context: ModelContext) {
    self.context = context
  }

  /// Newest first; the id breaks ties so the order never depends on insertion.
  static var newestFirst: [SortDescriptor<Link>] {
    [SortDescriptor(\.createdAt, order: .reverse), SortDescriptor(\.id, order: .reverse)]
  }

  package func transaction<R>(
    rollingBack: Bool, _ body: () throws(LinkError) -> R
  ) throws(LinkError) -> R {
    try LinkError.capturing {
      try context.transaction(rollingBack: rollingBack) { _ in try body() }
    }
  }

  // MARK: Links

  package func insert(_ link: Link) throws(LinkError) {
    try LinkError.capturing { try context.insert(link) }
  }

  package func update(_ link: Link) throws(LinkError) {
    try LinkError.capturing(notFound: .notFound(link.id)) { try context.update(link) }
  }

  package func deleteLink(id: Link.ID) throws(LinkError) {
    try LinkError.capturing(notFound: .notFound(id)) { try context.delete(Link.self, id: id) }
  }

  package func fetchLink(id: Link.ID) throws(LinkError) -> Link? {
    try LinkError.capturing { try context.fetch(Link.self, id: id) }
  }

  package func fetchLinks(in categoryID: Category.ID?) throws(LinkError) -> [Link] {
    let target: Category.ID? = categoryID
    return try LinkError.capturing {
      try context.fetchAll(
        Link.self, predicate: categoryID == nil ? nil : #Predicate { $0.categoryID == target },
        sortBy: Self.newestFirst)
    }
  }

  package func fetchEveryLink() throws(LinkError) -> [Link] {
    try LinkError.capturing { try context.fetchAll(Link.self) }
  }

  /// NB: read as two ranges of the `(createdAt, id)` index, the links added at the cursor's
  /// instant with a smaller id, then those added before it, rather than one `OR`: SQLite seeks
  /// straight to each range, where an `OR` makes it walk every link before the cursor, so the
  /// pages of 200,000 links added in one import would cost quadratic time.
  package func fetchLinkSummaries(
    in categoryID: Category.ID?, after cursor: LinkPage.Cursor?, limit: Int
  ) throws(LinkError) -> [LinkSummary] {
    let target: Category.ID? = categoryID
    return try LinkError.capturing {
      func summaries(_ predicate: Predicate<Link>?, limit: Int) throws -> [LinkSummary] {
        var descriptor = FetchDescriptor(predicate: predicate, sortBy: Self.newestFirst)
        descriptor.fetchLimit = limit
        return try context.fetch(descriptor, reading: LinkSummary.init(row:))
      }
      guard let cursor else {
        return try summaries(
          categoryID == nil ? nil : #Predicate { $0.categoryID == target }, limit: limit)
      }
      let (date, id) = (cursor.createdAt, cursor.id)
      var links = try summaries(
        categoryID == nil
          ? #Predicate { $0.createdAt == date && $0.id < id }
          : #Predicate { $0.categoryID == target && $0.createdAt == date && $0.id < id },
        limit: limit)
      if links.count < limit {
        links += try summaries(
          categoryID == nil
            ? #Predicate { $0.createdAt < date }
            : #Predicate { $0.categoryID == target && $0.createdAt < date },
          limit: limit - links.count)
      }
      return links
    }
  }

  package func fetchRecentLinks(limit: Int) throws(LinkError) -> [Link] {
    try LinkError.capturing {
      try context.fetchAll(
        Link.self, predicate: #Predicate { $0.lastViewedDate != nil },
        sortBy: [
          SortDescriptor(\.lastViewedDate, order: .reverse), SortDescriptor(\.id, order: .reverse),
        ],
        limit: limit)
    }
  }

  package func fetchLinks(titleContaining folded: String) throws(LinkError) -> [Link] {
    try LinkError.capturing {
      try context.fetchAll(
        Link.self, predicate: #Predicate { $0.title.caseFolded.contains(folded) },
        sortBy: Self.newestFirst)
    }
  }

  package func fetchLinks(idsFrom lower: Link.ID, through upper: Link.ID, limit: Int)
    throws(LinkError) -> [Link]
  {
    try LinkError.capturing {
      try context.fetchAll(
        Link.self, predicate: #Predicate { $0.id >= lower && $0.id <= upper },
        sortBy: [SortDescriptor(\.id)], limit: limit)
    }
  }

  package func fetchIDPrefixLength(of id: Link.ID) throws(LinkError) -> Int {
    try LinkError.capturing { try context.fetchIDPrefixLength(of: id) }
  }

  /// NB: one pass over the id index, whose memory does not grow with the links.
  package func fetchIDPrefixLengthOfAll() throws(LinkError) -> Int {
    try LinkError.capturing { try context.fetchIDPrefixLength(Link.self) }
  }

  package func countLinks(in categoryID: Category.ID) throws(LinkError) -> Int {
    let target: Category.ID? = categoryID
    return try LinkError.capturing {
      try context.fetchCount(
        FetchDescriptor<Link>(predicate: #Predicate { $0.categoryID == target }))
    }
  }

  // MARK: Comments

  package func insert(_ comment: Comment) throws(LinkError) {
    try LinkError.capturing { try context.insert(comment) }
  }

  package func update(_ comment: Comment) throws(LinkError) {
    try LinkError.capturing(notFound: .commentNotFound(comment.id)) {
      try context.update(comment)
    }
  }

  package func deleteComment(id: Comment.ID) throws(LinkError) {
    try LinkError.capturing(notFound: .commentNotFound(id)) {
      try context.delete(Comment.self, id: id)
    }
  }

  package func deleteComments(on linkID: Link.ID) throws(LinkError) {
    _ = try LinkError.capturing {
      try context.delete(Comment.self, where: #Predicate { $0.linkID == linkID })
    }
  }

  package func fetchComment(id: Comment.ID) throws(LinkError) -> Comment? {
    try LinkError.capturing { try context.fetch(Comment.self, id: id) }
  }

  package func fetchComments(on linkID: Link.ID) throws(LinkError) -> [Comment] {
    try LinkError.capturing {
      try context.fetchAll(
        Comment.self, predicate: #Predicate { $0.linkID == linkID },
        sortBy: [SortDescriptor(\.createdAt), SortDescriptor(\.id)])
    }
  }

  // MARK: Categories

  // NB: the unique index on the folded name is the last line of defence, should another
  // process write between a rule's check and the write.

  package func insert(_ category: Category) throws(LinkError) {
    try LinkError.capturing(uniqueViolation: .duplicateCategoryName(category.name)) {
      try context.insert(category)
    }
  }

  package func update(_ category: Category) throws(LinkError) {
    try LinkError.capturing(
      notFound: .categoryNotFound(category.id),
      uniqueViolation: .duplicateCategoryName(category.name)
    ) {
      try context.update(category)
    }
  }

  package func deleteCategory(id: Category.ID) throws(LinkError) {
    try LinkError.capturing(notFound: .categoryNotFound(id)) {
      try context.delete(Category.self, id: id)
    }
  }

  package func fetchCategory(id: Category.ID) throws(LinkError) -> Category? {
    try LinkError.capturing { try context.fetch(Category.self, id: id) }
  }

  package func fetchCategory(foldedName folded: String) throws(LinkError) -> Category? {
    try LinkError.capturing {
      try context.fetchOne(Category.self, predicate: #Predicate { $0.name.caseFolded == folded })
    }
  }

  package func fetchCategories() throws(LinkError) -> [Category] {
    try LinkError.capturing {
      try context.fetchAll(Category.self, sortBy: [SortDescriptor(\.name.caseFolded)])
    }
  }

  // MARK: Archives

  package func fetchArchive() throws(LinkError) -> LinkArchive {
    try transaction(rollingBack: false) { () throws(LinkError) in
      try LinkError.capturing {
        LinkArchive(
          categories: try context.fetchAll(
            Category.self, sortBy: [SortDescriptor(\.createdAt), SortDescriptor(\.id)]),
          links: try context.fetchAll(
            Link.self, sortBy: [SortDescriptor(\.createdAt), SortDescriptor(\.id)]),
          comments: try context.fetchAll(
            Comment.self, sortBy: [SortDescriptor(\.createdAt), SortDescriptor(\.id)]))
      }
    }
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
