import Foundation
import Loop
import Persistence

/// The habits dependency: the use cases of the habit tracker, each one storage transaction over
/// a ``HabitRepository`` and a ``CompletionRepository``.
///
/// Each endpoint states what it expects of the stored state and throws a ``HabitError`` when
/// that does not hold, changing nothing:
///
/// ```swift
/// @Dependency(\.habitClient) var habitClient
///
/// let habit = try await habitClient.create("Read")
/// _ = try await habitClient.complete(habit.id, today)
/// _ = try await habitClient.complete(habit.id, today)  // HabitError.alreadyCompleted
/// ```
///
/// Time, ids and the time zone come from dependencies, read when an endpoint is called (so in a
/// store's effect they are the store's): `\.date` for "now" (creation, archiving, completion
/// records, and which day is today), `\.uuid` for new ids, `\.timeZone` for which day an
/// instant falls on.
///
/// Build it with ``live(context:)`` over the app's shared container, ``inMemory()`` for tests
/// and previews (real storage, in memory), or ``live(path:)`` for a file of its own; all three
/// run the same code. An endpoint runs on its caller's actor, except those whose work grows
/// with the data (``fetchHistories``, ``exportHabits``, ``restoreHabits``), which the live
/// value runs off it (Persistence's `offMainActor(_:)`).
public struct HabitClient: Sendable {
  /// Archives a habit as of now (fetch → ``HabitError/habitNotFound(_:)`` → archive → update).
  ///
  /// Returns the archived habit. Throws ``HabitError/habitNotFound(_:)``,
  /// ``HabitError/alreadyArchived(name:)`` or ``HabitError/storage(_:)``.
  public var archive: nonisolated(nonsending) @Sendable (Habit.ID) async throws -> Habit =
    unimplemented("HabitClient.archive")

  /// Records that a habit was done on a day (today, or an earlier day being filled in).
  ///
  /// Any day up to today counts, even one before the habit was added: filling in the days
  /// already done is the first thing people do, and the habit's history (its streaks, rate and
  /// heat map) then starts at its earliest completion.
  ///
  /// Returns the new completion. Throws ``HabitError/habitNotFound(_:)``,
  /// ``HabitError/archived(name:)``, ``HabitError/dayInFuture(_:today:)``,
  /// ``HabitError/alreadyCompleted(name:day:)`` or ``HabitError/storage(_:)``.
  public var complete:
    nonisolated(nonsending) @Sendable (Habit.ID, Day) async throws -> Completion =
      unimplemented("HabitClient.complete")

  /// Creates a habit with a name, trimmed, a new id and now as its creation date (insert).
  ///
  /// Returns the new habit. Throws ``HabitError/emptyName``, ``HabitError/duplicateID(_:)`` or
  /// ``HabitError/storage(_:)``.
  public var create: nonisolated(nonsending) @Sendable (String) async throws -> Habit =
    unimplemented("HabitClient.create")

  /// Deletes a habit and all of its completions, in one transaction: never one without the
  /// other.
  ///
  /// Returns the deleted habit. Throws ``HabitError/habitNotFound(_:)`` or
  /// ``HabitError/storage(_:)``.
  public var delete: nonisolated(nonsending) @Sendable (Habit.ID) async throws -> Habit =
    unimplemented("HabitClient.delete")

  /// Every habit and every completion, read in one transaction (see ``HabitArchive``).
  ///
  /// Habits in list order (``Habit/isListed(_:before:)``); completions grouped by habit in that
  /// order, each habit's by day. Throws ``HabitError/storage(_:)``.
  public var exportHabits: nonisolated(nonsending) @Sendable () async throws -> HabitArchive =
    unimplemented("HabitClient.exportHabits")

  /// Every habit with the days it was completed on, read in one transaction.
  ///
  /// In list order: active habits first, then archived ones; within each, by creation date,
  /// oldest first, then by id (``Habit/isListed(_:before:)``). Throws ``HabitError/storage(_:)``.
  public var fetchHistories: nonisolated(nonsending) @Sendable () async throws -> [HabitHistory] =
    unimplemented("HabitClient.fetchHistories")

