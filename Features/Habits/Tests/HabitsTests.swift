import Foundation
import HabitClient
import Habits
import LoopTesting
import TestSupport
import Testing

@MainActor
@Suite struct HabitsTests {
  /// 2025-03-01 12:00 UTC, a Saturday.
  let now = date("2025-03-01T12:00:00Z")
  let today = day("2025-03-01")
  let client = HabitClient.inMemory()
  /// Shared by the seeding and the store, so that the store's new ids follow the seeded ones.
  let uuid = UUIDGenerator.incrementing

  func makeStore(
    _ state: Habits.State = Habits.State(), now: Date? = nil, timeZone: TimeZone = .utc
  ) -> TestStore<Habits.State, Habits.Action> {
    TestStore(initialState: state) {
      Habits()
    } withDependencies: {
      $0.calendar = .gregorian(firstWeekday: 1)
      $0.continuousClock = TestClock()
      $0.date = .constant(now ?? self.now)
      $0.habitClient = client
      $0.timeZone = timeZone
      $0.uuid = uuid
    }
  }

  /// Creates a habit through the client, completes it on `done` days and maybe archives it.
  func seed(
    _ name: String, createdAt: String = "2025-02-01T12:00:00Z", done: [String] = [],
    archivedAt: String? = nil
  ) async throws -> HabitHistory {
    let habit = try await at(date(createdAt), uuid: uuid) { try await client.addHabit(name) }
    for text in done {
      _ = try await at(now, uuid: uuid) { try await client.addCompletion(habit.id, day(text)) }
    }
    if let archivedAt {
      _ = try await at(date(archivedAt), uuid: uuid) { try await client.archiveHabit(habit.id) }
    }
    return try await history(of: habit.id)
  }

  /// The stored history of a habit.
  func history(of id: Habit.ID) async throws -> HabitHistory {
    try #require(try await client.fetchHistories().first { $0.id == id })
  }

  /// The list as the store shows it after loading.
  func loaded() async throws -> Habits.State {
    Habits.State(
      habits: IdentifiedArray(uniqueElements: try await client.fetchHistories()), today: today)
  }

  /// The detail of the habit `id` as the list presents it, reading its history through the
  /// list's shared `habits`.
  func detail(
    of id: Habit.ID, in state: Habits.State, createdOn: Day, today: Day? = nil
  ) throws -> HabitDetail.State {
    HabitDetail.State(
      history: try #require(Shared(state.$habits[id: id])), createdOn: createdOn,
      today: today ?? self.today, firstWeekday: 1)
  }

  // MARK: - Loading

  @Test func appearingLoadsTheHabitsInListOrder() async throws {
    let swim = try await seed("Swim", archivedAt: "2025-02-10T12:00:00Z")
    let read = try await seed("Read", done: ["2025-02-28", "2025-03-01"])
    let store = makeStore()
    await store.send(.onAppear) { $0.today = today }
    await store.receive(.habitsResponse(.success([read, swim]))) {
      $0.$habits.withLock { $0 = [read, swim] }
    }
    await store.finish()
  }

  @Test func aFailedLoadShowsTheFailureAsAnAlert() async throws {
    let store = makeStore()
    store.dependencies.habitClient.fetchHistories = {
      throw HabitError.storageFailed("The disk is full.")
    }
    await store.send(.onAppear) { $0.today = today }
    await store.receive(.habitsResponse(.failure(.storageFailed("The disk is full.")))) {
      $0.destination = .alert(
        AlertState { TextState("The habits could not be read or saved: The disk is full.") })
    }
    await store.finish()
  }

  // MARK: - Adding

