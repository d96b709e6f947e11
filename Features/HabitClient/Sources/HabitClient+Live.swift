import Foundation
import Loop
import Persistence

extension HabitClient {
  /// The model types the client stores, for opening a container shared with other clients.
  public static let models: [any PersistentModel.Type] = [Habit.self, Completion.self]

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
    live(opening: .inMemory)
  }

  /// A client on the SQLite file at `path`, created when missing.
  ///
  /// When the file cannot be opened, every endpoint throws ``HabitError/storage(_:)`` saying
  /// why.
  ///
  /// - Parameter path: The database file.
  /// - Returns: The client.
  public static func live(path: String) -> HabitClient {
    live(opening: .file(path))
  }

  /// The client over a new container on `storage`, or a client that throws the reason when it
  /// cannot be opened.
  static func live(opening storage: ModelContainer.Storage) -> HabitClient {
    do {
      return live(context: ModelContext(try ModelContainer(for: models, storage: storage)))
    } catch {
      return failing(.captured(error))
    }
  }

  /// A client whose every endpoint throws `error`: what ``liveValue`` is when the database
  /// cannot be opened.
  public static func failing(_ error: HabitError) -> HabitClient {
    live(.failure(error))
  }

  /// The use cases over two repositories, each run in one transaction of `context`.
  ///
  /// NB: the repositories are parameters so that a test can make one fail half-way through a
  /// use case and check that the transaction left nothing behind.
  static func live(
    context: ModelContext, habits: HabitRepository, completions: CompletionRepository
  ) -> HabitClient {
    live(.success(HabitStorage(context: context, habits: habits, completions: completions)))
  }

  /// Every endpoint over the storage, or throwing its error when there is none.
  private static func live(_ storage: Result<HabitStorage, HabitError>) -> HabitClient {
    HabitClient(
      archive: { try storage.get().archive($0) },
      complete: { try storage.get().complete($0, on: $1) },
      create: { try storage.get().create(name: $0) },
      delete: { try storage.get().delete($0) },
      // NB: the endpoints whose work grows with the data run off the caller's actor.
      exportHabits: { try await offMainActor { try storage.get().exportHabits() } },
      fetchHistories: { try await offMainActor { try storage.get().fetchHistories() } },
      rename: { try storage.get().rename($0, to: $1) },
      restoreHabits: { archive, dryRun, progress in
        try await offMainActor {
          try storage.get().restoreHabits(archive, dryRun: dryRun, progress: progress)
        }
      },
      unarchive: { try storage.get().unarchive($0) },
      uncomplete: { try storage.get().uncomplete($0, on: $1) }
    )
  }
}

/// The habit tracker's use cases over a model context and two repositories; every failure is a
/// `HabitError`, and each use case is one transaction.
struct HabitStorage: Sendable {
  let context: ModelContext
  let habits: HabitRepository
  let completions: CompletionRepository

  func archive(_ id: Habit.ID) throws(HabitError) -> Habit {
    @Dependency(\.date) var date
    let now = date.now
    return try transaction { () throws(HabitError) in
      var habit = try existing(id)
      try habit.archive(on: now)
      try habits.update(habit)
      return habit
    }
  }

  func complete(_ id: Habit.ID, on day: Day) throws(HabitError) -> Completion {
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
  }

  func create(name: String) throws(HabitError) -> Habit {
    let name = try Habit.validName(name)
    @Dependency(\.uuid) var uuid
    @Dependency(\.date) var date
    let habit = try Habit(id: Habit.ID(uuid()), name: name, createdAt: date.now)
    try transaction { () throws(HabitError) in try habits.insert(habit) }
    return habit
  }

  func delete(_ id: Habit.ID) throws(HabitError) -> Habit {
    try transaction { () throws(HabitError) in
      let habit = try existing(id)
      try completions.deleteAll(id)
      try habits.delete(id)
      return habit
    }
  }

  func exportHabits() throws(HabitError) -> HabitArchive {
    try transaction { () throws(HabitError) in
      var archive = HabitArchive()
      for habit in try habits.fetchAll() {
        archive.habits.append(habit)
        archive.completions += try completions.fetchAll(habit.id)
      }
      return archive
    }
  }

  func fetchHistories() throws(HabitError) -> [HabitHistory] {
    try transaction { () throws(HabitError) in
      var histories: [HabitHistory] = []
      for habit in try habits.fetchAll() {
        let days = try completions.fetchAll(habit.id).map(\.day)
        histories.append(HabitHistory(habit: habit, days: days))
      }
      return histories
    }
  }

  func rename(_ id: Habit.ID, to name: String) throws(HabitError) -> Habit {
    try transaction { () throws(HabitError) in
      var habit = try existing(id)
      try habit.rename(to: name)
      try habits.update(habit)
      return habit
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

  func unarchive(_ id: Habit.ID) throws(HabitError) -> Habit {
    try transaction { () throws(HabitError) in
      var habit = try existing(id)
      try habit.unarchive()
      try habits.update(habit)
      return habit
    }
  }

  func uncomplete(_ id: Habit.ID, on day: Day) throws(HabitError) -> Completion {
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

  // MARK: Helpers

  private func transaction<R>(_ body: () throws(HabitError) -> R) throws(HabitError) -> R {
    try HabitError.capturing { try context.transaction { _ in try body() } }
  }

  private func existing(_ id: Habit.ID) throws(HabitError) -> Habit {
    guard let habit = try habits.fetch(id) else { throw .habitNotFound(id) }
    return habit
  }

  /// Checks an archive, then stores what is new of it through the repositories; the caller
  /// runs it in a transaction.
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
    for start in stride(from: 0, to: archive.habits.count, by: HabitClient.importBatchSize) {
      // NB: a cancelled import (Ctrl-C) stops here, and the transaction rolls back.
      try HabitError.checkCancellation()
      let batch = archive.habits[
        start..<min(start + HabitClient.importBatchSize, archive.habits.count)]
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
    for start in stride(from: 0, to: archive.completions.count, by: HabitClient.importBatchSize) {
      try HabitError.checkCancellation()
      let end = min(start + HabitClient.importBatchSize, archive.completions.count)
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
