import Foundation
import HabitClient
import Persistence
import TestSupport
import Testing

@Suite struct CompletionRepositoryTests {
  let now = date("2025-03-01T12:00:00Z")

  func completion(_ habit: UInt64, _ text: String) -> Completion {
    Completion(habitID: habitID(habit), day: day(text), createdAt: now)
  }

  @Test(arguments: Backend.allCases)
  func insertedCompletionsCanBeFetched(backend: Backend) async throws {
    try await withContext(backend) { context in
      let completions = CompletionRepository.live(context: context)
      try completions.insert(completion(1, "2025-03-01"))
      #expect(try completions.fetch(habitID(1), day("2025-03-01")) == completion(1, "2025-03-01"))
      #expect(try completions.fetch(habitID(1), day("2025-03-02")) == nil)
      #expect(try completions.fetch(habitID(2), day("2025-03-01")) == nil)
    }
  }

  @Test(arguments: Backend.allCases)
  func completingTheSameHabitTwiceOnADayFailsWithoutASecondRecord(backend: Backend) async throws {
    try await withContext(backend) { context in
      let completions = CompletionRepository.live(context: context)
      try completions.insert(completion(1, "2025-03-01"))
      let again = Completion(
        habitID: habitID(1), day: day("2025-03-01"), createdAt: now.addingTimeInterval(60))
      #expect(throws: HabitError.duplicateCompletion(habitID(1), day("2025-03-01"))) {
        try completions.insert(again)
      }
      #expect(try completions.fetchAll(habitID(1)) == [completion(1, "2025-03-01")])
    }
  }

  @Test(arguments: Backend.allCases)
  func fetchAllReturnsOneHabitsCompletionsByDay(backend: Backend) async throws {
    try await withContext(backend) { context in
      let completions = CompletionRepository.live(context: context)
      for (habit, text) in [
        (1, "2025-03-01"), (2, "2025-02-28"), (1, "2024-12-31"), (1, "2025-01-01"),
        (1, "2025-02-28"),
      ] {
        try completions.insert(completion(UInt64(habit), text))
      }
      #expect(
        try completions.fetchAll(habitID(1)).map(\.day.description) == [
          "2024-12-31", "2025-01-01", "2025-02-28", "2025-03-01",
        ])
      #expect(try completions.fetchAll(habitID(3)) == [])
    }
  }

  @Test(arguments: Backend.allCases)
  func deletingRemovesOneCompletion(backend: Backend) async throws {
    try await withContext(backend) { context in
      let completions = CompletionRepository.live(context: context)
      try completions.insert(completion(1, "2025-02-28"))
      try completions.insert(completion(1, "2025-03-01"))
      try completions.delete(habitID(1), day("2025-02-28"))
      #expect(try completions.fetchAll(habitID(1)) == [completion(1, "2025-03-01")])
    }
  }

  @Test(arguments: Backend.allCases)
  func deletingAMissingCompletionFails(backend: Backend) async throws {
    try await withContext(backend) { context in
      let completions = CompletionRepository.live(context: context)
      try completions.insert(completion(1, "2025-03-01"))
      #expect(throws: HabitError.completionNotFound(habitID(1), day("2025-02-28"))) {
        try completions.delete(habitID(1), day("2025-02-28"))
      }
      #expect(try completions.fetchAll(habitID(1)) == [completion(1, "2025-03-01")])
    }
  }

  @Test(arguments: Backend.allCases)
  func deleteAllRemovesEveryCompletionOfOneHabitOnly(backend: Backend) async throws {
    try await withContext(backend) { context in
      let completions = CompletionRepository.live(context: context)
      try completions.insert(completion(1, "2025-02-28"))
      try completions.insert(completion(2, "2025-02-28"))
      try completions.insert(completion(1, "2025-03-01"))
      try completions.deleteAll(habitID(1))
      #expect(try completions.fetchAll(habitID(1)) == [])
      #expect(try completions.fetchAll(habitID(2)) == [completion(2, "2025-02-28")])
      try completions.deleteAll(habitID(1))
    }
  }

  @Test func anyOtherStorageFailureIsAStorageErrorWithTheStoragesSentence() throws {
    let container = try ModelContainer(for: Habit.self, storage: .inMemory)
    let completions = CompletionRepository.live(context: ModelContext(container))
    #expect(
      throws: HabitError.storage(
        "Completion is not registered with this container; pass Completion.self to "
          + "ModelContainer(for:storage:).")
    ) {
      try completions.fetchAll(habitID(1))
    }
  }
}
