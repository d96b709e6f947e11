import Foundation
import Loop

/// The habits dependency: the use cases of the habit tracker, each one storage transaction.
///
/// Each endpoint states what it expects of the stored state and throws a ``HabitError`` when
/// that does not hold, changing nothing:
///
/// ```swift
/// @Dependency(\.habitClient) var habitClient
///
/// let habit = try await habitClient.addHabit("Read")
/// _ = try await habitClient.addCompletion(habit.id, today)
/// _ = try await habitClient.addCompletion(habit.id, today)  // HabitError.alreadyCompleted
/// ```
///
/// Underneath, the storage keeps two contracts: a habit is inserted (failing on an existing id)
/// or updated (failing on a missing one), never upserted; a completion is added or removed,
/// never edited, and a habit's completions are deleted with it.
///
/// Time, ids and the time zone come from dependencies, read when an endpoint is called (so in a
/// store's effect they are the store's): `\.date` for "now" (creation, archiving, completion
/// records, and which day is today), `\.uuid` for new ids, `\.timeZone` for which day an
/// instant falls on.
///
/// This module is the interface, on Loop alone: the endpoints, the models and ``HabitError``,
/// the rules of every endpoint on any ``HabitStorage`` (``init(storage:)``), the in-memory value
/// (``inMemory()``) and the test value. The storage in a database is `HabitClientLive`'s
/// (`live(context:)` over the app's shared container, `live(path:)` for a file of its own, and
/// the live value), which only the app's composition imports. An endpoint runs on its caller's
/// actor, except those whose work grows with the data (``fetchHistories``, ``exportHabits``,
/// ``restoreHabits``), which run off it.
public struct HabitClient: Sendable {
  /// Records that a habit was done on a day (today, or an earlier day being filled in).
  ///
  /// Any day up to today counts, even one before the habit was added: filling in the days
  /// already done is the first thing people do, and the habit's history (its streaks, rate and
  /// heat map) then starts at its earliest completion.
  ///
  /// Returns the new completion. Throws ``HabitError/habitNotFound(_:)``,
  /// ``HabitError/archived(name:)``, ``HabitError/dayInFuture(_:today:)``,
  /// ``HabitError/alreadyCompleted(name:day:)`` or ``HabitError/storageFailed(_:)``.
  public var addCompletion:
    nonisolated(nonsending) @Sendable (_ habitID: Habit.ID, _ day: Day) async throws ->
      Completion =
      unimplemented("HabitClient.addCompletion")

  /// Adds a habit with a name, trimmed, a new id and now as its creation date (insert).
  ///
  /// Returns the new habit. Throws ``HabitError/emptyName``, ``HabitError/duplicateID(_:)`` or
  /// ``HabitError/storageFailed(_:)``.
  public var addHabit: nonisolated(nonsending) @Sendable (_ name: String) async throws -> Habit =
    unimplemented("HabitClient.addHabit")

  /// Archives a habit as of now (fetch → ``HabitError/habitNotFound(_:)`` → archive → update).
  ///
  /// Returns the archived habit. Throws ``HabitError/habitNotFound(_:)``,
  /// ``HabitError/alreadyArchived(name:)`` or ``HabitError/storageFailed(_:)``.
  public var archiveHabit:
    nonisolated(nonsending) @Sendable (_ id: Habit.ID) async throws -> Habit =
      unimplemented("HabitClient.archiveHabit")

  /// Removes the completion of a habit on a day.
  ///
  /// Returns the removed completion. Throws ``HabitError/habitNotFound(_:)``,
  /// ``HabitError/archived(name:)``, ``HabitError/notCompleted(name:day:)`` or
  /// ``HabitError/storageFailed(_:)``.
  public var deleteCompletion:
    nonisolated(nonsending) @Sendable (_ habitID: Habit.ID, _ day: Day) async throws ->
      Completion =
      unimplemented("HabitClient.deleteCompletion")

  /// Deletes a habit and all of its completions, in one transaction: never one without the
  /// other.
  ///
  /// Returns the deleted habit. Throws ``HabitError/habitNotFound(_:)`` or
  /// ``HabitError/storageFailed(_:)``.
  public var deleteHabit: nonisolated(nonsending) @Sendable (_ id: Habit.ID) async throws -> Habit =
    unimplemented("HabitClient.deleteHabit")

