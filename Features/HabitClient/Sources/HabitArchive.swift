import Foundation

/// Every habit and completion, as ``HabitClient/exportHabits`` returns them and
/// ``HabitClient/restoreHabits`` takes them back, with their ids and dates.
///
/// Habits are in list order (``Habit/isListed(_:before:)``); completions are grouped by habit
/// in that order, each habit's by day.
public struct HabitArchive: Equatable, Sendable, Codable {
  /// Every habit.
  public var habits: [Habit]
  /// Every completion.
  public var completions: [Completion]

  /// Creates an archive.
  ///
  /// - Parameters:
  ///   - habits: The habits.
  ///   - completions: The completions.
  public init(habits: [Habit] = [], completions: [Completion] = []) {
    self.habits = habits
    self.completions = completions
  }
}

/// What ``HabitClient/restoreHabits`` did (or, in a dry run, would do).
public struct HabitImportSummary: Equatable, Sendable {
  /// How many habits were stored.
  public var habits: Int
  /// How many completions were stored.
  public var completions: Int
  /// How many habits and completions were skipped because they are stored already.
  public var duplicates: Int

  /// Creates a summary.
  ///
  /// - Parameters:
  ///   - habits: How many habits were stored.
  ///   - completions: How many completions were stored.
  ///   - duplicates: How many entries were skipped as stored already.
  public init(habits: Int = 0, completions: Int = 0, duplicates: Int = 0) {
    self.habits = habits
    self.completions = completions
    self.duplicates = duplicates
  }
}

extension HabitClient {
  /// How many entries ``restoreHabits`` writes between two calls of its `progress`.
  public static let importBatchSize = 1_000

  /// Stores an archive's habits and completions with their ids; see ``restoreHabits``.
  ///
  /// - Parameters:
  ///   - archive: The archive, as ``exportHabits`` returns it.
  ///   - dryRun: Whether to roll back and only report.
  ///   - progress: Called after every batch with how many entries were processed.
  /// - Returns: What the restore did (or would do).
  /// - Throws: ``HabitError/invalidArchive(_:)`` or ``HabitError/storage(_:)``; nothing is
  ///   written then.
  public nonisolated(nonsending) func restoreHabits(
    _ archive: HabitArchive, dryRun: Bool = false,
    progress: @escaping @Sendable (Int) -> Void = { _ in }
  ) async throws -> HabitImportSummary {
    try await restoreHabits(archive, dryRun, progress)
  }

  /// Checks an archive, then stores what is new of it through the repositories; the caller
  /// runs it in a transaction.
  static func restore(
    _ archive: HabitArchive, habits: HabitRepository, completions: CompletionRepository,
    progress: (Int) -> Void
  ) throws(HabitError) -> HabitImportSummary {
    var archived: Set<Habit.ID> = []
    for habit in archive.habits where !archived.insert(habit.id).inserted {
      throw .invalidArchive("habit '\(habit.id)' appears twice")
    }
    var stored: [Habit.ID: Bool] = [:]
    func isStored(_ id: Habit.ID) throws(HabitError) -> Bool {
      if let known = stored[id] { return known }
      let found = try habits.fetch(id) != nil
      stored[id] = found
      return found
    }
    var seen: Set<Completion.ID> = []
    for completion in archive.completions {
      let entry = "the completion of habit '\(completion.habitID)' on \(completion.day)"
      guard seen.insert(completion.id).inserted else {
        throw .invalidArchive("\(entry) appears twice")
      }
      if !archived.contains(completion.habitID), try !isStored(completion.habitID) {
        throw .invalidArchive("\(entry) is of a habit that does not exist")
      }
    }

    var summary = HabitImportSummary()
    var processed = 0
    for start in stride(from: 0, to: archive.habits.count, by: importBatchSize) {
      let batch = archive.habits[start..<min(start + importBatchSize, archive.habits.count)]
      for habit in batch {
        if try isStored(habit.id) {
          summary.duplicates += 1
        } else {
          try habits.insert(habit)
          summary.habits += 1
        }
      }
      processed += batch.count
      progress(processed)
    }
    for start in stride(from: 0, to: archive.completions.count, by: importBatchSize) {
      let end = min(start + importBatchSize, archive.completions.count)
      for completion in archive.completions[start..<end] {
        if try completions.fetch(completion.habitID, completion.day) != nil {
          summary.duplicates += 1
        } else {
          try completions.insert(completion)
          summary.completions += 1
        }
      }
      processed += end - start
      progress(processed)
    }
    return summary
  }
}

/// Thrown at the end of a dry run to roll its transaction back, carrying its summary.
struct DryRun: Error {
  let summary: HabitImportSummary
}
