import Foundation
import Loop

/// A named group of links.
///
/// Names are trimmed, never empty, and unique ignoring case (`Work` and `work` cannot both
/// exist). Deleting a category keeps its links, uncategorized.
///
/// Its table lives in the links domain, beside the links that point to it, so that deleting a
/// category and uncategorizing its links is one transaction.
public struct Category: Identifiable, Equatable, Sendable, Codable {
  /// A category's identifier.
  public typealias ID = ModelID<Category>

  /// The category's identifier.
  public var id: ID
  /// The name, trimmed and unique ignoring case.
  public var name: String
  /// When the category was added.
  public var createdAt: Date

  /// Creates a category.
  public init(id: ID, name: String, createdAt: Date) {
    self.id = id
    self.name = name
    self.createdAt = createdAt
  }
}
