import Foundation
import HabitClient
import HabitClientLive
import LoopTesting
import Synchronization
import TestSupport
import Testing

@Suite struct HabitArchiveTests {
  /// An archive with an archived habit and an active one, and their completions.
  static func sampleArchive() throws -> HabitArchive {
    let walk = try habit(
      0x10, "Walk", createdAt: date("2025-02-01T08:00:00Z"),
      archivedAt: date("2025-02-20T08:00:00Z").addingTimeInterval(0.5))
    let read = try habit(0x11, "Read", createdAt: date("2025-02-10T08:00:00Z"))
    return HabitArchive(
      habits: [read, walk],
      completions: [
        Completion(
          habitID: read.id, day: day("2025-02-10"), createdAt: date("2025-02-10T20:00:00Z")),
        Completion(
          habitID: read.id, day: day("2025-02-12"), createdAt: date("2025-02-13T07:00:00Z")),
        Completion(
          habitID: walk.id, day: day("2025-02-01"), createdAt: date("2025-02-01T09:00:00Z")),
      ])
  }

  @Test(arguments: ClientStorage.allCases)
  func exportListsHabitsInListOrderWithTheirCompletionsByDay(_ storage: ClientStorage) async throws
  {
    try await withHabitClient(storage) { client in
      let uuid = UUIDGenerator.incrementing
      let first = date("2025-03-01T12:00:00Z")
      let walk = try await at(first, uuid: uuid) { try await client.addHabit("Walk") }
      let read = try await at(first.addingTimeInterval(60), uuid: uuid) {
        try await client.addHabit("Read")
      }
      let late = try await at(first.addingTimeInterval(86_400), uuid: uuid) {
        _ = try await client.addCompletion(read.id, day("2025-03-02"))
        _ = try await client.addCompletion(read.id, day("2025-03-01"))
        return try await client.archiveHabit(walk.id)
      }
      let archive = try await client.exportHabits()
      #expect(archive.habits == [read, late])
      #expect(
        archive.completions == [
          Completion(
            habitID: read.id, day: day("2025-03-01"), createdAt: date("2025-03-02T12:00:00Z")),
          Completion(
            habitID: read.id, day: day("2025-03-02"), createdAt: date("2025-03-02T12:00:00Z")),
        ])
    }
  }

  @Test(arguments: ClientStorage.allCases)
  func restoringIntoAnEmptyDatabaseReproducesTheArchive(_ storage: ClientStorage) async throws {
    let archive = try Self.sampleArchive()
    try await withHabitClient(storage) { client in
      let summary = try await client.restoreHabits(archive)
      #expect(summary == HabitImportSummary(habits: 2, completions: 3))
      #expect(try await client.exportHabits() == archive)
    }
  }

  @Test(arguments: ClientStorage.allCases)
  func restoringAgainSkipsEverythingAsDuplicates(_ storage: ClientStorage) async throws {
    let archive = try Self.sampleArchive()
    try await withHabitClient(storage) { client in
      _ = try await client.restoreHabits(archive)
      #expect(try await client.restoreHabits(archive) == HabitImportSummary(duplicates: 5))
      #expect(try await client.exportHabits() == archive)
    }
  }

  @Test(arguments: ClientStorage.allCases)
  func aDryRunReportsProgressAndWritesNothing(_ storage: ClientStorage) async throws {
    let archive = try Self.sampleArchive()
    try await withHabitClient(storage) { client in
      let reports = Mutex<[Int]>([])
      let summary = try await client.restoreHabits(archive, dryRun: true) { processed in
        reports.withLock { $0.append(processed) }
      }
      #expect(summary == HabitImportSummary(habits: 2, completions: 3))
      #expect(reports.withLock { $0 } == [2, 5])
      #expect(try await client.exportHabits() == HabitArchive())
    }
  }

  static let invalidArchives: [(@Sendable (inout HabitArchive) -> Void, HabitError)] = [
    (
      { $0.habits.append($0.habits[0]) },
      .invalidArchive("habit '00000000-0000-0000-0000-000000000011' appears twice")
    ),
    (
      { $0.completions.append($0.completions[0]) },
      .invalidArchive(
        "the completion of habit '00000000-0000-0000-0000-000000000011' on 2025-02-10 appears "
          + "twice")
    ),
    (
      { $0.habits.removeLast() },
      .invalidArchive(
        "the completion of habit '00000000-0000-0000-0000-000000000010' on 2025-02-01 is of a "
          + "habit that does not exist")
    ),
  ]

  @Test(arguments: ClientStorage.allCases)
  func aRestoreCancelledBetweenBatchesWritesNothing(_ storage: ClientStorage) async throws {
    let habits = try (0..<UInt64(HabitClient.importBatchSize + 1)).map { number in
      try habit(number, "Habit \(number)", createdAt: date("2025-02-01T08:00:00Z"))
    }
    try await withHabitClient(storage) { client async throws in
      // NB: the first batch is written before the task is cancelled, so the rollback is seen.
      await #expect(throws: HabitError.storageFailed("the work was cancelled")) {
        try await client.restoreHabits(HabitArchive(habits: habits)) { _ in
          withUnsafeCurrentTask { $0?.cancel() }
        }
      }
      #expect(try await client.fetchHistories() == [])
    }
  }

  @Test(arguments: ClientStorage.allCases, invalidArchives.indices)
  func restoringAnInvalidArchiveWritesNothing(_ storage: ClientStorage, _ index: Int) async throws {
    var archive = try Self.sampleArchive()
    let (breakArchive, expected) = Self.invalidArchives[index]
    breakArchive(&archive)
    try await withHabitClient(storage) { client async throws in
      await #expect(throws: expected) { try await client.restoreHabits(archive) }
      #expect(try await client.exportHabits() == HabitArchive())
    }
  }

  @Test func anInvalidArchiveErrorIsASentence() {
    #expect(
      HabitError.invalidArchive("habit 'x' appears twice").description
        == "The habits cannot be restored: habit 'x' appears twice.")
  }
}
