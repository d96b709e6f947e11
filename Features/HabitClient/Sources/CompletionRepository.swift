import Foundation
import Persistence

/// Where completions are stored: added and removed, never edited.
///
/// A completion records that a habit was done on a day, so the contract has no update, and a
/// second completion of a habit on the same day is an error rather than a second record.
///
/// The endpoints are synchronous for the same reason as ``HabitRepository``'s: ``HabitClient``
/// runs them inside one storage transaction per use case.
///
/// ```swift
/// let completions = CompletionRepository.live(context: context)
/// try completions.insert(completion)
/// try completions.insert(completion)  // throws HabitError.duplicateCompletion(id, day)
/// ```
public struct CompletionRepository: Sendable {
  /// Deletes the completion of a habit on a day (`delete(habitID:completedOn:)`).
  ///
  /// Throws ``HabitError/completionNotFound(_:_:)`` when there is none.
  public var delete: @Sendable (Habit.ID, Day) throws(HabitError) -> Void

  /// Deletes every completion of a habit (`deleteAll(for:)`), used when the habit is deleted;
  /// none is fine.
  public var deleteAll: @Sendable (Habit.ID) throws(HabitError) -> Void

  /// The completion of a habit on a day, or `nil` (`fetch(habitID:completedOn:)`).
  public var fetch: @Sendable (Habit.ID, Day) throws(HabitError) -> Completion?

  /// Every completion of a habit (`fetchAll(for:)`), by day, earliest first (a habit has at
  /// most one completion a day, so there are no ties).
  public var fetchAll: @Sendable (Habit.ID) throws(HabitError) -> [Completion]

  /// Stores a new completion (`insert(_:)`).
  ///
  /// Throws ``HabitError/duplicateCompletion(_:_:)`` when the habit already has a completion on
  /// that day; nothing is written then.
  public var insert: @Sendable (Completion) throws(HabitError) -> Void
}

extension CompletionRepository {
  /// The repository over a model context: the one implementation, in memory or on SQLite
  /// depending on the context's container.
  ///
  /// - Parameter context: A context whose container stores ``HabitClient/models``.
  /// - Returns: The repository.
  public static func live(context: ModelContext) -> CompletionRepository {
    CompletionRepository(
      delete: { habitID, day throws(HabitError) in
        try HabitError.capturing(notFound: .completionNotFound(habitID, day)) {
          try context.delete(Completion.self, id: Completion.ID(habitID: habitID, day: day))
        }
      },
      deleteAll: { habitID throws(HabitError) in
        _ = try HabitError.capturing {
          try context.delete(Completion.self, where: #Predicate { $0.habitID == habitID })
        }
      },
      fetch: { habitID, day throws(HabitError) in
        try HabitError.capturing {
          try context.fetch(Completion.self, id: Completion.ID(habitID: habitID, day: day))
        }
      },
      fetchAll: { habitID throws(HabitError) in
        try HabitError.capturing {
          try context.fetchAll(
            Completion.self, predicate: #Predicate { $0.habitID == habitID },
            sortBy: [SortDescriptor(\.day)])
        }
      },
      insert: { completion throws(HabitError) in
        try HabitError.capturing(
          duplicateID: .duplicateCompletion(completion.habitID, completion.day)
        ) {
          try context.insert(completion)
        }
      }
    )
  }
}