  @Test func addingAHabitTrimsItsNameAndListsItBeforeArchivedOnes() async throws {
    let swim = try await seed("Swim", archivedAt: "2025-02-10T12:00:00Z")
    let store = makeStore(try await loaded())
    await store.send(.addSubmitted(name: "  Read "))
    let read = try Habit(id: habitID(1), name: "Read", createdAt: now)
    await store.receive(.addResponse(.success(read))) {
      $0.$habits.withLock { $0 = [HabitHistory(habit: read), swim] }
    }
    await store.finish()
    #expect(try await client.fetchHistories() == [HabitHistory(habit: read), swim])
  }

  @Test func addingAHabitWithAnEmptyNameShowsTheFailureUntilItIsDismissed() async throws {
    let store = makeStore()
    await store.send(.addSubmitted(name: "   ")) { $0.today = today }
    await store.receive(.addResponse(.failure(.emptyName))) {
      $0.destination = .alert(.failure(HabitError.emptyName))
    }
    await store.send(.destination(.dismiss)) { $0.destination = nil }
    await store.send(.addSubmitted(name: "Read"))
    let read = try Habit(id: habitID(0), name: "Read", createdAt: now)
    await store.receive(.addResponse(.success(read))) {
      $0.$habits.withLock { $0 = [HabitHistory(habit: read)] }
    }
    await store.finish()
  }

  @Test func addingAHabitWhoseIDIsTakenShowsTheError() async throws {
    let taken = UUIDGenerator.constant(UUID(counting: 7))
    let read = try await at(now, uuid: taken) { try await client.addHabit("Read") }
    let store = makeStore(try await loaded())
    store.dependencies.uuid = taken
    await store.send(.addSubmitted(name: "Walk"))
    await store.receive(.addResponse(.failure(.duplicateID(habitID(7))))) {
      $0.destination = .alert(.failure(HabitError.duplicateID(habitID(7))))
    }
    await store.finish()
    #expect(try await client.fetchHistories() == [HabitHistory(habit: read)])
  }

  // MARK: - Renaming

  @Test func renamingAHabitUpdatesItsRow() async throws {
    let read = try await seed("Read", done: ["2025-03-01"])
    let store = makeStore(try await loaded())
    await store.send(.renameSubmitted(read.id, name: " Read more "))
    var renamed = read.habit
    try renamed.rename(to: "Read more")
    await store.receive(.updateResponse(.success(renamed))) {
      $0.$habits.withLock { $0[id: read.id]?.habit = renamed }
    }
    await store.finish()
  }

  @Test func renamingAHabitThatIsNotStoredShowsTheError() async throws {
    let store = makeStore()
    await store.send(.renameSubmitted(habitID(9), name: "Read")) { $0.today = today }
    await store.receive(.updateResponse(.failure(.habitNotFound(habitID(9))))) {
      $0.destination = .alert(.failure(HabitError.habitNotFound(habitID(9))))
    }
    await store.finish()
    #expect(try await client.fetchHistories() == [])
  }

  @Test func renamingToAnEmptyNameShowsTheErrorAndKeepsTheName() async throws {
    let read = try await seed("Read")
    let store = makeStore(try await loaded())
    await store.send(.renameSubmitted(read.id, name: "\n"))
    await store.receive(.updateResponse(.failure(.emptyName))) {
      $0.destination = .alert(.failure(HabitError.emptyName))
    }
    await store.finish()
    #expect(try await history(of: read.id) == read)
  }

  // MARK: - Archiving

  @Test func archivingAHabitMovesItAfterTheActiveOnes() async throws {
    let read = try await seed("Read", createdAt: "2025-02-01T12:00:00Z")
    let walk = try await seed("Walk", createdAt: "2025-02-02T12:00:00Z")
    let store = makeStore(try await loaded())
    await store.send(.archiveSubmitted(read.id))
    var archived = read.habit
    try archived.archive(on: now)
    await store.receive(.updateResponse(.success(archived))) {
      $0.$habits.withLock { $0 = [walk, HabitHistory(habit: archived)] }
    }
    await store.finish()
  }

