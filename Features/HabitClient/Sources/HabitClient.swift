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
/// run the same code.
public struct HabitClient: Sendable {
  /// Archives a habit as of now (fetch → ``HabitError/habitNotFound(_:)`` → archive → update).
  ///
  /// Returns the archived habit. Throws ``HabitError/habitNotFound(_:)``,
  /// ``HabitError/alreadyArchived(name:)`` or ``HabitError/storage(_:)``.
  public var archive: nonisolated(nonsending) @Sendable (Habit.ID) async throws -> Habit

  /// Records that a habit was done on a day (today, or an earlier day being filled in).
  ///
  /// Any day up to today counts, even one before the habit was added: filling in the days
  /// already done is the first thing people do, and the habit's history (its streaks, rate and
  /// heat map) then starts at its earliest completion.
  ///
  /// Returns the new completion. Throws ``HabitError/habitNotFound(_:)``,
  /// ``HabitError/archived(name:)``, ``HabitError/dayInFuture(_:today:)``,
  /// ``HabitError/alreadyCompleted(name:day:)`` or ``HabitError/storage(_:)``.
  public var complete: nonisolated(nonsending) @Sendable (Habit.ID, Day) async throws -> Completion

  /// Creates a habit with a name, trimmed, a new id and now as its creation date (insert).
  ///
  /// Returns the new habit. Throws ``HabitError/emptyName``, ``HabitError/duplicateID(_:)`` or
  /// ``HabitError/storage(_:)``.
  public var create: nonisolated(nonsending) @Sendable (String) async throws -> Habit

  /// Deletes a habit and all of its completions, in one transaction: never one without the
  /// other.
  ///
  /// Returns the deleted habit. Throws ``HabitError/habitNotFound(_:)`` or
  /// ``HabitError/storage(_:)``.
  public var delete: nonisolated(nonsending) @Sendable (Habit.ID) async throws -> Habit

  /// Every habit and every completion, read in one transaction (see ``HabitArchive``).
  ///
  /// Habits in list order (``Habit/isListed(_:before:)``); completions grouped by habit in that
  /// order, each habit's by day. Throws ``HabitError/storage(_:)``.
  public var exportHabits: nonisolated(nonsending) @Sendable () async throws -> HabitArchive

  /// Every habit with the days it was completed on, read in one transaction.
  ///
  /// In list order: active habits first, then archived ones; within each, by creation date,
  /// oldest first, then by id (``Habit/isListed(_:before:)``). Throws ``HabitError/storage(_:)``.
  public var fetchHistories: nonisolated(nonsending) @Sendable () async throws -> [HabitHistory]

