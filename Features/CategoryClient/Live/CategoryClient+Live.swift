import CategoryClient
import Foundation
import LinkClient
import LinkClientLive
import Loop
import Persistence

extension CategoryClient: DependencyKey {
  /// The client on the app's database file (`ModelContainer.defaultFilePath()`).
  ///
  /// When the file cannot be opened, every endpoint throws `LinkError.storageFailed` with the
  /// reason; nothing crashes.
  ///
  /// NB: the conformance is this module's, so a program resolves `\.categoryClient` to it only
  /// when it links this module (the app's composition imports it); the interface declares the
  /// test value.
  public static var liveValue: CategoryClient {
    live(opening: .file(ModelContainer.defaultFilePath()))
  }
}

extension CategoryClient {
  /// The model types the client reads and writes: the links domain's, since deleting a category
  /// updates links.
  public static var models: [any PersistentModel.Type] { LinkClient.models }

  /// The client over a model context: the one implementation, used on SQLite and in memory.
  ///
  /// The context's container must hold ``models``.
  ///
  /// - Parameter context: The context to read and write.
  /// - Returns: The client.
  public static func live(context: ModelContext) -> CategoryClient {
    live(CategoryStorage(context: context))
  }

  /// The client over a new container on `storage`, or a client that throws the reason when it
  /// cannot be opened.
  ///
  /// - Parameter storage: Where the container keeps its data.
  /// - Returns: The client.
  public static func live(opening storage: ModelContainer.Storage) -> CategoryClient {
    do {
      return live(context: ModelContext(try ModelContainer(for: models, storage: storage)))
    } catch {
      return failing(LinkError(error))
    }
  }

  /// Every endpoint over the storage.
  private static func live(_ storage: CategoryStorage) -> CategoryClient {
    var client = CategoryClient()
    client.addCategory = { try storage.addCategory(name: $0) }
    client.countLinks = { try storage.countLinks(in: $0) }
    client.deleteCategory = { try storage.deleteCategory(id: $0) }
    client.fetchCategories = { try storage.fetchCategories() }
    // NB: counting every category's links grows with the links: off the caller's actor.
    client.fetchCategorySummaries = {
      try await offMainActor { try storage.fetchCategorySummaries() }
    }
    client.updateCategory = { try storage.updateCategory(id: $0, name: $1) }

    return client
  }
}

/// The categories' logic over a model context; every failure is a `LinkError`.
struct CategoryStorage: Sendable {
  let context: ModelContext

  /// By name ignoring case: the unique folded name leaves no ties.
  static var byName: [SortDescriptor<Category>] { [SortDescriptor(\.name.caseFolded)] }

  func fetchCategories() throws(LinkError) -> [Category] {
    try LinkError.capturing { try context.fetchAll(Category.self, sortBy: Self.byName) }
  }

  func fetchCategorySummaries() throws(LinkError) -> [CategorySummary] {
    try LinkError.capturing {
      try context.transaction { context in
        try context.fetchAll(Category.self, sortBy: Self.byName).map { category in
          CategorySummary(category: category, linkCount: try count(in: category.id, context))
        }
      }
    }
  }

  func countLinks(in categoryID: Category.ID) throws(LinkError) -> Int {
    try LinkError.capturing {
      try context.transaction { context in
        _ = try existingCategory(categoryID, in: context)
        return try count(in: categoryID, context)
      }
    }
  }

  func addCategory(name: String) throws(LinkError) -> Category {
    let name = try checkedName(name)
    // NB: the unique index on the folded name is the last line of defence, should another
    // process write between the check and the insert.
    return try LinkError.capturing(uniqueViolation: .duplicateCategoryName(name)) {
      try context.transaction { context in
        try checkUnique(name, except: nil, in: context)
        @Dependency(\.uuid) var uuid
        @Dependency(\.date) var date
        let category = Category(id: Category.ID(uuid()), name: name, createdAt: date.now)
        try context.insert(category)
        return category
      }
    }
  }

  func updateCategory(id: Category.ID, name: String) throws(LinkError) -> Category {
    let name = try checkedName(name)
    // NB: the unique index on the folded name is the last line of defence, should another
    // process write between the check and the insert.
    return try LinkError.capturing(uniqueViolation: .duplicateCategoryName(name)) {
      try context.transaction { context in
        var category = try existingCategory(id, in: context)
        try checkUnique(name, except: id, in: context)
        category.name = name
        try context.update(category)
        return category
      }
    }
  }

  func deleteCategory(id: Category.ID) throws(LinkError) {
    let target: Category.ID? = id
    try LinkError.capturing {
      try context.transaction { context in
        _ = try existingCategory(id, in: context)
        // NB: Persistence has no bulk update; each link is rewritten, inside the transaction.
        for var link in try context.fetchAll(
          Link.self, predicate: #Predicate { $0.categoryID == target })
        {
          link.categoryID = nil
          try context.update(link)
        }
        try context.delete(Category.self, id: id)
      }
    }
  }

  // MARK: Helpers

  private func count(in categoryID: Category.ID, _ context: ModelContext) throws -> Int {
    let target: Category.ID? = categoryID
    return try context.fetchCount(
      FetchDescriptor<Link>(predicate: #Predicate { $0.categoryID == target }))
  }

  private func existingCategory(_ id: Category.ID, in context: ModelContext) throws -> Category {
    guard let category = try context.fetch(Category.self, id: id) else {
      throw LinkError.categoryNotFound(id)
    }
    return category
  }

  /// Throws `duplicateCategoryName` when a category other than `id` has `name`, ignoring case.
  private func checkUnique(_ name: String, except id: Category.ID?, in context: ModelContext)
    throws
  {
    let folded = name.caseFolded
    let clash = try context.fetchOne(
      Category.self, predicate: #Predicate { $0.name.caseFolded == folded })
    if let clash, clash.id != id { throw LinkError.duplicateCategoryName(name) }
  }

  private func checkedName(_ name: String) throws(LinkError) -> String {
    let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !trimmed.isEmpty else { throw .emptyCategoryName }
    return trimmed
  }
}
