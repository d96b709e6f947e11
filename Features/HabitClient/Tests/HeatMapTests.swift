import HabitClient
import TestSupport
import Testing

@Suite struct HeatMapTests {
  /// The map drawn one week a line: `#` completed, `.` missed, `~` future, ` ` before creation.
  func drawing(_ map: HeatMap) -> [String] {
    map.weeks.map { week in
      String(
        week.map { cell -> Character in
          switch cell.status {
          case .completed: "#"
          case .missed: "."
          case .future: "~"
          case .beforeCreation: " "
          }
        })
    }
  }

  @Test func weeksEndWithTheCurrentWeekStartingOnSunday() {
    // 2025-03-01 is a Saturday.
    let map = HeatMap(
      weeks: 3, days: ["2025-02-20", "2025-02-25", "2025-03-01"].map(day),
      createdOn: day("2025-02-19"), today: day("2025-03-01"), firstWeekday: 1)
    #expect(map.firstWeekday == 1)
    #expect(
      map.weeks.map { $0.first?.day.description } == ["2025-02-09", "2025-02-16", "2025-02-23"])
    #expect(map.weeks.map(\.count) == [7, 7, 7])
    #expect(drawing(map) == ["       ", "   .#..", "..#...#"])
  }

  @Test func weeksCanStartOnMonday() {
    let map = HeatMap(
      weeks: 2, days: ["2025-02-24", "2025-03-01"].map(day),
      createdOn: day("2025-02-19"), today: day("2025-03-01"), firstWeekday: 2)
    #expect(map.weeks.map { $0.first?.day.description } == ["2025-02-17", "2025-02-24"])
    #expect(map.weeks.last?.last == HeatMap.Cell(day: day("2025-03-02"), status: .future))
    #expect(drawing(map) == ["  .....", "#....#~"])
  }

  @Test func aWeekRunsAcrossTheYearBoundary() {
    // 2025-01-02 is a Thursday.
    let map = HeatMap(
      weeks: 1, days: ["2024-12-31", "2025-01-01"].map(day),
      createdOn: day("2024-12-01"), today: day("2025-01-02"), firstWeekday: 2)
    #expect(
      map.weeks.first?.map(\.day.description) == [
        "2024-12-30", "2024-12-31", "2025-01-01", "2025-01-02", "2025-01-03", "2025-01-04",
        "2025-01-05",
      ])
    #expect(drawing(map) == [".##.~~~"])
  }

  @Test func noWeeksMakeAnEmptyMap() {
    let map = HeatMap(
      weeks: 0, days: [day("2025-03-01")], createdOn: day("2025-03-01"),
      today: day("2025-03-01"), firstWeekday: 1)
    #expect(map.weeks == [])
    let negative = HeatMap(
      weeks: -2, days: [], createdOn: day("2025-03-01"), today: day("2025-03-01"), firstWeekday: 1)
    #expect(negative.weeks == [])
  }

  @Test func aCompletionBeforeTheCreationDayStartsTheTracking() {
    // Done on March 1st in New York; seen from Tokyo, the habit was created on March 2nd.
    let map = HeatMap(
      weeks: 2, days: [day("2025-03-01")], createdOn: day("2025-03-02"),
      today: day("2025-03-02"), firstWeekday: 1)
    #expect(drawing(map) == ["      #", ".~~~~~~"])
  }
}
