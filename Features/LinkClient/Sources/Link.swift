import Foundation
import Loop

/// A saved web page: its title and address, an optional category and memo, whether it is a
/// favorite, and when it was added and last viewed.
public struct Link: Identifiable, Equatable, Sendable, Codable {
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
}
