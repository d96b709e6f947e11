import Foundation
import LinkClient
import Loop

/// The categories' dependency: add, rename and delete categories, list them, count their links.
///
/// ```swift
/// @Dependency(\.categoryClient) var categoryClient
/// let work = try await categoryClient.addCategory("Work")
/// let count = try await categoryClient.countLinks(work.id)
/// ```
///
/// Categories belong to the links domain (their model and error live in `LinkClient`): every
/// endpoint throws only `LinkError` and changes nothing when it throws. Names are trimmed,
/// never empty, and unique ignoring case, checked by the client and backed by a unique index on
/// the case-folded name, so both storages agree. New ids and dates come from the `uuid` and
/// `date` dependencies of the calling task.
///
/// This module is the interface, on Loop alone. The rules of every endpoint are written once,
/// on the links domain's `LinkStorage` (``init(storage:)``): `CategoryClientLive`'s
/// `live(context:)` stores over a `ModelContext` (the app's value, on its SQLite file), and
/// ``inMemory()`` in memory. Its endpoints run on their caller's actor, but for
/// ``fetchCategorySummaries``, which counts every link and runs off it.
public struct CategoryClient: Sendable {
  /// Adds a category with an id from the `uuid` dependency and the `date` dependency's now.
  ///
  /// The name is trimmed. Throws `LinkError.emptyCategoryName` and
  /// `LinkError.duplicateCategoryName` (with the name as typed). Returns the stored category.
  public var addCategory:
    nonisolated(nonsending) @Sendable (_ name: String) async throws -> Category =
      unimplemented("CategoryClient.addCategory")

  /// How many links are in a category.
  ///
  /// Throws `LinkError.categoryNotFound`.
  public var countLinks:
    nonisolated(nonsending) @Sendable (_ categoryID: Category.ID) async throws -> Int =
      unimplemented("CategoryClient.countLinks")

  /// Deletes a category; its links stay, uncategorized, in the same transaction.
  ///
  /// Throws `LinkError.categoryNotFound`.
  public var deleteCategory:
    nonisolated(nonsending) @Sendable (_ id: Category.ID) async throws -> Void =
      unimplemented("CategoryClient.deleteCategory")

  /// Every category, by name ignoring case (names are unique ignoring case, so there are no
  /// ties).
  public var fetchCategories: nonisolated(nonsending) @Sendable () async throws -> [Category] =
    unimplemented("CategoryClient.fetchCategories")

  /// Every category with its number of links, in the order of ``fetchCategories``.
  ///
  /// NB: Persistence has no `GROUP BY`, so this is one indexed count per category (plus one
  /// fetch), all in one transaction: a consistent snapshot without reading any link.
  public var fetchCategorySummaries:
    nonisolated(nonsending) @Sendable () async throws -> [CategorySummary] =
      unimplemented("CategoryClient.fetchCategorySummaries")

  /// Renames a category, keeping its id and links.
  ///
  /// The name is trimmed. Throws `LinkError.categoryNotFound`, `LinkError.emptyCategoryName`
  /// and `LinkError.duplicateCategoryName` (another category has the name, ignoring case; a
  /// category may change the case of its own name). Returns the updated category.
  public var updateCategory:
    nonisolated(nonsending) @Sendable (_ id: Category.ID, _ name: String) async throws -> Category =
      unimplemented("CategoryClient.updateCategory")

  /// A client whose every endpoint reports an issue and throws (the test value): the live
  /// module sets each endpoint on it, and a test the ones it uses.
  public init() {}
}

// MARK: - Dependency

extension CategoryClient: TestDependencyKey {
  /// A client whose every endpoint fails the test that calls it without overriding it; a test
  /// sets the endpoints it uses (`$0.categoryClient.fetchCategories = { … }`).
  ///
  /// NB: every endpoint defaults to `unimplemented`, so the list of endpoints is written once,
  /// above; ``init(storage:)`` sets each on ``init()``, and the live module declares the live
  /// value (its conformance to `DependencyKey`).
  public static var testValue: CategoryClient { CategoryClient() }
}

extension CategoryClient {
  /// A client whose every endpoint throws `error`: what the live value is when the database
  /// cannot be opened, and what a test uses to show a failure.
  ///
  /// - Parameter error: The error every endpoint throws.
  /// - Returns: The client.
  public static func failing(_ error: LinkError) -> CategoryClient {
    var client = CategoryClient()
    client.addCategory = { _ in throw error }
    client.countLinks = { _ in throw error }
    client.deleteCategory = { _ in throw error }
    client.fetchCategories = { throw error }
    client.fetchCategorySummaries = { throw error }
    client.updateCategory = { _, _ in throw error }
    return client
  }
}

extension DependencyValues {
  /// The categories' client.
  public var categoryClient: CategoryClient {
    get { self[CategoryClient.self] }
    set { self[CategoryClient.self] = newValue }
  }
}
