import Foundation
import HabitClient
import Habits
import LoopTesting
import TestSupport
import Testing

@MainActor
@Suite struct HabitDetailTests {
  func makeStore() throws -> TestStore<HabitDetail.State, HabitDetail.Action> {
    let read = try Habit(id: habitID(0), name: "Read", createdAt: date("2025-02-01T12:00:00Z"))
    let state = HabitDetail.State(
      history: Shared(value: HabitHistory(habit: read, days: [day("2025-02-28")])),
      createdOn: day("2025-02-01"), today: day("2025-03-01"), firstWeekday: 2)
    return TestStore(initialState: state) { HabitDetail() }
  }

  @Test func theHeatMapShowsTheChosenNumberOfWeeks() async throws {
    let store = try makeStore()
    #expect(store.state.heatMap.weeks.count == 12)
    await store.send(.weekCountChanged(1)) { $0.weekCount = 1 }
    #expect(
      store.state.heatMap.weeks.map { $0.map(\.status.rawValue) } == [
        ["missed", "missed", "missed", "missed", "completed", "missed", "future"]
      ])
    #expect(store.state.heatMap.weeks.first?.first?.day == day("2025-02-24"))
  }

  @Test func aWeekCountOutsideTheRangeKeepsTheMap() async throws {
    let store = try makeStore()
    await store.send(.weekCountChanged(0))
    await store.send(.weekCountChanged(521))
    await store.send(.weekCountChanged(520)) { $0.weekCount = 520 }
    #expect(store.state.heatMap.weeks.count == 520)
  }

  @Test func statsAreComputedForToday() throws {
    let store = try makeStore()
    #expect(
      store.state.stats
        == HabitStats(
          currentStreak: 1, longestStreak: 1, completedDays: 1, trackedDays: 29,
          completionRate: 1.0 / 29.0))
  }
}
