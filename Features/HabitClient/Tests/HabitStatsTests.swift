import HabitClient
import TestSupport
import Testing

@Suite struct HabitStatsTests {
  func stats(_ days: [String], createdOn: String, today: String) -> HabitStats {
    HabitStats(days: days.map(day), createdOn: day(createdOn), today: day(today))
  }

  @Test func aNewHabitHasNoStreakAndOneTrackedDay() {
    #expect(
      stats([], createdOn: "2025-03-01", today: "2025-03-01")
        == HabitStats(
          currentStreak: 0, longestStreak: 0, completedDays: 0, trackedDays: 1, completionRate: 0))
  }

  @Test func theCurrentStreakEndsToday() {
    let stats = stats(
      ["2025-02-26", "2025-02-27", "2025-02-28", "2025-03-01"], createdOn: "2025-02-01",
      today: "2025-03-01")
    #expect(stats.currentStreak == 4)
    #expect(stats.longestStreak == 4)
  }

  @Test func theCurrentStreakHoldsUntilTodayIsOver() {
    let stats = stats(["2025-02-27", "2025-02-28"], createdOn: "2025-02-01", today: "2025-03-01")
    #expect(stats.currentStreak == 2)
  }

  @Test func aMissedDayBreaksTheCurrentStreak() {
    let stats = stats(["2025-02-26", "2025-02-27"], createdOn: "2025-02-01", today: "2025-03-01")
    #expect(stats.currentStreak == 0)
    #expect(stats.longestStreak == 2)
  }

  @Test func streaksRunAcrossAMonthBoundary() {
    let stats = stats(
      ["2025-01-30", "2025-01-31", "2025-02-01", "2025-02-02"], createdOn: "2025-01-01",
      today: "2025-02-02")
    #expect(stats.currentStreak == 4)
    #expect(stats.longestStreak == 4)
  }

  @Test func streaksRunAcrossALeapDay() {
    let stats = stats(
      ["2024-02-28", "2024-02-29", "2024-03-01"], createdOn: "2024-02-01", today: "2024-03-01")
    #expect(stats.currentStreak == 3)
    #expect(stats.longestStreak == 3)
    let notLeap = self.stats(
      ["2023-02-28", "2023-03-01"], createdOn: "2023-02-01", today: "2023-03-01")
    #expect(notLeap.currentStreak == 2)
  }

  @Test func streaksRunAcrossAYearBoundary() {
    let stats = stats(
      ["2024-12-30", "2024-12-31", "2025-01-01"], createdOn: "2024-12-01", today: "2025-01-02")
    #expect(stats.currentStreak == 3)
    #expect(stats.longestStreak == 3)
  }

  @Test func theLongestStreakIsTheLongestRunEver() {
    let stats = stats(
      [
        "2025-01-10", "2025-01-11", "2025-01-12",
        "2024-12-29", "2024-12-30", "2024-12-31", "2025-01-01", "2025-01-02",
        "2025-01-05",
      ],
      createdOn: "2024-12-01", today: "2025-01-12")
    #expect(stats.currentStreak == 3)
    #expect(stats.longestStreak == 5)
  }

  @Test func theRateCountsTheLastThirtyDays() {
    // Created long ago; every other day of the 30 days up to today is done, and a few before.
    let window = (0..<30).map { day("2025-03-01").advanced(by: -$0) }
    let done = window.enumerated().filter { $0.offset.isMultiple(of: 2) }.map(\.element)
    let older = ["2025-01-01", "2025-01-30"].map(day)
    let stats = HabitStats(
      days: done + older, createdOn: day("2024-06-01"), today: day("2025-03-01"))
    #expect(stats.completedDays == 15)
    #expect(stats.trackedDays == 30)
    #expect(stats.completionRate == 0.5)
  }

  @Test func theRateOfAYoungHabitCountsOnlyTheDaysSinceItWasCreated() {
    let stats = stats(
      ["2025-02-27", "2025-02-28", "2025-03-01"], createdOn: "2025-02-27", today: "2025-03-01")
    #expect(stats.completedDays == 3)
    #expect(stats.trackedDays == 3)
    #expect(stats.completionRate == 1)
  }

  @Test func aMoveToAnotherTimeZoneCanPutACompletionBeforeTheCreationDay() {
    // Created and done at 23:30 on March 1st in New York, then seen from Tokyo, where the
    // creation fell on March 2nd: tracking starts at the completion, so the rate stays ≤ 1.
    let stats = stats(["2025-03-01"], createdOn: "2025-03-02", today: "2025-03-02")
    #expect(stats.currentStreak == 1)
    #expect(stats.completedDays == 1)
    #expect(stats.trackedDays == 2)
    #expect(stats.completionRate == 0.5)
  }

  @Test func aCompletionAfterTodayCountsOnlyForTheLongestStreak() {
    // Done on March 1st and 2nd in Tokyo, then seen from New York, where it is still March 1st.
    let stats = stats(["2025-03-01", "2025-03-02"], createdOn: "2025-03-01", today: "2025-03-01")
    #expect(stats.currentStreak == 1)
    #expect(stats.longestStreak == 2)
    #expect(stats.completedDays == 1)
    #expect(stats.trackedDays == 1)
  }

  @Test func historiesComputeTheirStats() throws {
    let read = try habit(1, "Read", createdAt: date("2025-02-27T12:00:00Z"))
    let history = HabitHistory(habit: read, days: [day("2025-03-01"), day("2025-02-28")])
    #expect(
      history.stats(createdOn: day("2025-02-27"), today: day("2025-03-01"))
        == HabitStats(
          currentStreak: 2, longestStreak: 2, completedDays: 2, trackedDays: 3,
          completionRate: 2.0 / 3.0))
  }
}

@Suite struct HabitHistoryTests {
  let read = Result { try habit(1, "Read", createdAt: date("2025-02-01T12:00:00Z")) }

  @Test func daysAreSortedAndUnique() throws {
    let history = HabitHistory(
      habit: try read.get(), days: ["2025-03-01", "2025-01-31", "2025-03-01"].map(day))
    #expect(history.days == [day("2025-01-31"), day("2025-03-01")])
    #expect(history.id == habitID(1))
  }

  @Test func insertingAndRemovingKeepsTheOrder() throws {
    var history = HabitHistory(habit: try read.get(), days: ["2025-02-01", "2025-02-03"].map(day))
    history.insert(day("2025-02-02"))
    history.insert(day("2025-02-02"))
    history.insert(day("2025-02-04"))
    history.insert(day("2025-01-31"))
    #expect(
      history.days
        == ["2025-01-31", "2025-02-01", "2025-02-02", "2025-02-03", "2025-02-04"].map(day)
    )
    history.remove(day("2025-02-02"))
    history.remove(day("2025-02-10"))
    #expect(history.days == ["2025-01-31", "2025-02-01", "2025-02-03", "2025-02-04"].map(day))
    #expect(history.isCompleted(on: day("2025-02-03")))
    #expect(!history.isCompleted(on: day("2025-02-02")))
    #expect(!history.isCompleted(on: day("2025-03-01")))
  }
}
