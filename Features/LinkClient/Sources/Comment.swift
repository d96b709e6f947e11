import Foundation
import Loop

/// A note left on a link.
///
/// Comments belong to their link: deleting the link deletes them.
public struct Comment: Identifiable, Equatable, Sendable, Codable {
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
}
