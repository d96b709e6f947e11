import Foundation
import HabitClientLive
import LoopTesting
import Persistence
import TestSupport
import Testing

@testable import HabitClient

@Suite struct HabitClientTests {
  /// 2025-03-01 12:00 UTC, a Saturday.
  let now = date("2025-03-01T12:00:00Z")
  let uuid = UUIDGenerator.incrementing

  /// Creates a habit at `now`.
  func create(_ client: HabitClient, _ name: String, at time: Date? = nil) async throws -> Habit {
    try await at(time ?? now, uuid: uuid) { try await client.addHabit(name) }
  }

  // MARK: - Create

  @Test(arguments: ClientStorage.allCases)
  func createTrimsTheNameAndUsesTheInjectedIDAndDate(storage: ClientStorage) async throws {
    try await withHabitClient(storage) { client in
      let habit = try await create(client, "  Read 20 pages ")
      #expect(habit == (try Habit(id: habitID(0), name: "Read 20 pages", createdAt: now)))
      #expect(try await client.fetchHistories() == [HabitHistory(habit: habit)])
    }
  }

  @Test(arguments: ClientStorage.allCases)
  func createWithAnEmptyNameSavesNothingAndTakesNoID(storage: ClientStorage) async throws {
    try await withHabitClient(storage) { client in
      await #expect(throws: HabitError.emptyName) { try await create(client, " \n ") }
      let histories = try await client.fetchHistories()
      let read = try await create(client, "Read")
      #expect(histories == [])
      #expect(read.id == habitID(0))
    }
  }

