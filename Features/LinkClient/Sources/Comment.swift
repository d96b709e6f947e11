import Foundation
import Loop
import Persistence

/// A note left on a link.
///
/// Comments belong to their link: deleting the link deletes them.
public struct Comment: PersistentModel, Identifiable, Equatable, Sendable, Codable {
  /// A comment's identifier.
  public typealias ID = ModelID<Comment>

  /// The comment's identifier.
  public var id: ID
  /// The link it is about.
  public var linkID: Link.ID
  /// The text, trimmed and never empty.
  public var text: String
  /// When the comment was added.
  public var createdAt: Date

  /// Creates a comment.
  public init(id: ID, linkID: Link.ID, text: String, createdAt: Date) {
    self.id = id
    self.linkID = linkID
    self.text = text
    self.createdAt = createdAt
  }

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
}

extension Comment {
  /// Reads a comment from its stored row.
  ///
  /// - Parameter row: The stored row.
  /// - Throws: `PersistenceError.decodingFailed` when a column does not decode.
  public init(row: Row<Comment>) throws {
    id = try row[\.id]
    linkID = try row[\.linkID]
    text = try row[\.text]
    createdAt = try row[\.createdAt]
  }
}