  /// Gives a habit a new name, trimmed (fetch → ``HabitError/habitNotFound(_:)`` → update).
  ///
  /// Returns the renamed habit. Throws ``HabitError/habitNotFound(_:)``,
  /// ``HabitError/emptyName`` or ``HabitError/storage(_:)``.
  public var rename: nonisolated(nonsending) @Sendable (Habit.ID, String) async throws -> Habit

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
    ) async throws -> HabitImportSummary

  /// Makes an archived habit active again.
  ///
  /// Returns the active habit. Throws ``HabitError/habitNotFound(_:)``,
  /// ``HabitError/notArchived(name:)`` or ``HabitError/storage(_:)``.
  public var unarchive: nonisolated(nonsending) @Sendable (Habit.ID) async throws -> Habit

  /// Removes the completion of a habit on a day.
  ///
  /// Returns the removed completion. Throws ``HabitError/habitNotFound(_:)``,
  /// ``HabitError/archived(name:)``, ``HabitError/notCompleted(name:day:)`` or
  /// ``HabitError/storage(_:)``.
  public var uncomplete:
    nonisolated(nonsending) @Sendable (Habit.ID, Day) async throws -> Completion

  /// Creates a client from its endpoints (tests override single endpoints instead).
  ///
  /// - Parameters:
  ///   - archive: Archives a habit.
  ///   - complete: Completes a habit on a day.
  ///   - create: Creates a habit.
  ///   - delete: Deletes a habit and its completions.
  ///   - exportHabits: Every habit and completion.
  ///   - fetchHistories: Fetches every habit with its completed days.
  ///   - rename: Renames a habit.
  ///   - restoreHabits: Stores an archive's habits and completions.
  ///   - unarchive: Unarchives a habit.
  ///   - uncomplete: Removes a habit's completion on a day.
  public init(
    archive: nonisolated(nonsending) @escaping @Sendable (Habit.ID) async throws -> Habit,
    complete:
      nonisolated(nonsending) @escaping @Sendable (Habit.ID, Day) async throws -> Completion,
    create: nonisolated(nonsending) @escaping @Sendable (String) async throws -> Habit,
    delete: nonisolated(nonsending) @escaping @Sendable (Habit.ID) async throws -> Habit,
    exportHabits: nonisolated(nonsending) @escaping @Sendable () async throws -> HabitArchive,
    fetchHistories: nonisolated(nonsending) @escaping @Sendable () async throws -> [HabitHistory],
    rename: nonisolated(nonsending) @escaping @Sendable (Habit.ID, String) async throws -> Habit,
    restoreHabits:
      nonisolated(nonsending) @escaping @Sendable (
        HabitArchive, Bool, @escaping @Sendable (Int) -> Void
      ) async throws -> HabitImportSummary,
    unarchive: nonisolated(nonsending) @escaping @Sendable (Habit.ID) async throws -> Habit,
    uncomplete:
      nonisolated(nonsending) @escaping @Sendable (Habit.ID, Day) async throws -> Completion
  ) {
    self.archive = archive
    self.complete = complete
    self.create = create
    self.delete = delete
    self.exportHabits = exportHabits
    self.fetchHistories = fetchHistories
    self.rename = rename
    self.restoreHabits = restoreHabits
    self.unarchive = unarchive
    self.uncomplete = uncomplete
  }

  /// The model types the client stores, for opening a container shared with other clients.
  public static let models: [any PersistentModel.Type] = [Habit.self, Completion.self]
}

// MARK: - Values

extension HabitClient {
  /// The client over a model context: the one implementation, in memory or on SQLite depending
  /// on the context's container.
  ///
  /// - Parameter context: A context whose container stores ``models``.
  /// - Returns: The client.
  public static func live(context: ModelContext) -> HabitClient {
    live(
      context: context, habits: .live(context: context), completions: .live(context: context))
  }

  /// A client on a fresh in-memory container: real storage, gone with the client.
  ///
  /// - Returns: The client.
  public static func inMemory() -> HabitClient {
    opening(.inMemory)
  }

  /// A client on the SQLite file at `path`, created when missing.
  ///
  /// When the file cannot be opened, every endpoint throws ``HabitError/storage(_:)`` saying
  /// why.
  ///
  /// - Parameter path: The database file.
  /// - Returns: The client.
  public static func live(path: String) -> HabitClient {
    opening(.file(path))
  }

  private static func opening(_ storage: ModelContainer.Storage) -> HabitClient {
    do {
      return live(context: ModelContext(try ModelContainer(for: models, storage: storage)))
    } catch {
      return failing(.storage(String(describing: error)))
    }
  }

  /// A client whose every endpoint throws `error`.
  static func failing(_ error: HabitError) -> HabitClient {
    HabitClient(
      archive: { _ in throw error },
      complete: { _, _ in throw error },
      create: { _ in throw error },
      delete: { _ in throw error },
      exportHabits: { throw error },
      fetchHistories: { throw error },
      rename: { _, _ in throw error },
      restoreHabits: { _, _, _ in throw error },
      unarchive: { _ in throw error },
      uncomplete: { _, _ in throw error }
    )
  }

