import Foundation
import Loop

extension LinkClient {
  /// A client on a fresh, empty storage in memory, gone with the client: what previews and
  /// tests use.
  ///
  /// Its endpoints follow the same rules as the live client's (``init(storage:)``), on this
  /// module's own storage, so a feature's tests need neither a database nor `LinkClientLive`.
  /// To show links and categories together, give both clients one ``InMemoryLinkStorage``.
  public static func inMemory() -> LinkClient {
    LinkClient(storage: InMemoryLinkStorage())
  }
}

/// Links, comments and categories kept in memory, gone with the storage: the storage contracts
/// of ``LinkStorage`` on dictionaries.
///
/// One storage can serve a link client and a category client together, as one database does in
/// the app:
///
/// ```swift
/// let storage = InMemoryLinkStorage()
/// let linkClient = LinkClient(storage: storage)
/// let categoryClient = CategoryClient(storage: storage)
/// ```
public struct InMemoryLinkStorage: LinkStorage {
  struct Rows: Sendable {
    var links: [Link.ID: Link] = [:]
    var comments: [Comment.ID: Comment] = [:]
    var categories: [Category.ID: Category] = [:]
  }

  let rows = TransactionalValue(Rows())

  /// An empty storage.
  public init() {}

  public func transaction<R>(
    rollingBack: Bool, _ body: () throws(LinkError) -> R
  ) throws(LinkError) -> R {
    try rows.transaction(rollingBack: rollingBack, body)
  }

  // MARK: Links

  public func insert(_ link: Link) throws(LinkError) {
    try rows.withValue { rows throws(LinkError) in
      try Self.insert(link, into: &rows.links)
    }
  }

  public func update(_ link: Link) throws(LinkError) {
    try rows.withValue { rows throws(LinkError) in
      guard rows.links[link.id] != nil else { throw .notFound(link.id) }
      rows.links[link.id] = link
    }
  }

  public func deleteLink(id: Link.ID) throws(LinkError) {
    try rows.withValue { rows throws(LinkError) in
      guard rows.links.removeValue(forKey: id) != nil else { throw .notFound(id) }
    }
  }

  public func fetchLink(id: Link.ID) -> Link? {
    rows.withValue { $0.links[id] }
  }

  public func fetchLinks(in categoryID: Category.ID?) -> [Link] {
    links { categoryID == nil || $0.categoryID == categoryID }
  }

  public func fetchEveryLink() -> [Link] {
    rows.withValue { Array($0.links.values) }
  }

  public func fetchLinkSummaries(
    in categoryID: Category.ID?, after cursor: LinkPage.Cursor?, limit: Int
  ) -> [LinkSummary] {
    let links = links {
      (categoryID == nil || $0.categoryID == categoryID) && cursor?.precedes($0) ?? true
    }
    return links.prefix(limit).map(LinkSummary.init)
  }

  public func fetchRecentLinks(limit: Int) -> [Link] {
    let viewed = rows.withValue { rows in
      rows.links.values.compactMap { link in link.lastViewedDate.map { (viewed: $0, link: link) } }
    }
    let recent = viewed.sorted { lhs, rhs in
      lhs.viewed == rhs.viewed ? lhs.link.id > rhs.link.id : lhs.viewed > rhs.viewed
    }
    return recent.prefix(limit).map(\.link)
  }

  public func fetchLinks(titleContaining folded: String) -> [Link] {
    links { $0.title.foldedForSearch.contains(folded) }
  }

  public func fetchLinks(idsFrom lower: Link.ID, through upper: Link.ID, limit: Int) -> [Link] {
    let links = rows.withValue { rows in
      rows.links.values.filter { lower <= $0.id && $0.id <= upper }
    }
    return Array(links.sorted { $0.id < $1.id }.prefix(limit))
  }

  public func fetchIDPrefixLength(of id: Link.ID) -> Int {
    IDPrefix.length(of: IDPrefix.key(of: id.rawValue), among: sortedIDKeys())
  }

  public func fetchIDPrefixLengthOfAll() -> Int {
    IDPrefix.length(ofAll: sortedIDKeys())
  }

  public func countLinks(in categoryID: Category.ID) -> Int {
    rows.withValue { rows in rows.links.values.count { $0.categoryID == categoryID } }
  }

  // MARK: Comments

  public func insert(_ comment: Comment) throws(LinkError) {
    try rows.withValue { rows throws(LinkError) in
      try Self.insert(comment, into: &rows.comments)
    }
  }

