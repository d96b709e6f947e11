import Foundation
import Persistence
import TestSupport
import Testing

@testable import HabitClient
@testable import HabitClientLive

/// The storage's two contracts, under every endpoint of ``HabitClient``: a habit is inserted
/// (failing on an existing id) or updated (failing on a missing one), never upserted; a
/// completion is inserted or deleted, never edited, and deleted with its habit.
@Suite struct HabitStorageTests {
  let now = date("2025-03-01T12:00:00Z")

  /// Runs `body` on a fresh, empty storage of `kind`: the in-memory value's, or a context's.
  func withStorage(
    _ kind: ClientStorage, _ body: (any HabitStorage) throws -> Void
  ) async throws {
    switch kind {
    case .inMemoryValue:
      try body(InMemoryHabitStorage())
    case .container(let backend):
      try await withContext(backend) { context in try body(ContextHabitStorage(context: context)) }
    }
  }

  // MARK: - Habits

  @Test(arguments: ClientStorage.allCases)
  func insertedHabitsCanBeFetched(storage kind: ClientStorage) async throws {
    try await withStorage(kind) { storage in
      let read = try habit(1, "Read", createdAt: now)
      try storage.insert(read)
      #expect(try storage.fetch(id: read.id) == read)
      #expect(try storage.fetch(id: habitID(2)) == nil)
    }
  }