  @Test func archivingAnArchivedHabitShowsTheError() async throws {
    let read = try await seed("Read", archivedAt: "2025-02-10T12:00:00Z")
    let store = makeStore(try await loaded())
    await store.send(.archiveSubmitted(read.id))
    await store.receive(.updateResponse(.failure(.alreadyArchived(name: "Read")))) {
      $0.destination = .alert(.failure(HabitError.alreadyArchived(name: "Read")))
    }
    await store.finish()
    #expect(try await history(of: read.id).habit.archivedAt == date("2025-02-10T12:00:00Z"))
  }

  @Test func unarchivingAHabitMovesItBackAmongTheActiveOnes() async throws {
    let read = try await seed("Read", createdAt: "2025-02-01T12:00:00Z")
    let walk = try await seed(
      "Walk", createdAt: "2025-01-15T12:00:00Z", archivedAt: "2025-02-10T12:00:00Z")
    let store = makeStore(try await loaded())
    await store.send(.unarchiveSubmitted(walk.id))
    var active = walk.habit
    try active.unarchive()
    await store.receive(.updateResponse(.success(active))) {
      $0.$habits.withLock { $0 = [HabitHistory(habit: active), read] }
    }
    await store.finish()
  }

  @Test func unarchivingAnActiveHabitShowsTheError() async throws {
    let read = try await seed("Read")
    let store = makeStore(try await loaded())
    await store.send(.unarchiveSubmitted(read.id))
    await store.receive(.updateResponse(.failure(.notArchived(name: "Read")))) {
      $0.destination = .alert(.failure(HabitError.notArchived(name: "Read")))
    }
    await store.finish()
  }

  // MARK: - Completing

  @Test func completingTodayMarksTheRow() async throws {
    let read = try await seed("Read", done: ["2025-02-27"])
    let store = makeStore(try await loaded())
    await store.send(.completeSubmitted(read.id, day: nil))
    await store.receive(
      .completeResponse(.success(Completion(habitID: read.id, day: today, createdAt: now)))
    ) {
      $0.$habits.withLock { $0[id: read.id]?.insert(today) }
    }
    await store.finish()
    #expect(try await history(of: read.id).days == [day("2025-02-27"), today])
  }

  @Test func completingAnEarlierDayFillsItIn() async throws {
    let read = try await seed("Read", done: ["2025-03-01"])
    let store = makeStore(try await loaded())
    await store.send(.completeSubmitted(read.id, day: day("2025-02-28")))
    await store.receive(
      .completeResponse(
        .success(Completion(habitID: read.id, day: day("2025-02-28"), createdAt: now)))
    ) {
      $0.$habits.withLock { $0[id: read.id]?.insert(day("2025-02-28")) }
    }
    await store.finish()
  }

  @Test func completingTwiceOnADayShowsTheError() async throws {
    let read = try await seed("Read", done: ["2025-03-01"])
    let store = makeStore(try await loaded())
    await store.send(.completeSubmitted(read.id, day: nil))
    await store.receive(.completeResponse(.failure(.alreadyCompleted(name: "Read", day: today)))) {
      $0.destination = .alert(.failure(HabitError.alreadyCompleted(name: "Read", day: today)))
    }
    await store.finish()
    #expect(try await history(of: read.id).days == [today])
  }

  @Test func completingAnArchivedHabitShowsTheError() async throws {
    let read = try await seed("Read", archivedAt: "2025-02-10T12:00:00Z")
    let store = makeStore(try await loaded())
    await store.send(.completeSubmitted(read.id, day: nil))
    await store.receive(.completeResponse(.failure(.archived(name: "Read")))) {
      $0.destination = .alert(.failure(HabitError.archived(name: "Read")))
    }
    await store.finish()
    #expect(try await history(of: read.id).days == [])
  }