  /// Gives a habit a new name, trimmed (fetch → ``HabitError/habitNotFound(_:)`` → update).
  ///
  /// Returns the renamed habit. Throws ``HabitError/habitNotFound(_:)``,
  /// ``HabitError/emptyName`` or ``HabitError/storage(_:)``.
  public var rename: nonisolated(nonsending) @Sendable (Habit.ID, String) async throws -> Habit =
    unimplemented("HabitClient.rename")

  /// Stores an archive's habits and completions with their own ids and dates, in one
  /// transaction: into an empty database, ``exportHabits`` then returns the same archive.
  ///
  /// The archive is checked first: ``HabitError/invalidArchive(_:)`` names a habit that appears
  /// twice, a completion that appears twice or whose habit exists nowhere (nothing is written).
  /// A habit whose id is stored, and a completion stored already, are skipped as duplicates.
  ///
  /// With `dryRun` the restore runs in full and is then rolled back, so the summary says what
  /// it would do. `progress` is called, on the restoring task, after every
  /// ``importBatchSize`` entries (habits, then completions) and after the last, with how many
  /// were processed. Throws ``HabitError/invalidArchive(_:)`` or ``HabitError/storage(_:)``.
  public var restoreHabits:
    nonisolated(nonsending) @Sendable (
      _ archive: HabitArchive, _ dryRun: Bool, _ progress: @escaping @Sendable (Int) -> Void
    ) async throws -> HabitImportSummary =
      unimplemented("HabitClient.restoreHabits")

  /// Makes an archived habit active again.
  ///
  /// Returns the active habit. Throws ``HabitError/habitNotFound(_:)``,
  /// ``HabitError/notArchived(name:)`` or ``HabitError/storage(_:)``.
  public var unarchive: nonisolated(nonsending) @Sendable (Habit.ID) async throws -> Habit =
    unimplemented("HabitClient.unarchive")

  /// Removes the completion of a habit on a day.
  ///
  /// Returns the removed completion. Throws ``HabitError/habitNotFound(_:)``,
  /// ``HabitError/archived(name:)``, ``HabitError/notCompleted(name:day:)`` or
  /// ``HabitError/storage(_:)``.
  public var uncomplete:
    nonisolated(nonsending) @Sendable (Habit.ID, Day) async throws -> Completion =
      unimplemented("HabitClient.uncomplete")
}

extension HabitClient {
  /// How many entries ``restoreHabits`` writes between two calls of its `progress`.
  public static let importBatchSize = 1_000

  /// Stores an archive, for real and without progress unless told; see ``restoreHabits``.
  public nonisolated(nonsending) func restoreHabits(
    _ archive: HabitArchive, dryRun: Bool = false,
    progress: @escaping @Sendable (Int) -> Void = { _ in }
  ) async throws -> HabitImportSummary {
    try await restoreHabits(archive, dryRun, progress)
  }
}

// MARK: - Dependency

extension HabitClient: DependencyKey {
  /// The client on the app's database file (`ModelContainer.defaultFilePath()`); when it cannot
  /// be opened, every endpoint throws ``HabitError/storage(_:)``.
  public static let liveValue = HabitClient.live(path: ModelContainer.defaultFilePath())

  /// A client whose every endpoint reports an issue and throws: tests choose their storage,
  /// usually ``inMemory()``, or set the endpoints they use (`$0.habitClient.create = { … }`).
  ///
  /// NB: every endpoint defaults to `unimplemented`, so the list of endpoints is written once,
  /// above; ``live(context:)`` sets each through the memberwise initializer.
  public static var testValue: HabitClient { HabitClient() }
}

extension DependencyValues {
  /// The habits client.
  public var habitClient: HabitClient {
    get { self[HabitClient.self] }
    set { self[HabitClient.self] = newValue }
  }
}