  public func update(_ comment: Comment) throws(LinkError) {
    try rows.withValue { rows throws(LinkError) in
      guard rows.comments[comment.id] != nil else { throw .commentNotFound(comment.id) }
      rows.comments[comment.id] = comment
    }
  }

  public func deleteComment(id: Comment.ID) throws(LinkError) {
    try rows.withValue { rows throws(LinkError) in
      guard rows.comments.removeValue(forKey: id) != nil else { throw .commentNotFound(id) }
    }
  }

  public func deleteComments(on linkID: Link.ID) {
    rows.withValue { rows in rows.comments = rows.comments.filter { $0.value.linkID != linkID } }
  }

  public func fetchComment(id: Comment.ID) -> Comment? {
    rows.withValue { $0.comments[id] }
  }

  public func fetchComments(on linkID: Link.ID) -> [Comment] {
    Self.oldestFirst(
      rows.withValue { rows in rows.comments.values.filter { $0.linkID == linkID } },
      createdAt: \.createdAt)
  }

  // MARK: Categories

  public func insert(_ category: Category) throws(LinkError) {
    try rows.withValue { rows throws(LinkError) in
      try Self.checkUnique(category, in: rows)
      try Self.insert(category, into: &rows.categories)
    }
  }

  public func update(_ category: Category) throws(LinkError) {
    try rows.withValue { rows throws(LinkError) in
      guard rows.categories[category.id] != nil else { throw .categoryNotFound(category.id) }
      try Self.checkUnique(category, in: rows)
      rows.categories[category.id] = category
    }
  }

  public func deleteCategory(id: Category.ID) throws(LinkError) {
    try rows.withValue { rows throws(LinkError) in
      guard rows.categories.removeValue(forKey: id) != nil else { throw .categoryNotFound(id) }
    }
  }

  public func fetchCategory(id: Category.ID) -> Category? {
    rows.withValue { $0.categories[id] }
  }

  public func fetchCategory(foldedName folded: String) -> Category? {
    rows.withValue { rows in rows.categories.values.first { $0.name.foldedForSearch == folded } }
  }

  public func fetchCategories() -> [Category] {
    rows.withValue { rows in
      rows.categories.values.map { ($0.name.foldedForSearch, $0) }.sorted { $0.0 < $1.0 }.map(\.1)
    }
  }

  // MARK: Archives

  public func fetchArchive() -> LinkArchive {
    rows.withValue { rows in
      LinkArchive(
        categories: Self.oldestFirst(Array(rows.categories.values), createdAt: \.createdAt),
        links: Self.oldestFirst(Array(rows.links.values), createdAt: \.createdAt),
        comments: Self.oldestFirst(Array(rows.comments.values), createdAt: \.createdAt))
    }
  }

  // MARK: Helpers

  /// The links `isIncluded` keeps, newest first.
  private func links(where isIncluded: (Link) -> Bool) -> [Link] {
    rows.withValue { rows in rows.links.values.filter(isIncluded) }.sorted { lhs, rhs in
      lhs.createdAt == rhs.createdAt ? lhs.id > rhs.id : lhs.createdAt > rhs.createdAt
    }
  }

  /// Every link's id as `IDPrefix`'s key, ascending.
  private func sortedIDKeys() -> [UInt128] {
    rows.withValue { rows in rows.links.keys.map { IDPrefix.key(of: $0.rawValue) } }.sorted()
  }

  /// Stores a new row; ``LinkError/storageFailed(_:)`` when one has its id, as the database
  /// refuses it.
  private static func insert<Model: Identifiable>(
    _ model: Model, into table: inout [Model.ID: Model]
  ) throws(LinkError) {
    guard table[model.id] == nil else {
      throw .storageFailed(
        "Cannot insert \(Model.self) with id '\(model.id)': a \(Model.self) with that id already "
          + "exists.")
    }
    table[model.id] = model
  }

  /// Throws ``LinkError/duplicateCategoryName(_:)`` when another category has the category's
  /// name, ignoring case.
  private static func checkUnique(_ category: Category, in rows: Rows) throws(LinkError) {
    let folded = category.name.foldedForSearch
    if rows.categories.values.contains(where: {
      $0.id != category.id && $0.name.foldedForSearch == folded
    }) {
      throw .duplicateCategoryName(category.name)
    }
  }

  /// The models oldest first: by `createdAt`, then by id.
  private static func oldestFirst<Model: Identifiable>(
    _ models: [Model], createdAt: (Model) -> Date
  ) -> [Model] where Model.ID: Comparable {
    models.sorted { lhs, rhs in
      createdAt(lhs) == createdAt(rhs) ? lhs.id < rhs.id : createdAt(lhs) < createdAt(rhs)
    }
  }
}
