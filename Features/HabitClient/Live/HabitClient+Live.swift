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
    HabitClient(storage: ContextHabitStorage(context: context))
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

  /// The client over a new container on `storage`, or a client that throws the reason when it
  /// cannot be opened.
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
}

/// The storage contracts of ``HabitStorage`` over a model context: Persistence's failures
/// become ``HabitError``s (its duplicate id and missing row become the contract's cases).
struct ContextHabitStorage: HabitStorage {
  let context: ModelContext

  func transaction<R>(
    rollingBack: Bool, _ body: () throws(HabitError) -> R
  ) throws(HabitError) -> R {
    try HabitError.capturing {
      try context.transaction(rollingBack: rollingBack) { _ in try body() }
    }
  }

  func insert(_ habit: Habit) throws(HabitError) {
    try HabitError.capturing(duplicateID: .duplicateID(habit.id)) { try context.insert(habit) }
  }

  func update(_ habit: Habit) throws(HabitError) {
    try HabitError.capturing(notFound: .habitNotFound(habit.id)) { try context.update(habit) }
  }

  func delete(id: Habit.ID) throws(HabitError) {
    try HabitError.capturing(notFound: .habitNotFound(id)) {
      try context.delete(Habit.self, id: id)
    }
  }

  func fetch(id: Habit.ID) throws(HabitError) -> Habit? {
    try HabitError.capturing { try context.fetch(Habit.self, id: id) }
  }

  func fetchAll() throws(HabitError) -> [Habit] {
    // NB: sorted in Swift: "active first" is not a column, and habits are few.
    try HabitError.capturing { try context.fetchAll(Habit.self) }.sorted(
      by: Habit.isListed(_:before:))
  }

  func insert(_ completion: Completion) throws(HabitError) {
    try HabitError.capturing(
      duplicateID: .duplicateCompletion(completion.habitID, completion.day)
    ) {
      try context.insert(completion)
    }
  }

  func delete(habitID: Habit.ID, completedOn day: Day) throws(HabitError) {
    try HabitError.capturing(notFound: .completionNotFound(habitID, day)) {
      try context.delete(Completion.self, id: Completion.ID(habitID: habitID, day: day))
    }
  }

  func deleteAll(for habitID: Habit.ID) throws(HabitError) {
    _ = try HabitError.capturing {
      try context.delete(Completion.self, where: #Predicate { $0.habitID == habitID })
    }
  }

  func fetch(habitID: Habit.ID, completedOn day: Day) throws(HabitError) -> Completion? {
    try HabitError.capturing {
      try context.fetch(Completion.self, id: Completion.ID(habitID: habitID, day: day))
    }
  }

  func fetchAll(for habitID: Habit.ID) throws(HabitError) -> [Completion] {
    try HabitError.capturing {
      try context.fetchAll(
        Completion.self, predicate: #Predicate { $0.habitID == habitID },
        sortBy: [SortDescriptor(\.day)])
    }
  }
}