  /// Every habit and every completion, read in one transaction (see ``HabitArchive``).
  ///
  /// Habits in list order (``Habit/isListed(_:before:)``); completions grouped by habit in that
  /// order, each habit's by day. Throws ``HabitError/storageFailed(_:)``.
  public var exportHabits: nonisolated(nonsending) @Sendable () async throws -> HabitArchive =
    unimplemented("HabitClient.exportHabits")

  /// Every habit with the days it was completed on, read in one transaction.
  ///
  /// In list order: active habits first, then archived ones; within each, by creation date,
  /// oldest first, then by id (``Habit/isListed(_:before:)``). Throws
  /// ``HabitError/storageFailed(_:)``.
  public var fetchHistories: nonisolated(nonsending) @Sendable () async throws -> [HabitHistory] =
    unimplemented("HabitClient.fetchHistories")

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
  /// were processed. Throws ``HabitError/invalidArchive(_:)`` or
  /// ``HabitError/storageFailed(_:)``.
  public var restoreHabits:
    nonisolated(nonsending) @Sendable (
      _ archive: HabitArchive, _ dryRun: Bool, _ progress: @escaping @Sendable (Int) -> Void
    ) async throws -> HabitImportSummary =
      unimplemented("HabitClient.restoreHabits")

  /// Makes an archived habit active again.
  ///
  /// Returns the active habit. Throws ``HabitError/habitNotFound(_:)``,
  /// ``HabitError/notArchived(name:)`` or ``HabitError/storageFailed(_:)``.
  public var unarchiveHabit:
    nonisolated(nonsending) @Sendable (_ id: Habit.ID) async throws -> Habit =
      unimplemented("HabitClient.unarchiveHabit")

  /// Gives a habit a new name, trimmed (fetch → ``HabitError/habitNotFound(_:)`` → update).
  ///
  /// Returns the renamed habit. Throws ``HabitError/habitNotFound(_:)``,
  /// ``HabitError/emptyName`` or ``HabitError/storageFailed(_:)``.
  public var updateHabit:
    nonisolated(nonsending) @Sendable (_ id: Habit.ID, _ name: String) async throws -> Habit =
      unimplemented("HabitClient.updateHabit")

  /// A client whose every endpoint reports an issue and throws (the test value): the live
  /// module sets each endpoint on it, and a test the ones it uses.
  public init() {}
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

extension HabitClient: TestDependencyKey {
  /// A client whose every endpoint reports an issue and throws: tests choose their storage
  /// (``inMemory()``), or set the endpoints they use
  /// (`$0.habitClient.addHabit = { … }`).
  ///
  /// NB: every endpoint defaults to `unimplemented`, so the list of endpoints is written once,
  /// above; ``init(storage:)`` sets each on ``init()``. The live value is
  /// `HabitClientLive`'s conformance to `DependencyKey`.
  public static var testValue: HabitClient { HabitClient() }
}

extension HabitClient {
  /// A client whose every endpoint throws `error`: what the live value is when the database
  /// cannot be opened, and what a test uses to show a failure.
  ///
  /// - Parameter error: The error every endpoint throws.
  /// - Returns: The client.
  public static func failing(_ error: HabitError) -> HabitClient {
    var client = HabitClient()
    client.addCompletion = { _, _ in throw error }
    client.addHabit = { _ in throw error }
    client.archiveHabit = { _ in throw error }
    client.deleteCompletion = { _, _ in throw error }
    client.deleteHabit = { _ in throw error }
    client.exportHabits = { throw error }
    client.fetchHistories = { throw error }
    client.restoreHabits = { _, _, _ in throw error }
    client.unarchiveHabit = { _ in throw error }
    client.updateHabit = { _, _ in throw error }
    return client
  }
}

extension DependencyValues {
  /// The habits client.
  public var habitClient: HabitClient {
    get { self[HabitClient.self] }
    set { self[HabitClient.self] = newValue }
  }
}
