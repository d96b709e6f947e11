import Foundation
import LinkClient
import Loop

extension CategoryClient {
  /// The client whose every endpoint follows its rules on `storage`, one transaction each: the
  /// storage the link client uses too, since deleting a category updates links.
  ///
  /// Counting every category's links (``fetchCategorySummaries``) grows with the links, so it
  /// runs off the caller's actor.
  public init(storage: some LinkStorage) {
    self.init()
    addCategory = { try storage.addCategory(name: $0) }
    countLinks = { id in
      try storage.transaction { () throws(LinkError) in
        try storage.checkCategory(id)
        return try storage.countLinks(in: id)
      }
    }
    deleteCategory = { try storage.deleteCategory(emptying: $0) }
    fetchCategories = { try storage.fetchCategories() }
    fetchCategorySummaries = {
      try await offMainActor { try storage.fetchCategorySummaries() }
    }
    updateCategory = { try storage.updateCategory(id: $0, name: $1) }
  }

  /// A client on a fresh, empty storage in memory, gone with the client: what previews and
  /// tests use (see ``inMemoryWithLinkClient()`` to show links too).
  public static func inMemory() -> CategoryClient {
    CategoryClient(storage: InMemoryLinkStorage())
  }

  /// A category client and a link client on one fresh storage in memory, as the app has them
  /// on one file: for features that show links and categories together.
  ///
  /// ```swift
  /// let (categoryClient, linkClient) = CategoryClient.inMemoryWithLinkClient()
  /// ```
  public static func inMemoryWithLinkClient() -> (
    categoryClient: CategoryClient, linkClient: LinkClient
  ) {
    let storage = InMemoryLinkStorage()
    return (CategoryClient(storage: storage), LinkClient(storage: storage))
  }
}

// MARK: - The rules, on the contracts

extension LinkStorage {
  func fetchCategorySummaries() throws(LinkError) -> [CategorySummary] {
    try transaction { () throws(LinkError) in
      try fetchCategories().map { category throws(LinkError) in
        CategorySummary(category: category, linkCount: try countLinks(in: category.id))
      }
    }
  }

  func addCategory(name: String) throws(LinkError) -> Category {
    let name = try checkedName(name)
    return try transaction { () throws(LinkError) in
      try checkUnique(name, except: nil)
      @Dependency(\.uuid) var uuid
      @Dependency(\.date) var date
      let category = Category(id: Category.ID(uuid()), name: name, createdAt: date.now)
      try insert(category)
      return category
    }
  }

  func updateCategory(id: Category.ID, name: String) throws(LinkError) -> Category {
    let name = try checkedName(name)
    return try transaction { () throws(LinkError) in
      guard var category = try fetchCategory(id: id) else { throw .categoryNotFound(id) }
      try checkUnique(name, except: id)
      category.name = name
      try update(category)
      return category
    }
  }

  /// Deletes a category, its links staying without one.
  func deleteCategory(emptying id: Category.ID) throws(LinkError) {
    try transaction { () throws(LinkError) in
      try checkCategory(id)
      // NB: each link is rewritten, inside the transaction.
      for var link in try fetchLinks(in: id) {
        link.categoryID = nil
        try update(link)
      }
      try deleteCategory(id: id)
    }
  }

  /// Throws `duplicateCategoryName` when a category other than `id` has `name`, ignoring case.
  private func checkUnique(_ name: String, except id: Category.ID?) throws(LinkError) {
    let clash = try fetchCategory(foldedName: name.foldedForSearch)
    if let clash, clash.id != id { throw .duplicateCategoryName(name) }
  }

  private func checkedName(_ name: String) throws(LinkError) -> String {
    let trimmed = name.trimmedOfWhitespace
    guard !trimmed.isEmpty else { throw .emptyCategoryName }
    return trimmed
  }
}
