import Foundation
import HabitClient
import TestSupport
import Testing

@Suite struct HabitRepositoryTests {
  let now = date("2025-03-01T12:00:00Z")

  @Test(arguments: Backend.allCases)
  func insertedHabitsCanBeFetched(backend: Backend) async throws {
    try await withContext(backend) { context in
      let habits = HabitRepository.live(context: context)
      let read = try habit(1, "Read", createdAt: now)
      try habits.insert(read)
      #expect(try habits.fetch(read.id) == read)
      #expect(try habits.fetch(habitID(2)) == nil)
    }
  }

  @Test(arguments: Backend.allCases)
  func insertingAnExistingIDFailsAndKeepsTheStoredHabit(backend: Backend) async throws {
    try await withContext(backend) { context in
      let habits = HabitRepository.live(context: context)
      let read = try habit(1, "Read", createdAt: now)
      try habits.insert(read)
      #expect(throws: HabitError.duplicateID(read.id)) {
        try habits.insert(try habit(1, "Walk", createdAt: now))
      }
      #expect(try habits.fetchAll() == [read])
    }
  }

  @Test(arguments: Backend.allCases)
  func updatingReplacesTheStoredHabit(backend: Backend) async throws {
    try await withContext(backend) { context in
      let habits = HabitRepository.live(context: context)
      var read = try habit(1, "Read", createdAt: now)
      try habits.insert(read)
      try read.rename(to: "Read more")
      try read.archive(on: now)
      try habits.update(read)
      #expect(try habits.fetch(read.id) == read)
    }
  }

  @Test(arguments: Backend.allCases)
  func updatingAMissingHabitFailsAndCreatesNothing(backend: Backend) async throws {
    try await withContext(backend) { context in
      let habits = HabitRepository.live(context: context)
      let ghost = try habit(1, "Ghost", createdAt: now)
      #expect(throws: HabitError.habitNotFound(ghost.id)) { try habits.update(ghost) }
      #expect(try habits.fetchAll() == [])
    }
  }

  @Test(arguments: Backend.allCases)
  func deletingRemovesOnlyThatHabit(backend: Backend) async throws {
    try await withContext(backend) { context in
      let habits = HabitRepository.live(context: context)
      let read = try habit(1, "Read", createdAt: now)
      let walk = try habit(2, "Walk", createdAt: now)
      try habits.insert(read)
      try habits.insert(walk)
      try habits.delete(read.id)
      #expect(try habits.fetchAll() == [walk])
    }
  }

  @Test(arguments: Backend.allCases)
  func deletingAMissingHabitFails(backend: Backend) async throws {
    try await withContext(backend) { context in
      let habits = HabitRepository.live(context: context)
      #expect(throws: HabitError.habitNotFound(habitID(9))) { try habits.delete(habitID(9)) }
    }
  }

  @Test(arguments: Backend.allCases)
  func fetchAllListsActiveHabitsFirstThenByCreationThenByID(backend: Backend) async throws {
    try await withContext(backend) { context in
      let habits = HabitRepository.live(context: context)
      let early = now.addingTimeInterval(-3_600)
      let late = now.addingTimeInterval(3_600)
      // Inserted in an order that matches none of the sort keys.
      try habits.insert(try habit(5, "archived late", createdAt: late, archivedAt: late))
      try habits.insert(try habit(4, "active now, id 4", createdAt: now))
      try habits.insert(try habit(6, "archived early", createdAt: early, archivedAt: late))
      try habits.insert(try habit(3, "active late", createdAt: late))
      try habits.insert(try habit(2, "active now, id 2", createdAt: now))
      try habits.insert(try habit(7, "active early", createdAt: early))
      #expect(
        try habits.fetchAll().map(\.name) == [
          "active early", "active now, id 2", "active now, id 4", "active late",
          "archived early", "archived late",
        ])
    }
  }
}
