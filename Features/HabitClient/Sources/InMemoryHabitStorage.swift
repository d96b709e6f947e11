import Foundation
import Loop

extension HabitClient {
  /// A client on a fresh, empty storage in memory, gone with the client: what previews and
  /// tests use.
  ///
  /// Its endpoints follow the same rules as the live client's (``init(storage:)``), on this
  /// module's own storage, so a feature's tests need neither a database nor `HabitClientLive`.
  public static func inMemory() -> HabitClient {
    HabitClient(storage: InMemoryHabitStorage())
  }
}

/// The storage contracts of ``HabitStorage`` on dictionaries in memory.
struct InMemoryHabitStorage: HabitStorage {
  struct Rows: Sendable {
    var habits: [Habit.ID: Habit] = [:]
    var completions: [Completion.ID: Completion] = [:]
  }

  let rows = TransactionalValue(Rows())

  func transaction<R>(
    rollingBack: Bool, _ body: () throws(HabitError) -> R
  ) throws(HabitError) -> R {
    try rows.transaction(rollingBack: rollingBack, body)
  }

  func insert(_ habit: Habit) throws(HabitError) {
    try rows.withValue { rows throws(HabitError) in
      guard rows.habits[habit.id] == nil else { throw .duplicateID(habit.id) }
      rows.habits[habit.id] = habit
    }
  }

  func update(_ habit: Habit) throws(HabitError) {
    try rows.withValue { rows throws(HabitError) in
      guard rows.habits[habit.id] != nil else { throw .habitNotFound(habit.id) }
      rows.habits[habit.id] = habit
    }
  }

  func delete(id: Habit.ID) throws(HabitError) {
    try rows.withValue { rows throws(HabitError) in
      guard rows.habits.removeValue(forKey: id) != nil else { throw .habitNotFound(id) }
    }
  }

  func fetch(id: Habit.ID) -> Habit? {
    rows.withValue { $0.habits[id] }
  }

  func fetchAll() -> [Habit] {
    rows.withValue { $0.habits.values.sorted(by: Habit.isListed(_:before:)) }
  }

  func insert(_ completion: Completion) throws(HabitError) {
    try rows.withValue { rows throws(HabitError) in
      guard rows.completions[completion.id] == nil else {
        throw .duplicateCompletion(completion.habitID, completion.day)
      }
      rows.completions[completion.id] = completion
    }
  }

  func delete(habitID: Habit.ID, completedOn day: Day) throws(HabitError) {
    try rows.withValue { rows throws(HabitError) in
      let id = Completion.ID(habitID: habitID, day: day)
      guard rows.completions.removeValue(forKey: id) != nil else {
        throw .completionNotFound(habitID, day)
      }
    }
  }

  func deleteAll(for habitID: Habit.ID) {
    rows.withValue { $0.completions = $0.completions.filter { $0.key.habitID != habitID } }
  }

  func fetch(habitID: Habit.ID, completedOn day: Day) -> Completion? {
    rows.withValue { $0.completions[Completion.ID(habitID: habitID, day: day)] }
  }

  func fetchAll(for habitID: Habit.ID) -> [Completion] {
    rows.withValue { rows in
      rows.completions.values.filter { $0.habitID == habitID }.sorted { $0.day < $1.day }
    }
  }
}
