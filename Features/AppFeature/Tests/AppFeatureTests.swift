import AppFeature
import Foundation
import HabitClient
import Habits
import Ledger
import LedgerClient
import LoopTesting
import Testing

@MainActor
@Suite struct AppFeatureTests {
  /// 2025-03-15 10:00 UTC.
  let now = Date(timeIntervalSince1970: 1_742_032_800)
  let habitClient = HabitClient.inMemory()
  let ledgerClient = LedgerClient.inMemory()

  func makeStore(_ state: AppFeature.State = AppFeature.State())
    -> TestStore<AppFeature.State, AppFeature.Action>
  {
    TestStore(initialState: state) {
      AppFeature()
    } withDependencies: {
      $0.calendar = Calendar(identifier: .gregorian)
      $0.continuousClock = TestClock()
      $0.date = .constant(now)
      $0.habitClient = habitClient
      $0.ledgerClient = ledgerClient
      $0.timeZone = TimeZone(identifier: "UTC") ?? .current
      $0.uuid = .incrementing
    }
  }

  var today: Day { Day(now, in: TimeZone(identifier: "UTC") ?? .current) }

  @Test func habitActionsRunTheHabitsFeature() async throws {
    let store = makeStore()
    await store.send(.habits(.addHabitSubmitted(name: "Read"))) {
      $0.habits.today = today
    }
    let habit = try Habit(
      id: Habit.ID(UUID(counting: 0)), name: "Read", createdAt: now)
    await store.receive(.habits(.createResponse(.success(habit)))) {
      $0.habits.habits = [HabitHistory(habit: habit)]
    }
  }

  @Test func ledgerActionsRunTheLedgerFeature() async throws {
    let store = makeStore()
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
    await store.send(.ledger(.onAppear)) {
      $0.ledger.isLoading = true
      $0.ledger.months = LedgerMonth.months(endingWith: now, count: 12, calendar: calendar)
    }
    await store.receive(.ledger(.transactionsLoaded(.success([])))) {
      $0.ledger.isLoading = false
    }
  }

  @Test func aFeatureErrorIsTheAppsErrorMessage() async throws {
    let store = makeStore()
    let missing = Habit.ID(UUID(counting: 9))
    await store.send(.habits(.deleteButtonTapped(missing))) {
      $0.habits.today = today
      $0.habits.errorMessage = HabitError.habitNotFound(missing).description
    }
    #expect(store.state.firstErrorMessage == HabitError.habitNotFound(missing).description)
  }

  @Test func errorsDismissedClearsEveryFeaturesError() async throws {
    let draft = TransactionDraft(date: now)
    var state = AppFeature.State()
    state.habits.errorMessage = "habits failed"
    state.ledger.errorMessage = "ledger failed"
    state.ledger.editor = TransactionEditor.State(
      mode: .add, draft: draft, errorMessage: "editor failed")
    #expect(state.errorMessages == ["habits failed", "ledger failed", "editor failed"])
    let store = makeStore(state)
    await store.send(.errorsDismissed) {
      $0.habits.errorMessage = nil
      $0.ledger.errorMessage = nil
      $0.ledger.editor?.errorMessage = nil
    }
    #expect(store.state.firstErrorMessage == nil)
  }

  @Test func noErrorMessageWhenNothingFailed() {
    #expect(AppFeature.State().errorMessages == [])
    #expect(AppFeature.State().firstErrorMessage == nil)
  }
}
