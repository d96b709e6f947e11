import Foundation
import LinkClient
import Loop
import Persistence

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
/// There is one implementation, ``live(context:)``, over a `ModelContext`; ``liveValue`` runs it
/// on the app's SQLite file and ``inMemory()`` on a fresh in-memory container. Its endpoints run
/// on their caller's actor, but for ``fetchCategorySummaries``, which counts every link and runs
/// off it (Persistence's `offMainActor(_:)`).
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
}

// MARK: - Dependency

extension CategoryClient: DependencyKey {
  /// The client on the app's database file (`ModelContainer.defaultFilePath()`).
  ///
  /// When the file cannot be opened, every endpoint throws `LinkError.storageFailed` with the
  /// reason; nothing crashes.
  public static var liveValue: CategoryClient {
    live(opening: .file(ModelContainer.defaultFilePath()))
  }

  /// A client whose every endpoint fails the test that calls it without overriding it; a test
  /// sets the endpoints it uses (`$0.categoryClient.fetchCategories = { … }`).
  ///
  /// NB: every endpoint defaults to `unimplemented`, so the list of endpoints is written once,
  /// above; ``live(context:)`` sets each through the memberwise initializer.
  public static var testValue: CategoryClient { CategoryClient() }
}

extension DependencyValues {
  /// The categories' client.
  public var categoryClient: CategoryClient {
    get { self[CategoryClient.self] }
    set { self[CategoryClient.self] = newValue }
  }
}