  /// The use cases over two repositories, each run in one transaction of `context`.
  ///
  /// NB: the repositories are parameters so that a test can make one fail half-way through a
  /// use case and check that the transaction left nothing behind.
  static func live(
    context: ModelContext, habits: HabitRepository, completions: CompletionRepository
  ) -> HabitClient {
    @Sendable func transaction<R>(_ body: () throws(HabitError) -> R) throws(HabitError) -> R {
      try storing { try context.transaction { _ in try body() } }
    }

    @Sendable func existing(_ id: Habit.ID) throws(HabitError) -> Habit {
      guard let habit = try habits.fetch(id) else { throw .habitNotFound(id) }
      return habit
    }

    return HabitClient(
      archive: { id in
        @Dependency(\.date) var date
        let now = date.now
        return try transaction { () throws(HabitError) in
          var habit = try existing(id)
          try habit.archive(on: now)
          try habits.update(habit)
          return habit
        }
      },
      complete: { id, day in
        @Dependency(\.date) var date
        @Dependency(\.timeZone) var timeZone
        let now = date.now
        let today = Day(now, in: timeZone)
        return try transaction { () throws(HabitError) in
          let habit = try existing(id)
          guard !habit.isArchived else { throw .archived(name: habit.name) }
          guard day <= today else { throw .dayInFuture(day, today: today) }
          let completion = Completion(habitID: id, day: day, createdAt: now)
          do throws(HabitError) {
            try completions.insert(completion)
          } catch {
            guard case .duplicateCompletion = error else { throw error }
            throw .alreadyCompleted(name: habit.name, day: day)
          }
          return completion
        }
      },
      create: { name in
        let name = try Habit.validName(name)
        @Dependency(\.uuid) var uuid
        @Dependency(\.date) var date
        let habit = try Habit(id: Habit.ID(uuid()), name: name, createdAt: date.now)
        try transaction { () throws(HabitError) in try habits.insert(habit) }
        return habit
      },
      delete: { id in
        try transaction { () throws(HabitError) in
          let habit = try existing(id)
          try completions.deleteAll(id)
          try habits.delete(id)
          return habit
        }
      },
      exportHabits: {
        try transaction { () throws(HabitError) in
          var archive = HabitArchive()
          for habit in try habits.fetchAll() {
            archive.habits.append(habit)
            archive.completions += try completions.fetchAll(habit.id)
          }
          return archive
        }
      },
      fetchHistories: {
        try transaction { () throws(HabitError) in
          var histories: [HabitHistory] = []
          for habit in try habits.fetchAll() {
            let days = try completions.fetchAll(habit.id).map(\.day)
            histories.append(HabitHistory(habit: habit, days: days))
          }
          return histories
        }
      },
      rename: { id, name in
        try transaction { () throws(HabitError) in
          var habit = try existing(id)
          try habit.rename(to: name)
          try habits.update(habit)
          return habit
        }
      },
      restoreHabits: { archive, dryRun, progress in
        try storing {
          do {
            return try context.transaction { _ in
              let summary = try restore(
                archive, habits: habits, completions: completions, progress: progress)
              if dryRun { throw DryRun(summary: summary) }
              return summary
            }
          } catch let dryRun as DryRun {
            return dryRun.summary
          }
        }
      },
      unarchive: { id in
        try transaction { () throws(HabitError) in
          var habit = try existing(id)
          try habit.unarchive()
          try habits.update(habit)
          return habit
        }
      },
      uncomplete: { id, day in
        try transaction { () throws(HabitError) in
          let habit = try existing(id)
          guard !habit.isArchived else { throw .archived(name: habit.name) }
          guard let completion = try completions.fetch(id, day) else {
            throw .notCompleted(name: habit.name, day: day)
          }
          try completions.delete(id, day)
          return completion
        }
      }
    )
  }
}

// MARK: - Dependency

extension HabitClient: DependencyKey {
  /// The client on the app's database file (`ModelContainer.defaultFilePath()`); when it cannot
  /// be opened, every endpoint throws ``HabitError/storage(_:)``.
  public static let liveValue = HabitClient.live(path: ModelContainer.defaultFilePath())

  /// A client whose every endpoint reports an issue and throws: tests choose their storage,
  /// usually ``inMemory()``.
  public static let testValue = HabitClient(
    archive: unimplemented("HabitClient.archive"),
    complete: unimplemented("HabitClient.complete"),
    create: unimplemented("HabitClient.create"),
    delete: unimplemented("HabitClient.delete"),
    exportHabits: unimplemented("HabitClient.exportHabits"),
    fetchHistories: unimplemented("HabitClient.fetchHistories"),
    rename: unimplemented("HabitClient.rename"),
    restoreHabits: unimplemented("HabitClient.restoreHabits"),
    unarchive: unimplemented("HabitClient.unarchive"),
    uncomplete: unimplemented("HabitClient.uncomplete")
  )
}

extension DependencyValues {
  /// The habits client.
  public var habitClient: HabitClient {
    get { self[HabitClient.self] }
    set { self[HabitClient.self] = newValue }
  }
}