  @Test func completingAFutureDayShowsTheError() async throws {
    let read = try await seed("Read")
    let store = makeStore(try await loaded())
    await store.send(.completeSubmitted(read.id, day: day("2025-03-02")))
    await store.receive(
      .completeResponse(.failure(.dayInFuture(day("2025-03-02"), today: today)))
    ) {
      $0.destination = .alert(.failure(HabitError.dayInFuture(day("2025-03-02"), today: today)))
    }
    await store.finish()
  }

  @Test func completingADayBeforeTheHabitWasAddedRecordsItAndItsHistoryStartsThere() async throws {
    let read = try await seed("Read", createdAt: "2025-02-20T12:00:00Z")
    let store = makeStore(try await loaded())
    await store.send(.completeSubmitted(read.id, day: day("2025-02-18")))
    await store.receive(
      .completeResponse(
        .success(Completion(habitID: read.id, day: day("2025-02-18"), createdAt: now)))
    ) {
      $0.$habits.withLock { $0[id: read.id]?.insert(day("2025-02-18")) }
    }
    var backfilled = read
    backfilled.insert(day("2025-02-18"))
    await store.send(.habitSelected(read.id)) {
      $0.destination = .detail(
        try detail(of: backfilled.id, in: $0, createdOn: day("2025-02-20")))
    }
    // Tracked from February 18th, not 20th: 12 days to March 1st.
    #expect(
      store.state.destination?.detail?.stats
        == HabitStats(
          currentStreak: 0, longestStreak: 1, completedDays: 1, trackedDays: 12,
          completionRate: 1 / 12))
    // The week of February 16th: Sunday and Monday before it, Tuesday done, then missed days.
    #expect(
      store.state.destination?.detail?.heatMap.weeks.suffix(2).first?.map(\.status.rawValue) == [
        "beforeCreation", "beforeCreation", "completed", "missed", "missed", "missed", "missed",
      ])
    await store.finish()
    #expect(try await history(of: read.id).days == [day("2025-02-18")])
  }

  @Test func uncompletingTodayUnmarksTheRow() async throws {
    let read = try await seed("Read", done: ["2025-02-28", "2025-03-01"])
    let store = makeStore(try await loaded())
    await store.send(.uncompleteSubmitted(read.id, day: nil))
    await store.receive(
      .uncompleteResponse(.success(Completion(habitID: read.id, day: today, createdAt: now)))
    ) {
      $0.$habits.withLock { $0[id: read.id]?.remove(today) }
    }
    await store.finish()
    #expect(try await history(of: read.id).days == [day("2025-02-28")])
  }

  @Test func uncompletingADayThatIsNotDoneShowsTheError() async throws {
    let read = try await seed("Read", done: ["2025-03-01"])
    let store = makeStore(try await loaded())
    await store.send(.uncompleteSubmitted(read.id, day: day("2025-02-28")))
    await store.receive(
      .uncompleteResponse(.failure(.notCompleted(name: "Read", day: day("2025-02-28"))))
    ) {
      $0.destination = .alert(
        .failure(HabitError.notCompleted(name: "Read", day: day("2025-02-28"))))
    }
    await store.finish()
  }

  // MARK: - Deleting

  @Test func deletingAsksForAConfirmationThenDeletesTheHabitAndItsHistory() async throws {
    let read = try await seed("Read", done: ["2025-02-28", "2025-03-01"])
    let walk = try await seed("Walk", done: ["2025-03-01"])
    let store = makeStore(try await loaded())
    await store.send(.deleteSubmitted(read.id)) {
      $0.destination = .alert(.deletion(of: read.habit, completionCount: 2))
    }
    await store.send(.destination(.presented(.alert(.confirmDeletion(read.id))))) {
      $0.destination = nil
    }
    await store.receive(.deleteResponse(.success(read.habit))) {
      $0.$habits.withLock { $0 = [walk] }
    }
    await store.finish()
    #expect(try await client.fetchHistories() == [walk])
  }

  @Test func cancellingADeletionKeepsTheHabit() async throws {
    let read = try await seed("Read")
    let store = makeStore(try await loaded())
    await store.send(.deleteSubmitted(read.id)) {
      $0.destination = .alert(.deletion(of: read.habit, completionCount: 0))
    }
    await store.send(.destination(.dismiss)) { $0.destination = nil }
    await store.finish()
    #expect(try await client.fetchHistories() == [read])
  }

  @Test func deletingAHabitThatIsNotListedShowsTheError() async throws {
    let store = makeStore()
    await store.send(.deleteSubmitted(habitID(9))) {
      $0.today = today
      $0.destination = .alert(.failure(HabitError.habitNotFound(habitID(9))))
    }
  }

  @Test func deletingAHabitThatIsNoLongerStoredShowsTheError() async throws {
    let read = try await seed("Read")
    let store = makeStore(try await loaded())
    _ = try await client.deleteHabit(read.id)
    await store.send(.deleteSubmitted(read.id)) {
      $0.destination = .alert(.deletion(of: read.habit, completionCount: 0))
    }
    await store.send(.destination(.presented(.alert(.confirmDeletion(read.id))))) {
      $0.destination = nil
    }
    await store.receive(.deleteResponse(.failure(.habitNotFound(read.id)))) {
      $0.destination = .alert(.failure(HabitError.habitNotFound(read.id)))
    }
    await store.finish()
  }

  @Test(arguments: [
    (0, "Delete 'Read'?"), (1, "Delete 'Read' and its 1 completion?"),
    (2, "Delete 'Read' and its 2 completions?"),
  ])
  func theDeletionAlertCountsTheCompletions(count: Int, title: String) throws {
    let read = try Habit(id: habitID(1), name: "Read", createdAt: now)
    #expect(
      AlertState.deletion(of: read, completionCount: count)
        == AlertState {
          TextState(title)
        } actions: {
          ButtonState(role: .destructive, action: .confirmDeletion(read.id)) {
            TextState("Delete")
          }
          ButtonState(role: .cancel) { TextState("Keep") }
        } message: {
          TextState("This cannot be undone.")
        })
  }

  @Test func anAnswerWithNoQuestionAskedDeletesNothing() async throws {
    let read = try await seed("Read")
    let store = makeStore(try await loaded())
    let issues = IssueCollector()
    await withIssueReporter(issues) {
      await store.send(.destination(.presented(.alert(.confirmDeletion(read.id)))))
    }
    // NB: the line of the `ifLet` is Loop's to check; this test checks the feature's answer.
    let messages = issues.messages.map {
      $0.replacing(/Habits\/Habits\.swift:\d+/, with: "Habits/Habits.swift:<line>")
    }
    #expect(
      messages == [
        """
        An 'ifLet' at 'Habits/Habits.swift:<line>' received a presentation action when nothing \
        was presented:

            Habits.Action.destination(
              .presented(
                .alert(
                  .confirmDeletion(
                    Habit.ID(
                      rawValue: UUID(\(read.id.rawValue.uuidString))
                    )
                  )
                )
              )
            )

        This is usually an effect that outlived its child, or an action sent after the child \
        was dismissed. To fix, send the child's actions only while it is presented; its effects \
        are cancelled when it is dismissed.
        """
      ])
    await store.finish()
    #expect(try await client.fetchHistories() == [read])
  }

  // MARK: - Detail

  @Test func openingAHabitShowsItsStreaksAndHeatMap() async throws {
    let read = try await seed(
      "Read", createdAt: "2025-02-20T12:00:00Z",
      done: ["2025-02-21", "2025-02-22", "2025-02-26", "2025-02-27", "2025-02-28"])
    let store = makeStore(try await loaded())
    await store.send(.habitSelected(read.id)) {
      $0.destination = .detail(
        try detail(of: read.id, in: $0, createdOn: day("2025-02-20")))
    }
    #expect(
      store.state.destination?.detail?.stats
        == HabitStats(
          currentStreak: 3, longestStreak: 3, completedDays: 5, trackedDays: 10,
          completionRate: 0.5))
    #expect(store.state.destination?.detail?.heatMap.weeks.count == 12)
    #expect(
      store.state.destination?.detail?.heatMap.weeks.suffix(2).map { $0.map(\.status.rawValue) }
        == [
          [
            "beforeCreation", "beforeCreation", "beforeCreation", "beforeCreation", "missed",
            "completed", "completed",
          ],
          ["missed", "missed", "missed", "completed", "completed", "completed", "missed"],
        ])
    await store.send(.destination(.presented(.detail(.weekCountChanged(4))))) {
      $0.destination?.detail?.weekCount = 4
    }
    #expect(store.state.destination?.detail?.heatMap.weeks.first?.first?.day == day("2025-02-02"))
    await store.send(.destination(.dismiss)) { $0.destination = nil }
  }

  @Test func openingAHabitThatIsNotListedShowsTheError() async throws {
    let store = makeStore()
    await store.send(.habitSelected(habitID(9))) {
      $0.today = today
      $0.destination = .alert(.failure(HabitError.habitNotFound(habitID(9))))
    }
  }

  @Test func theOpenDetailFollowsCompletionsAcrossTheYearBoundary() async throws {
    let newYear = date("2025-01-01T09:00:00Z")
    let read = try await seed("Read", createdAt: "2024-12-20T12:00:00Z")
    for text in ["2024-12-30", "2024-12-31"] {
      _ = try await at(newYear, uuid: uuid) { try await client.addCompletion(read.id, day(text)) }
    }
    let loaded = try await history(of: read.id)
    let store = makeStore(
      Habits.State(habits: [loaded], today: day("2025-01-01")), now: newYear)
    await store.send(.habitSelected(read.id)) {
      $0.destination = .detail(
        try detail(of: loaded.id, in: $0, createdOn: day("2024-12-20"), today: day("2025-01-01")))
    }
    #expect(store.state.destination?.detail?.stats.currentStreak == 2)
    await store.send(.completeSubmitted(read.id, day: nil))
    await store.receive(
      .completeResponse(
        .success(Completion(habitID: read.id, day: day("2025-01-01"), createdAt: newYear)))
    ) {
      $0.$habits.withLock { $0[id: read.id]?.insert(day("2025-01-01")) }
    }
    #expect(store.state.destination?.detail?.stats.currentStreak == 3)
    #expect(store.state.destination?.detail?.stats.longestStreak == 3)
    await store.finish()
  }

  @Test func streaksRunAcrossTheMonthBoundary() async throws {
    let read = try await seed("Read", done: ["2025-02-27", "2025-02-28"])
    let store = makeStore(try await loaded())
    await store.send(.habitSelected(read.id)) {
      $0.destination = .detail(
        try detail(of: read.id, in: $0, createdOn: day("2025-02-01")))
    }
    #expect(store.state.destination?.detail?.stats.currentStreak == 2)
    await store.send(.completeSubmitted(read.id, day: nil))
    await store.receive(
      .completeResponse(.success(Completion(habitID: read.id, day: today, createdAt: now)))
    ) {
      $0.$habits.withLock { $0[id: read.id]?.insert(today) }
    }
    #expect(store.state.destination?.detail?.stats.currentStreak == 3)
    await store.finish()
  }

  @Test func askingToDeleteTheOpenHabitReplacesItsDetailWithTheQuestion() async throws {
    let read = try await seed("Read")
    let store = makeStore(try await loaded())
    await store.send(.habitSelected(read.id)) {
      $0.destination = .detail(
        try detail(of: read.id, in: $0, createdOn: day("2025-02-01")))
    }
    await store.send(.deleteSubmitted(read.id)) {
      $0.destination = .alert(.deletion(of: read.habit, completionCount: 0))
    }
    await store.send(.destination(.presented(.alert(.confirmDeletion(read.id))))) {
      $0.destination = nil
    }
    await store.receive(.deleteResponse(.success(read.habit))) { $0.$habits.withLock { $0 = [] } }
    await store.finish()
  }

  @Test func theOpenDetailShowsARenameThroughTheSharedList() async throws {
    let read = try await seed("Read")
    let store = makeStore(try await loaded())
    await store.send(.habitSelected(read.id)) {
      $0.destination = .detail(try detail(of: read.id, in: $0, createdOn: day("2025-02-01")))
    }
    await store.send(.renameSubmitted(read.id, name: "Read more"))
    var renamed = read.habit
    try renamed.rename(to: "Read more")
    await store.receive(.updateResponse(.success(renamed))) {
      $0.$habits.withLock { $0[id: read.id]?.habit = renamed }
    }
    #expect(store.state.destination?.detail?.history.habit.name == "Read more")
    await store.finish()
  }

  @Test func reloadingKeepsTheOpenDetailOfAListedHabit() async throws {
    let read = try await seed("Read")
    let store = makeStore(try await loaded())
    await store.send(.habitSelected(read.id)) {
      $0.destination = .detail(try detail(of: read.id, in: $0, createdOn: day("2025-02-01")))
    }
    _ = try await at(now, uuid: uuid) { try await client.addCompletion(read.id, today) }
    await store.send(.onAppear)
    await store.receive(.habitsResponse(.success([try await history(of: read.id)]))) {
      $0.$habits.withLock { $0[id: read.id]?.insert(today) }
    }
    #expect(store.state.destination?.detail?.history.days == [today])
    await store.finish()
  }

  // A deletion that ends while a detail is open closes the detail only when it deleted the
  // detail's habit.
  @Test(arguments: [true, false])
  func aDeletionEndingWhileADetailIsOpenClosesItOnlyWhenItDeletedItsHabit(
    deletesTheOpenHabit: Bool
  ) async throws {
    let read = try await seed("Read")
    let walk = try await seed("Walk")
    let (deleted, kept) = deletesTheOpenHabit ? (read, walk) : (walk, read)
    let clock = TestClock()
    let store = makeStore(try await loaded())
    store.dependencies.habitClient.deleteHabit = { [client] id in
      try await clock.sleep(for: .seconds(1))
      return try await client.deleteHabit(id)
    }
    await store.send(.deleteSubmitted(deleted.id)) {
      $0.destination = .alert(.deletion(of: deleted.habit, completionCount: 0))
    }
    await store.send(.destination(.presented(.alert(.confirmDeletion(deleted.id))))) {
      $0.destination = nil
    }
    await store.send(.habitSelected(read.id)) {
      $0.destination = .detail(try detail(of: read.id, in: $0, createdOn: day("2025-02-01")))
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.deleteResponse(.success(deleted.habit))) {
      $0.$habits.withLock { $0 = [kept] }
      if deletesTheOpenHabit { $0.destination = nil }
    }
    await store.finish()
  }

  @Test func theDetailOfAHabitThatIsGoneCloses() async throws {
    let read = try await seed("Read")
    let store = makeStore(try await loaded())
    await store.send(.habitSelected(read.id)) {
      $0.destination = .detail(
        try detail(of: read.id, in: $0, createdOn: day("2025-02-01")))
    }
    _ = try await client.deleteHabit(read.id)
    await store.send(.onAppear)
    await store.receive(.habitsResponse(.success([]))) {
      $0.$habits.withLock { $0 = [] }
      $0.destination = nil
    }
    await store.finish()
  }

  @Test func closingTheDetailIsAUserAction() async throws {
    let read = try await seed("Read")
    var state = try await loaded()
    state.destination = .detail(try detail(of: read.id, in: state, createdOn: day("2025-02-01")))
    let store = makeStore(state)
    await store.send(.destination(.dismiss)) {
      $0.destination = nil
    }
    await store.finish()
  }

  @Test func theDestinationsStateReadsAndChangesOnlyItsOwnCase() throws {
    let read = try Habit(id: habitID(1), name: "Read", createdAt: now)
    let question = AlertState.deletion(of: read, completionCount: 0)
    var destination = Habits.Destination.State.alert(question)
    #expect(destination.detail == nil)
    #expect(destination.alert == question)
    destination.detail = HabitDetail.State(
      history: Shared(value: HabitHistory(habit: read)), createdOn: today, today: today,
      firstWeekday: 1)
    #expect(destination == .alert(question))
    destination.alert?.title = TextState("Sure?")
    #expect(destination.alert?.title == TextState("Sure?"))
    destination.alert = nil
    #expect(destination.alert?.title == TextState("Sure?"))
  }

  // MARK: - Time zones

  @Test func todayFollowsTheUserAcrossTimeZones() async throws {
    // 23:30 on March 1st in New York is 13:30 on March 2nd in Tokyo.
    let evening = date("2025-03-01T23:30:00-05:00")
    let read = try await seed("Read", done: ["2025-02-28"])
    let store = makeStore(try await loaded(), now: evening, timeZone: .newYork)
    await store.send(.habitSelected(read.id)) {
      $0.destination = .detail(
        try detail(of: read.id, in: $0, createdOn: day("2025-02-01")))
    }
    await store.send(.completeSubmitted(read.id, day: nil))
    await store.receive(
      .completeResponse(.success(Completion(habitID: read.id, day: today, createdAt: evening)))
    ) {
      $0.$habits.withLock { $0[id: read.id]?.insert(today) }
    }
    #expect(store.state.destination?.detail?.stats.currentStreak == 2)

    store.dependencies.timeZone = .tokyo
    await store.send(.completeSubmitted(read.id, day: nil)) {
      $0.today = day("2025-03-02")
      $0.destination?.detail?.today = day("2025-03-02")
    }
    await store.receive(
      .completeResponse(
        .success(Completion(habitID: read.id, day: day("2025-03-02"), createdAt: evening)))
    ) {
      $0.$habits.withLock { $0[id: read.id]?.insert(day("2025-03-02")) }
    }
    #expect(store.state.destination?.detail?.stats.currentStreak == 3)

    store.dependencies.timeZone = .newYork
    await store.send(.uncompleteSubmitted(read.id, day: day("2025-03-02"))) {
      $0.today = today
      $0.destination?.detail?.today = today
    }
    await store.receive(
      .uncompleteResponse(
        .success(Completion(habitID: read.id, day: day("2025-03-02"), createdAt: evening)))
    ) {
      $0.$habits.withLock { $0[id: read.id]?.remove(day("2025-03-02")) }
    }
    await store.finish()
  }

  @Test func theCreationDayMovesWithTheTimeZone() async throws {
    // Created at 23:30 on March 1st in New York, which is March 2nd in Tokyo.
    let evening = date("2025-03-01T23:30:00-05:00")
    let read = try await seed("Read", createdAt: "2025-03-01T23:30:00-05:00")
    let store = makeStore(try await loaded(), now: evening, timeZone: .newYork)
    await store.send(.habitSelected(read.id)) {
      $0.destination = .detail(
        try detail(of: read.id, in: $0, createdOn: today))
    }
    store.dependencies.timeZone = .tokyo
    await store.send(.completeSubmitted(read.id, day: today)) {
      $0.today = day("2025-03-02")
      $0.destination?.detail?.today = day("2025-03-02")
      $0.destination?.detail?.createdOn = day("2025-03-02")
    }
    await store.receive(
      .completeResponse(.success(Completion(habitID: read.id, day: today, createdAt: evening)))
    ) {
      $0.$habits.withLock { $0[id: read.id]?.insert(today) }
    }
    // Created on March 2nd in Tokyo, done on March 1st: tracked from the 1st.
    #expect(store.state.destination?.detail?.stats.trackedDays == 2)
    await store.finish()
  }
}
