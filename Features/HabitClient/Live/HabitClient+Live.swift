import Foundation
import HabitClient
import Loop
import Persistence

extension HabitClient: DependencyKey {
  /// The client on the app's database file (`ModelContainer.defaultFilePath()`); when it cannot
  /// be opened, every endpoint throws ``HabitError/storageFailed(_:)``.
  ///
  /// NB: the conformance is this module's, so a program resolves `\.habitClient` to it only
  /// when it links this module (the app's composition imports it); the interface declares the
  /// test value.
  public static let liveValue = HabitClient.live(path: ModelContainer.defaultFilePath())
}

extension HabitClient {
  /// The model types the client stores, for opening a container shared with other clients.
  public static let models: [any PersistentModel.Type] = [Habit.self, Completion.self]

  /// The client over a model context: the one implementation, in memory or on SQLite depending
  /// on the context's container.
  ///
  /// - Parameter context: A context whose container stores ``models``.
  /// - Returns: The client.
  public static func live(context: ModelContext) -> HabitClient {
    live(HabitStorage(context: context))
  }

  /// A client on the SQLite file at `path`, created when missing.
  ///
  /// When the file cannot be opened, every endpoint throws ``HabitError/storageFailed(_:)``
  /// saying why.
  ///
  /// - Parameter path: The database file.
  /// - Returns: The client.
  public static func live(path: String) -> HabitClient {
    live(opening: .file(path))
  }

  /// The client over a new container on `storage` (`.inMemory` for real storage gone with the
  /// client: what tests get as TestSupport's `inMemory()`), or a client that throws the reason
  /// when it cannot be opened.
  ///
  /// - Parameter storage: Where the container keeps its data.
  /// - Returns: The client.
  public static func live(opening storage: ModelContainer.Storage) -> HabitClient {
    do {
      return live(context: ModelContext(try ModelContainer(for: models, storage: storage)))
    } catch {
      return failing(.captured(error))
    }
  }

  /// Every endpoint over the storage.
  private static func live(_ storage: HabitStorage) -> HabitClient {
    var client = HabitClient()
    client.addCompletion = { try storage.addCompletion(to: $0, on: $1) }
    client.addHabit = { try storage.addHabit(name: $0) }
    client.archiveHabit = { try storage.archiveHabit(id: $0) }
    client.deleteCompletion = { try storage.deleteCompletion(of: $0, on: $1) }
    client.deleteHabit = { try storage.deleteHabit(id: $0) }
    // NB: the endpoints whose work grows with the data run off the caller's actor.
    client.exportHabits = { try await offMainActor { try storage.exportHabits() } }
    client.fetchHistories = { try await offMainActor { try storage.fetchHistories() } }
    client.restoreHabits = { archive, dryRun, progress in
      try await offMainActor {
        try storage.restoreHabits(archive, dryRun: dryRun, progress: progress)
      }
    }
    client.unarchiveHabit = { try storage.unarchiveHabit(id: $0) }
    client.updateHabit = { try storage.updateHabit(id: $0, name: $1) }
    return client
  }
}

/// The habit tracker's use cases over a model context; every failure is a `HabitError`, and
/// each use case is one transaction.
///
/// The use cases reach the stored rows only through the contracts at the end (`insert`,
/// `update`, `delete`, `fetch`): a habit is inserted or updated, never upserted, so that adding
/// one cannot overwrite another and changing one cannot create it; a completion is inserted or
/// deleted, never edited.
struct HabitStorage: Sendable {
  let context: ModelContext

