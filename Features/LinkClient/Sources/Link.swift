import Foundation
import Loop
import Persistence

/// A saved web page: its title and address, an optional category and memo, whether it is a
/// favorite, and when it was added and last viewed.
public struct Link: PersistentModel, Identifiable, Equatable, Sendable, Codable {
  /// A link's identifier.
  public typealias ID = ModelID<Link>

  /// The link's identifier.
  public var id: ID
  /// The title, trimmed and never empty.
  public var title: String
  /// The address: an absolute `http` or `https` URL.
  public var url: URL
  /// The category, or `nil` when uncategorized.
  public var categoryID: Category.ID?
  /// A note about the link, trimmed and never empty when present.
  public var memo: String?
  /// Whether the user marked it as a favorite.
  public var isFavorite: Bool
  /// When the link was added.
  public var createdAt: Date
  /// When the link was last opened, or `nil` when never.
  public var lastViewedDate: Date?

  /// Creates a link.
  public init(
    id: ID, title: String, url: URL, categoryID: Category.ID? = nil, memo: String? = nil,
    isFavorite: Bool = false, createdAt: Date, lastViewedDate: Date? = nil
  ) {
    self.id = id
    self.title = title
    self.url = url
    self.categoryID = categoryID
    self.memo = memo
    self.isFavorite = isFavorite
    self.createdAt = createdAt
    self.lastViewedDate = lastViewedDate
  }

  /// The `links` table.
  ///
  /// The title is searchable (case-insensitive `contains` runs on a folded copy in SQL). The
  /// indexes serve the client's lists on large tables: newest first, recently viewed, and a
  /// category's links newest first, each with the id as the tie-breaker.
  public static let schema = Schema<Link>(
    table: "links",
    columns: [
      Column(\.id, "id"),
      Column(\.title, "title", options: .searchable),
      Column(\.url, "url"),
      Column(\.categoryID, "category_id"),
      Column(\.memo, "memo"),
      Column(\.isFavorite, "is_favorite"),
      Column(\.createdAt, "created_at"),
      Column(\.lastViewedDate, "last_viewed_date"),
    ],
    indexes: [
      Index(\.createdAt, \.id),
      Index(\.lastViewedDate, \.id),
      Index(\.categoryID, \.createdAt, \.id),
    ]
  )
}

extension Link {
  /// Reads a link from its stored row.
  ///
  /// - Parameter row: The stored row.
  /// - Throws: `PersistenceError.decodingFailed` when a column does not decode.
  public init(row: Row<Link>) throws {
    id = try row[\.id]
    title = try row[\.title]
    url = try row[\.url]
    categoryID = try row[\.categoryID]
    memo = try row[\.memo]
    isFavorite = try row[\.isFavorite]
    createdAt = try row[\.createdAt]
    lastViewedDate = try row[\.lastViewedDate]
  }
}
