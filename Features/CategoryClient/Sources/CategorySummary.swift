import LinkClient

/// A category with the number of links in it: a row of the categories list.
public struct CategorySummary: Identifiable, Equatable, Sendable, Codable {
  /// The category.
  public var category: Category
  /// How many links are in the category.
  public var linkCount: Int

  /// Creates a summary.
  public init(category: Category, linkCount: Int) {
    self.category = category
    self.linkCount = linkCount
  }

  /// The category's id.
  public var id: Category.ID { category.id }
}
