import Foundation
import LinkClient
import Loop
import Persistence

// How the links domain's models are stored: their tables, and how a row is read back.

extension Link: PersistentModel {
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

  /// Reads a link from its stored row.
  ///
  /// - Parameter row: The stored row.
  /// - Throws: `PersistenceError.decodingFailed` when a column does not decode.
  public init(row: Row<Link>) throws {
    try self.init(
      id: row[\.id], title: row[\.title], url: row[\.url], categoryID: row[\.categoryID],
      memo: row[\.memo], isFavorite: row[\.isFavorite], createdAt: row[\.createdAt],
      lastViewedDate: row[\.lastViewedDate])
  }
}

extension Category: PersistentModel {
  /// The `categories` table: names are searchable, and unique once case-folded.
  public static let schema = Schema<Category>(
    table: "categories",
    columns: [
      Column(\.id, "id"),
      Column(\.name, "name", options: .searchable),
      Column(\.createdAt, "created_at"),
    ],
    indexes: [Index(\.name.caseFolded, unique: true)]
  )

  /// Reads a category from its stored row.
  ///
  /// - Parameter row: The stored row.
  /// - Throws: `PersistenceError.decodingFailed` when a column does not decode.
  public init(row: Row<Category>) throws {
    try self.init(id: row[\.id], name: row[\.name], createdAt: row[\.createdAt])
  }
}

extension Comment: PersistentModel {
  /// The `comments` table, indexed for a link's comments in order.
  public static let schema = Schema<Comment>(
    table: "comments",
    columns: [
      Column(\.id, "id"),
      Column(\.linkID, "link_id"),
      Column(\.text, "text"),
      Column(\.createdAt, "created_at"),
    ],
    indexes: [Index(\.linkID, \.createdAt, \.id)]
  )

  /// Reads a comment from its stored row.
  ///
  /// - Parameter row: The stored row.
  /// - Throws: `PersistenceError.decodingFailed` when a column does not decode.
  public init(row: Row<Comment>) throws {
    try self.init(
      id: row[\.id], linkID: row[\.linkID], text: row[\.text], createdAt: row[\.createdAt])
  }
}