  func addCompletion(to id: Habit.ID, on day: Day) throws(HabitError) -> Completion {
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
        try insert(completion)
      } catch {
        guard case .duplicateCompletion = error else { throw error }
        throw .alreadyCompleted(name: habit.name, day: day)
      }
      return completion
    }
  }

  func addHabit(name: String) throws(HabitError) -> Habit {
    let name = try Habit.validName(name)
    @Dependency(\.uuid) var uuid
    @Dependency(\.date) var date
    let habit = try Habit(id: Habit.ID(uuid()), name: name, createdAt: date.now)
    try transaction { () throws(HabitError) in try insert(habit) }
    return habit
  }

  func archiveHabit(id: Habit.ID) throws(HabitError) -> Habit {
    @Dependency(\.date) var date
    let now = date.now
    return try transaction { () throws(HabitError) in
      var habit = try existing(id)
      try habit.archive(on: now)
      try update(habit)
      return habit
    }
  }

  func deleteCompletion(of id: Habit.ID, on day: Day) throws(HabitError) -> Completion {
    try transaction { () throws(HabitError) in
      let habit = try existing(id)
      guard !habit.isArchived else { throw .archived(name: habit.name) }
      guard let completion = try fetch(habitID: id, completedOn: day) else {
        throw .notCompleted(name: habit.name, day: day)
      }
      try delete(habitID: id, completedOn: day)
      return completion
    }
  }

  func deleteHabit(id: Habit.ID) throws(HabitError) -> Habit {
    try transaction { () throws(HabitError) in
      let habit = try existing(id)
      try deleteAll(for: id)
      try delete(id: id)
      return habit
    }
  }

  func exportHabits() throws(HabitError) -> HabitArchive {
    try transaction { () throws(HabitError) in
      var archive = HabitArchive()
      for habit in try fetchAll() {
        archive.habits.append(habit)
        archive.completions += try fetchAll(for: habit.id)
      }
      return archive
    }
  }

  func fetchHistories() throws(HabitError) -> [HabitHistory] {
    try transaction { () throws(HabitError) in
      var histories: [HabitHistory] = []
      for habit in try fetchAll() {
        let days = try fetchAll(for: habit.id).map(\.day)
        histories.append(HabitHistory(habit: habit, days: days))
      }
      return histories
    }
  }

  func restoreHabits(
    _ archive: HabitArchive, dryRun: Bool, progress: @escaping @Sendable (Int) -> Void
  ) throws(HabitError) -> HabitImportSummary {
    try HabitError.capturing {
      try context.transaction(rollingBack: dryRun) { _ in
        try restore(archive, progress: progress)
      }
    }
  }

  func unarchiveHabit(id: Habit.ID) throws(HabitError) -> Habit {
    try transaction { () throws(HabitError) in
      var habit = try existing(id)
      try habit.unarchive()
      try update(habit)
      return habit
    }
  }

  func updateHabit(id: Habit.ID, name: String) throws(HabitError) -> Habit {
    try transaction { () throws(HabitError) in
      var habit = try existing(id)
      try habit.rename(to: name)
      try update(habit)
      return habit
    }
  }

  // MARK: Habits: inserted or updated, never upserted

  /// Stores a new habit; ``HabitError/duplicateID(_:)`` when a habit has its id (nothing is
  /// written then).
  func insert(_ habit: Habit) throws(HabitError) {
    try HabitError.capturing(duplicateID: .duplicateID(habit.id)) { try context.insert(habit) }
  }

  /// Replaces the stored habit with the habit's id; ``HabitError/habitNotFound(_:)`` when there
  /// is none (nothing is written then).
  func update(_ habit: Habit) throws(HabitError) {
    try HabitError.capturing(notFound: .habitNotFound(habit.id)) { try context.update(habit) }
  }

  /// Deletes the habit with an id, not its completions; ``HabitError/habitNotFound(_:)`` when
  /// there is none.
  func delete(id: Habit.ID) throws(HabitError) {
    try HabitError.capturing(notFound: .habitNotFound(id)) {
      try context.delete(Habit.self, id: id)
    }
  }

  /// The habit with an id, or `nil`.
  func fetch(id: Habit.ID) throws(HabitError) -> Habit? {
    try HabitError.capturing { try context.fetch(Habit.self, id: id) }
  }

  /// Every habit, in list order (``Habit/isListed(_:before:)``).
  func fetchAll() throws(HabitError) -> [Habit] {
    // NB: sorted in Swift: "active first" is not a column, and habits are few.
    try HabitError.capturing { try context.fetchAll(Habit.self) }.sorted(
      by: Habit.isListed(_:before:))
  }

  // MARK: Completions: inserted or deleted, never edited

  /// Stores a new completion; ``HabitError/duplicateCompletion(_:_:)`` when the habit has one
  /// on that day (nothing is written then).
  func insert(_ completion: Completion) throws(HabitError) {
    try HabitError.capturing(
      duplicateID: .duplicateCompletion(completion.habitID, completion.day)
    ) {
      try context.insert(completion)
    }
  }

  /// Deletes the completion of a habit on a day; ``HabitError/completionNotFound(_:_:)`` when
  /// there is none.
  func delete(habitID: Habit.ID, completedOn day: Day) throws(HabitError) {
    try HabitError.capturing(notFound: .completionNotFound(habitID, day)) {
      try context.delete(Completion.self, id: Completion.ID(habitID: habitID, day: day))
    }
  }

  /// Deletes every completion of a habit, as deleting the habit does; none is fine.
  func deleteAll(for habitID: Habit.ID) throws(HabitError) {
    _ = try HabitError.capturing {
      try context.delete(Completion.self, where: #Predicate { $0.habitID == habitID })
    }
  }

  /// The completion of a habit on a day, or `nil`.
  func fetch(habitID: Habit.ID, completedOn day: Day) throws(HabitError) -> Completion? {
    try HabitError.capturing {
      try context.fetch(Completion.self, id: Completion.ID(habitID: habitID, day: day))
    }
  }

  /// Every completion of a habit, by day, earliest first (one a day at most: no ties).
  func fetchAll(for habitID: Habit.ID) throws(HabitError) -> [Completion] {
    try HabitError.capturing {
      try context.fetchAll(
        Completion.self, predicate: #Predicate { $0.habitID == habitID },
        sortBy: [SortDescriptor(\.day)])
    }
  }

  // MARK: Helpers

  private func transaction<R>(_ body: () throws(HabitError) -> R) throws(HabitError) -> R {
    try HabitError.capturing { try context.transaction { _ in try body() } }
  }

  private func existing(_ id: Habit.ID) throws(HabitError) -> Habit {
    guard let habit = try fetch(id: id) else { throw .habitNotFound(id) }
    return habit
  }

  /// Checks an archive, then stores what is new of it; the caller runs it in a transaction.
  private func restore(_ archive: HabitArchive, progress: (Int) -> Void) throws(HabitError)
    -> HabitImportSummary
  {
    var archived: Set<Habit.ID> = []
    for habit in archive.habits where !archived.insert(habit.id).inserted {
      throw .invalidArchive("habit '\(habit.id)' appears twice")
    }
    var stored: [Habit.ID: Bool] = [:]
    func isStored(_ id: Habit.ID) throws(HabitError) -> Bool {
      if let known = stored[id] { return known }
      let found = try fetch(id: id) != nil
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
    for start in stride(from: 0, to: archive.habits.count, by: HabitClient.importBatchSize) {
      // NB: a cancelled import (Ctrl-C) stops here, and the transaction rolls back.
      try HabitError.checkCancellation()
      let batch = archive.habits[
        start..<min(start + HabitClient.importBatchSize, archive.habits.count)]
      for habit in batch {
        if try isStored(habit.id) {
          summary.duplicates += 1
        } else {
          try insert(habit)
          summary.habits += 1
        }
      }
      processed += batch.count
      progress(processed)
    }
    for start in stride(from: 0, to: archive.completions.count, by: HabitClient.importBatchSize) {
      try HabitError.checkCancellation()
      let end = min(start + HabitClient.importBatchSize, archive.completions.count)
      for completion in archive.completions[start..<end] {
        if try fetch(habitID: completion.habitID, completedOn: completion.day) != nil {
          summary.duplicates += 1
        } else {
          try insert(completion)
          summary.completions += 1
        }
      }
      processed += end - start
      progress(processed)
    }
    return summary
  }
}
