import Foundation
import Loop

/// What a storage of habits must do: the two contracts every endpoint of ``HabitClient`` is
/// written on, and transactions.
///
/// A habit is inserted (failing on an existing id) or updated (failing on a missing one), never
/// upserted, so that adding one cannot overwrite another and changing one cannot create it; a
/// completion is inserted or deleted, never edited. Each requirement throws only a
/// ``HabitError``, and a failed one changes nothing.
///
/// ``HabitClient/init(storage:)`` builds every endpoint on these requirements, so the rules of
/// the endpoints are written once: `HabitClientLive` keeps habits in a `ModelContext`, and
/// ``HabitClient/inMemory()`` in memory, and both pass the same tests.
public protocol HabitStorage: Sendable {
  /// Runs `body` as one transaction: its writes stay together when it returns (unless
  /// `rollingBack`, for a dry run), and none of them stays when it throws.
  func transaction<R>(
    rollingBack: Bool, _ body: () throws(HabitError) -> R
  ) throws(HabitError) -> R

  /// Stores a new habit; ``HabitError/duplicateID(_:)`` when a habit has its id.
  func insert(_ habit: Habit) throws(HabitError)

  /// Replaces the stored habit with the habit's id; ``HabitError/habitNotFound(_:)`` when there
  /// is none.
  func update(_ habit: Habit) throws(HabitError)

  /// Deletes the habit with an id, not its completions; ``HabitError/habitNotFound(_:)`` when
  /// there is none.
  func delete(id: Habit.ID) throws(HabitError)

  /// The habit with an id, or `nil`.
  func fetch(id: Habit.ID) throws(HabitError) -> Habit?

  /// Every habit, in list order (``Habit/isListed(_:before:)``).
  func fetchAll() throws(HabitError) -> [Habit]

  /// Stores a new completion; ``HabitError/duplicateCompletion(_:_:)`` when the habit has one
  /// on that day.
  func insert(_ completion: Completion) throws(HabitError)

  /// Deletes the completion of a habit on a day; ``HabitError/completionNotFound(_:_:)`` when
  /// there is none.
  func delete(habitID: Habit.ID, completedOn day: Day) throws(HabitError)

  /// Deletes every completion of a habit, as deleting the habit does; none is fine.
  func deleteAll(for habitID: Habit.ID) throws(HabitError)

  /// The completion of a habit on a day, or `nil`.
  func fetch(habitID: Habit.ID, completedOn day: Day) throws(HabitError) -> Completion?

  /// Every completion of a habit, by day, earliest first.
  func fetchAll(for habitID: Habit.ID) throws(HabitError) -> [Completion]
}

extension HabitClient {
  /// The client whose every endpoint follows its rules on `storage`, one transaction each.
  ///
  /// The endpoints whose work grows with the data (``fetchHistories``, ``exportHabits``,
  /// ``restoreHabits``) run off the caller's actor.
  public init(storage: some HabitStorage) {
    self.init()
    addCompletion = { try storage.addCompletion(to: $0, on: $1) }
    addHabit = { try storage.addHabit(name: $0) }
    archiveHabit = { try storage.archiveHabit(id: $0) }
    deleteCompletion = { try storage.deleteCompletion(of: $0, on: $1) }
    deleteHabit = { try storage.deleteHabit(id: $0) }
    exportHabits = { try await offMainActor { try storage.exportHabits() } }
    fetchHistories = { try await offMainActor { try storage.fetchHistories() } }
    restoreHabits = { archive, dryRun, progress in
      try await offMainActor {
        try storage.restoreHabits(archive, dryRun: dryRun, progress: progress)
      }
    }
    unarchiveHabit = { try storage.unarchiveHabit(id: $0) }
    updateHabit = { try storage.updateHabit(id: $0, name: $1) }
  }
}

// MARK: - The rules, on the contracts

extension HabitStorage {
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
    try transaction(rollingBack: dryRun) { () throws(HabitError) in
      try restore(archive, progress: progress)
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

  // MARK: Helpers

  func transaction<R>(_ body: () throws(HabitError) -> R) throws(HabitError) -> R {
    try transaction(rollingBack: false, body)
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
