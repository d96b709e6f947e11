import Foundation
import Persistence

/// Where habits are stored: a contract that says which state each write expects.
///
/// Inserting and updating are separate on purpose: creating a habit must not overwrite one
/// that exists, and changing a habit must not create one that does not. An upsert would turn
/// both mistakes into silent successes.
///
/// The endpoints are synchronous: ``HabitClient`` runs each use case's repository calls inside
/// one storage transaction, which is synchronous, so that a use case never half-applies.
///
/// ```swift
/// let habits = HabitRepository.live(context: context)
/// try habits.insert(habit)
/// try habits.insert(habit)  // throws HabitError.duplicateID(habit.id)
/// ```
public struct HabitRepository: Sendable {
  /// Deletes the habit with an id (`delete(id:)`); its completions are not touched.
  ///
  /// Throws ``HabitError/habitNotFound(_:)`` when no habit has the id.
  public var delete: @Sendable (Habit.ID) throws(HabitError) -> Void

  /// The habit with an id, or `nil` (`fetch(id:)`).
  public var fetch: @Sendable (Habit.ID) throws(HabitError) -> Habit?

  /// Every habit (`fetchAll()`): active habits first, then archived ones; within each, by
  /// creation date, oldest first, then by id (``Habit/isListed(_:before:)``).
  public var fetchAll: @Sendable () throws(HabitError) -> [Habit]

  /// Stores a new habit (`insert(_:)`).
  ///
  /// Throws ``HabitError/duplicateID(_:)`` when a habit with its id exists; nothing is written
  /// then.
  public var insert: @Sendable (Habit) throws(HabitError) -> Void

  /// Replaces the stored habit that has the habit's id (`update(_:)`).
  ///
  /// Throws ``HabitError/habitNotFound(_:)`` when no habit has its id; nothing is written then.
  public var update: @Sendable (Habit) throws(HabitError) -> Void
}

extension HabitRepository {
  /// The repository over a model context: the one implementation, in memory or on SQLite
  /// depending on the context's container.
  ///
  /// - Parameter context: A context whose container stores ``HabitClient/models``.
  /// - Returns: The repository.
  public static func live(context: ModelContext) -> HabitRepository {
    HabitRepository(
      delete: { id throws(HabitError) in
        try HabitError.capturing(notFound: .habitNotFound(id)) {
          try context.delete(Habit.self, id: id)
        }
      },
      fetch: { id throws(HabitError) in
        try HabitError.capturing { try context.fetch(Habit.self, id: id) }
      },
      fetchAll: { () throws(HabitError) in
        // NB: sorted in Swift: "active first" is not a column, and habits are few.
        try HabitError.capturing { try context.fetchAll(Habit.self) }.sorted(
          by: Habit.isListed(_:before:))
      },
      insert: { habit throws(HabitError) in
        try HabitError.capturing(duplicateID: .duplicateID(habit.id)) { try context.insert(habit) }
      },
      update: { habit throws(HabitError) in
        try HabitError.capturing(notFound: .habitNotFound(habit.id)) { try context.update(habit) }
      }
    )
  }
}