  @Test(arguments: ClientStorage.allCases)
  func createWithAnExistingIDFailsAndKeepsTheStoredHabit(storage: ClientStorage) async throws {
    try await withHabitClient(storage) { client in
      let same = UUIDGenerator.constant(UUID(counting: 7))
      let read = try await at(now, uuid: same) { try await client.addHabit("Read") }
      await #expect(throws: HabitError.duplicateID(habitID(7))) {
        try await at(now, uuid: same) { try await client.addHabit("Walk") }
      }
      #expect(try await client.fetchHistories() == [HabitHistory(habit: read)])
    }
  }

  // MARK: - Rename

  @Test(arguments: ClientStorage.allCases)
  func renameStoresTheTrimmedName(storage: ClientStorage) async throws {
    try await withHabitClient(storage) { client in
      let habit = try await create(client, "Read")
      let renamed = try await client.updateHabit(habit.id, " Read more ")
      #expect(renamed.name == "Read more")
      #expect(renamed.createdAt == habit.createdAt)
      #expect(try await client.fetchHistories().map(\.habit) == [renamed])
    }
  }

  @Test(arguments: ClientStorage.allCases)
  func renameOfAMissingHabitFailsAndCreatesNothing(storage: ClientStorage) async throws {
    try await withHabitClient(storage) { client in
      await #expect(throws: HabitError.habitNotFound(habitID(3))) {
        try await client.updateHabit(habitID(3), "Read")
      }
      let histories = try await client.fetchHistories()
      #expect(histories == [])
    }
  }

  @Test(arguments: ClientStorage.allCases)
  func renameToAnEmptyNameFailsAndKeepsTheName(storage: ClientStorage) async throws {
    try await withHabitClient(storage) { client in
      let habit = try await create(client, "Read")
      await #expect(throws: HabitError.emptyName) { try await client.updateHabit(habit.id, "  ") }
      #expect(try await client.fetchHistories().map(\.habit) == [habit])
    }
  }

  // MARK: - Archive and unarchive

  @Test(arguments: ClientStorage.allCases)
  func archiveRecordsNowAndListsTheHabitLast(storage: ClientStorage) async throws {
    try await withHabitClient(storage) { client in
      let read = try await create(client, "Read")
      let walk = try await create(client, "Walk")
      let later = now.addingTimeInterval(3_600)
      let archived = try await at(later) { try await client.archiveHabit(read.id) }
      #expect(archived.archivedAt == later)
      #expect(try await client.fetchHistories().map(\.habit) == [walk, archived])
    }
  }

  @Test(arguments: ClientStorage.allCases)
  func archivingTwiceFailsAndKeepsTheFirstDate(storage: ClientStorage) async throws {
    try await withHabitClient(storage) { client in
      let read = try await create(client, "Read")
      let archived = try await at(now) { try await client.archiveHabit(read.id) }
      await #expect(throws: HabitError.alreadyArchived(name: "Read")) {
        try await at(now.addingTimeInterval(60)) { try await client.archiveHabit(read.id) }
      }
      #expect(try await client.fetchHistories().map(\.habit) == [archived])
    }
  }

  @Test(arguments: ClientStorage.allCases)
  func archivingAMissingHabitFails(storage: ClientStorage) async throws {
    try await withHabitClient(storage) { client in
      await #expect(throws: HabitError.habitNotFound(habitID(3))) {
        try await at(now) { try await client.archiveHabit(habitID(3)) }
      }
    }
  }

  @Test(arguments: ClientStorage.allCases)
  func unarchiveMakesTheHabitActiveAgain(storage: ClientStorage) async throws {
    try await withHabitClient(storage) { client in
      let read = try await create(client, "Read")
      _ = try await at(now) { try await client.archiveHabit(read.id) }
      let active = try await client.unarchiveHabit(read.id)
      #expect(active == read)
      #expect(try await client.fetchHistories().map(\.habit) == [read])
    }
  }

  @Test(arguments: ClientStorage.allCases)
  func unarchivingAnActiveOrMissingHabitFails(storage: ClientStorage) async throws {
    try await withHabitClient(storage) { client in
      let read = try await create(client, "Read")
      await #expect(throws: HabitError.notArchived(name: "Read")) {
        try await client.unarchiveHabit(read.id)
      }
      await #expect(throws: HabitError.habitNotFound(habitID(3))) {
        try await client.unarchiveHabit(habitID(3))
      }
    }
  }

  // MARK: - Complete and uncomplete

  @Test(arguments: ClientStorage.allCases)
  func completeRecordsTheDayAndNow(storage: ClientStorage) async throws {
    try await withHabitClient(storage) { client in
      let read = try await create(client, "Read", at: date("2025-02-20T08:00:00Z"))
      let today = try await at(now) { try await client.addCompletion(read.id, day("2025-03-01")) }
      let earlier = try await at(now) { try await client.addCompletion(read.id, day("2025-02-20")) }
      #expect(today == Completion(habitID: read.id, day: day("2025-03-01"), createdAt: now))
      #expect(earlier == Completion(habitID: read.id, day: day("2025-02-20"), createdAt: now))
      #expect(
        try await client.fetchHistories() == [
          HabitHistory(habit: read, days: [day("2025-02-20"), day("2025-03-01")])
        ])
    }
  }

  @Test(arguments: ClientStorage.allCases)
  func completingTwiceOnADayFailsWithoutASecondRecord(storage: ClientStorage) async throws {
    try await withHabitClient(storage) { client in
      let read = try await create(client, "Read")
      _ = try await at(now) { try await client.addCompletion(read.id, day("2025-03-01")) }
      await #expect(throws: HabitError.alreadyCompleted(name: "Read", day: day("2025-03-01"))) {
        try await at(now) { try await client.addCompletion(read.id, day("2025-03-01")) }
      }
      #expect(try await client.fetchHistories().map(\.days) == [[day("2025-03-01")]])
    }
  }

  @Test(arguments: ClientStorage.allCases)
  func completingAnArchivedHabitFails(storage: ClientStorage) async throws {
    try await withHabitClient(storage) { client in
      let read = try await create(client, "Read")
      _ = try await at(now) { try await client.archiveHabit(read.id) }
      await #expect(throws: HabitError.archived(name: "Read")) {
        try await at(now) { try await client.addCompletion(read.id, day("2025-03-01")) }
      }
      #expect(try await client.fetchHistories().map(\.days) == [[]])
    }
  }

  @Test(arguments: ClientStorage.allCases)
  func completingAFutureDayFails(storage: ClientStorage) async throws {
    try await withHabitClient(storage) { client in
      let read = try await create(client, "Read")
      await #expect(throws: HabitError.dayInFuture(day("2025-03-02"), today: day("2025-03-01"))) {
        try await at(now) { try await client.addCompletion(read.id, day("2025-03-02")) }
      }
      #expect(try await client.fetchHistories().map(\.days) == [[]])
    }
  }

  @Test(arguments: ClientStorage.allCases)
  func completingDaysBeforeTheHabitWasAddedRecordsThemAndItsHistoryStartsThere(
    storage: ClientStorage
  ) async throws {
    try await withHabitClient(storage) { client in
      let read = try await create(client, "Read")
      let days = ["2025-02-25", "2025-02-26", "2025-02-27", "2025-02-28"].map(day)
      for day in days {
        #expect(
          try await at(now) { try await client.addCompletion(read.id, day) }
            == Completion(habitID: read.id, day: day, createdAt: now))
      }
      let history = try #require(try await client.fetchHistories().first)
      #expect(history.days == days)
      #expect(
        history.stats(createdOn: day("2025-03-01"), today: day("2025-03-01"))
          == HabitStats(
            currentStreak: 4, longestStreak: 4, completedDays: 4, trackedDays: 5,
            completionRate: 0.8))
      let heatMap = HeatMap(
        weeks: 1, days: history.days, createdOn: day("2025-03-01"), today: day("2025-03-01"),
        firstWeekday: 1)
      #expect(
        heatMap.weeks.first?.map(\.status) == [
          .beforeCreation, .beforeCreation, .completed, .completed, .completed, .completed,
          .missed,
        ])
    }
  }

  @Test(arguments: ClientStorage.allCases)
  func completingAMissingHabitFails(storage: ClientStorage) async throws {
    try await withHabitClient(storage) { client in
      await #expect(throws: HabitError.habitNotFound(habitID(3))) {
        try await at(now) { try await client.addCompletion(habitID(3), day("2025-03-01")) }
      }
    }
  }

  @Test(arguments: ClientStorage.allCases)
  func uncompleteRemovesTheDay(storage: ClientStorage) async throws {
    try await withHabitClient(storage) { client in
      let read = try await create(client, "Read")
      let completion = try await at(now) {
        try await client.addCompletion(read.id, day("2025-03-01"))
      }
      #expect(try await client.deleteCompletion(read.id, day("2025-03-01")) == completion)
      #expect(try await client.fetchHistories().map(\.days) == [[]])
    }
  }

  @Test(arguments: ClientStorage.allCases)
  func uncompletingADayThatIsNotDoneFails(storage: ClientStorage) async throws {
    try await withHabitClient(storage) { client in
      let read = try await create(client, "Read")
      await #expect(throws: HabitError.notCompleted(name: "Read", day: day("2025-03-01"))) {
        try await client.deleteCompletion(read.id, day("2025-03-01"))
      }
      await #expect(throws: HabitError.habitNotFound(habitID(3))) {
        try await client.deleteCompletion(habitID(3), day("2025-03-01"))
      }
    }
  }

  @Test(arguments: ClientStorage.allCases)
  func uncompletingAnArchivedHabitFailsAndKeepsItsHistory(storage: ClientStorage) async throws {
    try await withHabitClient(storage) { client in
      let read = try await create(client, "Read")
      _ = try await at(now) { try await client.addCompletion(read.id, day("2025-03-01")) }
      _ = try await at(now) { try await client.archiveHabit(read.id) }
      await #expect(throws: HabitError.archived(name: "Read")) {
        try await client.deleteCompletion(read.id, day("2025-03-01"))
      }
      #expect(try await client.fetchHistories().map(\.days) == [[day("2025-03-01")]])
    }
  }

  // MARK: - Time zones

  @Test(arguments: ClientStorage.allCases)
  func todayIsTheDayInTheUsersTimeZone(storage: ClientStorage) async throws {
    try await withHabitClient(storage) { client in
      let read = try await create(client, "Read", at: date("2025-02-20T12:00:00Z"))
      // 23:30 on March 1st in New York is already 13:30 on March 2nd in Tokyo.
      let evening = date("2025-03-01T23:30:00-05:00")
      await #expect(throws: HabitError.dayInFuture(day("2025-03-02"), today: day("2025-03-01"))) {
        try await at(evening, in: .newYork) {
          try await client.addCompletion(read.id, day("2025-03-02"))
        }
      }
      _ = try await at(evening, in: .newYork) {
        try await client.addCompletion(read.id, day("2025-03-01"))
      }
      _ = try await at(evening, in: .tokyo) {
        try await client.addCompletion(read.id, day("2025-03-02"))
      }
      #expect(
        try await client.fetchHistories().map(\.days) == [[day("2025-03-01"), day("2025-03-02")]])
    }
  }

  @Test(arguments: ClientStorage.allCases)
  func theDayBeforeTheCreationDayInAnyTimeZoneIsRecorded(storage: ClientStorage) async throws {
    try await withHabitClient(storage) { client in
      // Created at 23:30 in New York: March 1st there, March 2nd in UTC.
      let evening = date("2025-03-01T23:30:00-05:00")
      let read = try await create(client, "Read", at: evening)
      _ = try await at(evening, in: .utc) {
        try await client.addCompletion(read.id, day("2025-03-01"))
      }
      _ = try await at(evening, in: .utc) {
        try await client.addCompletion(read.id, day("2025-02-28"))
      }
      #expect(
        try await client.fetchHistories().map(\.days) == [[day("2025-02-28"), day("2025-03-01")]])
    }
  }

  // MARK: - Delete

  @Test(arguments: ClientStorage.allCases)
  func deleteRemovesTheHabitAndAllItsCompletions(storage: ClientStorage) async throws {
    try await withHabitClient(storage) { client in
      let read = try await create(client, "Read", at: date("2025-02-27T12:00:00Z"))
      let walk = try await create(client, "Walk", at: date("2025-02-27T12:00:00Z"))
      for text in ["2025-02-27", "2025-02-28", "2025-03-01"] {
        _ = try await at(now) { try await client.addCompletion(read.id, day(text)) }
      }
      _ = try await at(now) { try await client.addCompletion(walk.id, day("2025-03-01")) }
      #expect(try await client.deleteHabit(read.id) == read)
      #expect(
        try await client.fetchHistories() == [HabitHistory(habit: walk, days: [day("2025-03-01")])])
      // A new habit with the same id starts with no completions.
      _ = try await at(now, uuid: .constant(read.id.rawValue)) { try await client.addHabit("Read") }
      #expect(try await client.fetchHistories().map(\.days) == [[day("2025-03-01")], []])
    }
  }

  @Test(arguments: ClientStorage.allCases)
  func deletingAMissingHabitFails(storage: ClientStorage) async throws {
    try await withHabitClient(storage) { client in
      await #expect(throws: HabitError.habitNotFound(habitID(3))) {
        try await client.deleteHabit(habitID(3))
      }
    }
  }

  @Test(arguments: Backend.persistent)
  func aDeleteThatFailsHalfWayLeavesTheHabitAndItsCompletions(backend: Backend) async throws {
    let folder = temporaryFolder("HabitClientTests")
    defer { Backend.removeStorage(in: folder) }
    let storage = backend.storage(file: "habits.sqlite", in: folder)
    let client = HabitClient.live(
      context: ModelContext(try ModelContainer(for: HabitClient.models, storage: storage)))
    let read = try await create(client, "Read")
    _ = try await at(now) { try await client.addCompletion(read.id, day("2025-03-01")) }
    // NB: the completions are deleted first, then the habit; the trigger fails the second.
    try backend.refuseDeletes(from: "habits", file: "habits.sqlite", in: folder)
    await #expect {
      try await client.deleteHabit(read.id)
    } throws: { error in
      guard case HabitError.storageFailed(let reason) = error else { return false }
      return reason.contains("refused by the test")
    }
    #expect(
      try await client.fetchHistories() == [HabitHistory(habit: read, days: [day("2025-03-01")])])
  }

  // MARK: - Histories

  @Test(arguments: ClientStorage.allCases)
  func historiesListActiveHabitsFirstWithTheirDaysInOrder(storage: ClientStorage) async throws {
    try await withHabitClient(storage) { client in
      let read = try await create(client, "Read", at: date("2025-02-01T12:00:00Z"))
      let walk = try await create(client, "Walk", at: date("2025-02-02T12:00:00Z"))
      let swim = try await create(client, "Swim", at: date("2025-02-03T12:00:00Z"))
      for text in ["2025-03-01", "2025-02-01", "2025-02-15"] {
        _ = try await at(now) { try await client.addCompletion(read.id, day(text)) }
      }
      _ = try await at(now) { try await client.addCompletion(swim.id, day("2025-02-28")) }
      let archivedRead = try await at(now) { try await client.archiveHabit(read.id) }
      #expect(
        try await client.fetchHistories() == [
          HabitHistory(habit: walk),
          HabitHistory(habit: swim, days: [day("2025-02-28")]),
          HabitHistory(
            habit: archivedRead, days: [day("2025-02-01"), day("2025-02-15"), day("2025-03-01")]),
        ])
    }
  }

  // MARK: - Values

  @Test func theInMemoryValueStoresHabits() async throws {
    let client = HabitClient.inMemory()
    let read = try await create(client, "Read")
    #expect(try await client.fetchHistories() == [HabitHistory(habit: read)])
    #expect(try await HabitClient.inMemory().fetchHistories() == [])
  }

  @Test func theFileValueKeepsHabitsAcrossOpenings() async throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("HabitClientTests-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("loop.sqlite").path
    let read = try await create(HabitClient.live(path: path), "Read")
    _ = try await at(now) {
      try await HabitClient.live(path: path).addCompletion(read.id, day("2025-03-01"))
    }
    #expect(
      try await HabitClient.live(path: path).fetchHistories() == [
        HabitHistory(habit: read, days: [day("2025-03-01")])
      ])
  }

  @Test func aFileThatCannotBeOpenedFailsEveryEndpointWithAStorageError() async throws {
    let blocker = FileManager.default.temporaryDirectory
      .appendingPathComponent("HabitClientTests-\(UUID().uuidString)")
    try Data().write(to: blocker)
    defer { try? FileManager.default.removeItem(at: blocker) }
    let path = blocker.appendingPathComponent("loop.sqlite").path
    let client = HabitClient.live(path: path)
    let error = await #expect(throws: HabitError.self) { try await client.fetchHistories() }
    guard case .storageFailed(let reason) = error else {
      Issue.record("Expected a storage error, got \(String(describing: error)).")
      return
    }
    #expect(reason.hasPrefix("Cannot open '\(path)': "))
    let id = habitID(0)
    let today = day("2025-03-01")
    let calls: [@Sendable () async throws -> Void] = [
      { _ = try await client.archiveHabit(id) }, { _ = try await client.addCompletion(id, today) },
      { _ = try await client.addHabit("Read") }, { _ = try await client.deleteHabit(id) },
      { _ = try await client.updateHabit(id, "Walk") }, { _ = try await client.unarchiveHabit(id) },
      { _ = try await client.deleteCompletion(id, today) },
    ]
    for call in calls {
      await #expect(throws: HabitError.storageFailed(reason)) { try await call() }
    }
  }

  @Test func theTestValueReportsAndThrowsWhenAnEndpointIsCalled() async {
    let issues = IssueCollector()
    await withIssueReporter(issues) {
      await #expect(throws: UnimplementedError(endpoint: "HabitClient.fetchHistories")) {
        try await HabitClient.testValue.fetchHistories()
      }
    }
    #expect(
      issues.messages == [
        """
        Unimplemented: 'HabitClient.fetchHistories' was called.

        To fix, override this endpoint in the test's dependencies, e.g. \
        'withDependencies: { $0.… = … }', with the behaviour the test expects.
        """
      ])
  }
}