  @Test(arguments: ClientStorage.allCases)
  func insertingAnExistingIDFailsAndKeepsTheStoredHabit(storage kind: ClientStorage) async throws {
    try await withStorage(kind) { storage in
      let read = try habit(1, "Read", createdAt: now)
      try storage.insert(read)
      #expect(throws: HabitError.duplicateID(read.id)) {
        try storage.insert(try habit(1, "Walk", createdAt: now))
      }
      #expect(try storage.fetchAll() == [read])
    }
  }

  @Test(arguments: ClientStorage.allCases)
  func updatingReplacesTheStoredHabit(storage kind: ClientStorage) async throws {
    try await withStorage(kind) { storage in
      var read = try habit(1, "Read", createdAt: now)
      try storage.insert(read)
      try read.rename(to: "Read more")
      try read.archive(on: now)
      try storage.update(read)
      #expect(try storage.fetch(id: read.id) == read)
    }
  }

  @Test(arguments: ClientStorage.allCases)
  func updatingAMissingHabitFailsAndCreatesNothing(storage kind: ClientStorage) async throws {
    try await withStorage(kind) { storage in
      let ghost = try habit(1, "Ghost", createdAt: now)
      #expect(throws: HabitError.habitNotFound(ghost.id)) { try storage.update(ghost) }
      #expect(try storage.fetchAll() == [])
    }
  }

  @Test(arguments: ClientStorage.allCases)
  func deletingRemovesOnlyThatHabit(storage kind: ClientStorage) async throws {
    try await withStorage(kind) { storage in
      let read = try habit(1, "Read", createdAt: now)
      let walk = try habit(2, "Walk", createdAt: now)
      try storage.insert(read)
      try storage.insert(walk)
      try storage.delete(id: read.id)
      #expect(try storage.fetchAll() == [walk])
    }
  }

  @Test(arguments: ClientStorage.allCases)
  func deletingAMissingHabitFails(storage kind: ClientStorage) async throws {
    try await withStorage(kind) { storage in
      #expect(throws: HabitError.habitNotFound(habitID(9))) { try storage.delete(id: habitID(9)) }
    }
  }

  @Test(arguments: ClientStorage.allCases)
  func fetchAllListsActiveHabitsFirstThenByCreationThenByID(storage kind: ClientStorage)
    async throws
  {
    try await withStorage(kind) { storage in
      let early = now.addingTimeInterval(-3_600)
      let late = now.addingTimeInterval(3_600)
      // Inserted in an order that matches none of the sort keys.
      try storage.insert(try habit(5, "archived late", createdAt: late, archivedAt: late))
      try storage.insert(try habit(4, "active now, id 4", createdAt: now))
      try storage.insert(try habit(6, "archived early", createdAt: early, archivedAt: late))
      try storage.insert(try habit(3, "active late", createdAt: late))
      try storage.insert(try habit(2, "active now, id 2", createdAt: now))
      try storage.insert(try habit(7, "active early", createdAt: early))
      #expect(
        try storage.fetchAll().map(\.name) == [
          "active early", "active now, id 2", "active now, id 4", "active late",
          "archived early", "archived late",
        ])
    }
  }

  // MARK: - Completions

  func completion(_ habit: UInt64, _ text: String) -> Completion {
    Completion(habitID: habitID(habit), day: day(text), createdAt: now)
  }

  @Test(arguments: ClientStorage.allCases)
  func insertedCompletionsCanBeFetched(storage kind: ClientStorage) async throws {
    try await withStorage(kind) { storage in
      try storage.insert(completion(1, "2025-03-01"))
      #expect(
        try storage.fetch(habitID: habitID(1), completedOn: day("2025-03-01"))
          == completion(1, "2025-03-01"))
      #expect(try storage.fetch(habitID: habitID(1), completedOn: day("2025-03-02")) == nil)
      #expect(try storage.fetch(habitID: habitID(2), completedOn: day("2025-03-01")) == nil)
    }
  }

  @Test(arguments: ClientStorage.allCases)
  func completingTheSameHabitTwiceOnADayFailsWithoutASecondRecord(storage kind: ClientStorage)
    async throws
  {
    try await withStorage(kind) { storage in
      try storage.insert(completion(1, "2025-03-01"))
      let again = Completion(
        habitID: habitID(1), day: day("2025-03-01"), createdAt: now.addingTimeInterval(60))
      #expect(throws: HabitError.duplicateCompletion(habitID(1), day("2025-03-01"))) {
        try storage.insert(again)
      }
      #expect(try storage.fetchAll(for: habitID(1)) == [completion(1, "2025-03-01")])
    }
  }

  @Test(arguments: ClientStorage.allCases)
  func fetchAllReturnsOneHabitsCompletionsByDay(storage kind: ClientStorage) async throws {
    try await withStorage(kind) { storage in
      for (habit, text) in [
        (1, "2025-03-01"), (2, "2025-02-28"), (1, "2024-12-31"), (1, "2025-01-01"),
        (1, "2025-02-28"),
      ] {
        try storage.insert(completion(UInt64(habit), text))
      }
      #expect(
        try storage.fetchAll(for: habitID(1)).map(\.day.description) == [
          "2024-12-31", "2025-01-01", "2025-02-28", "2025-03-01",
        ])
      #expect(try storage.fetchAll(for: habitID(3)) == [])
    }
  }

  @Test(arguments: ClientStorage.allCases)
  func deletingRemovesOneCompletion(storage kind: ClientStorage) async throws {
    try await withStorage(kind) { storage in
      try storage.insert(completion(1, "2025-02-28"))
      try storage.insert(completion(1, "2025-03-01"))
      try storage.delete(habitID: habitID(1), completedOn: day("2025-02-28"))
      #expect(try storage.fetchAll(for: habitID(1)) == [completion(1, "2025-03-01")])
    }
  }

  @Test(arguments: ClientStorage.allCases)
  func deletingAMissingCompletionFails(storage kind: ClientStorage) async throws {
    try await withStorage(kind) { storage in
      try storage.insert(completion(1, "2025-03-01"))
      #expect(throws: HabitError.completionNotFound(habitID(1), day("2025-02-28"))) {
        try storage.delete(habitID: habitID(1), completedOn: day("2025-02-28"))
      }
      #expect(try storage.fetchAll(for: habitID(1)) == [completion(1, "2025-03-01")])
    }
  }

  @Test(arguments: ClientStorage.allCases)
  func deleteAllRemovesEveryCompletionOfOneHabitOnly(storage kind: ClientStorage) async throws {
    try await withStorage(kind) { storage in
      try storage.insert(completion(1, "2025-02-28"))
      try storage.insert(completion(2, "2025-02-28"))
      try storage.insert(completion(1, "2025-03-01"))
      try storage.deleteAll(for: habitID(1))
      #expect(try storage.fetchAll(for: habitID(1)) == [])
      #expect(try storage.fetchAll(for: habitID(2)) == [completion(2, "2025-02-28")])
      try storage.deleteAll(for: habitID(1))
    }
  }

  @Test func anyOtherStorageFailureIsAStorageErrorWithTheStoragesSentence() throws {
    let container = try ModelContainer(for: Habit.self, storage: .inMemory)
    let storage = ContextHabitStorage(context: ModelContext(container))
    #expect(
      throws: HabitError.storageFailed(
        "Completion is not registered with this container; pass Completion.self to "
          + "ModelContainer(for:storage:).")
    ) {
      try storage.fetchAll(for: habitID(1))
    }
  }
}
