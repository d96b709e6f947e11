import Foundation
import HabitClient
import HabitClientLive
import Persistence
import TestSupport
import Testing

@Suite struct DayTests {
  @Test func fieldsMakeOnlyDaysThatExist() {
    #expect(Day(year: 2024, month: 2, day: 29)?.description == "2024-02-29")
    #expect(Day(year: 2025, month: 2, day: 29) == nil)
    #expect(Day(year: 1900, month: 2, day: 29) == nil)
    #expect(Day(year: 2000, month: 2, day: 29)?.description == "2000-02-29")
    #expect(Day(year: 2025, month: 4, day: 31) == nil)
    #expect(Day(year: 2025, month: 13, day: 1) == nil)
    #expect(Day(year: 2025, month: 0, day: 1) == nil)
    #expect(Day(year: 2025, month: 1, day: 0) == nil)
    #expect(Day(year: 0, month: 1, day: 1) == nil)
    #expect(Day(year: 10_000, month: 1, day: 1) == nil)
  }

  @Test(arguments: [
    ("2025-03-01", "2025-03-01"),
    ("0001-01-01", "0001-01-01"),
    ("9999-12-31", "9999-12-31"),
  ])
  func parsesAndPrintsIsoDays(text: String, printed: String) {
    #expect(Day(text)?.description == printed)
  }

  @Test(arguments: [
    "", "2025-3-1", "2025-03-1", "25-03-01", "2025/03/01", "2025-02-30", "2025-03-01 ",
    "+025-03-01", "2025-0３-01", "2025-03-01-01", "abcd-ef-gh",
  ])
  func rejectsTextThatIsNotADay(text: String) {
    #expect(Day(text) == nil)
  }

  @Test func advancesAcrossMonthsYearsAndLeapDays() {
    #expect(day("2024-02-28").advanced(by: 1) == day("2024-02-29"))
    #expect(day("2024-02-28").advanced(by: 2) == day("2024-03-01"))
    #expect(day("2025-02-28").advanced(by: 1) == day("2025-03-01"))
    #expect(day("2024-12-31").advanced(by: 1) == day("2025-01-01"))
    #expect(day("2025-01-01").advanced(by: -1) == day("2024-12-31"))
    #expect(day("2025-03-01").advanced(by: -29) == day("2025-01-31"))
    #expect(day("1969-12-31").advanced(by: 1) == day("1970-01-01"))
    #expect(day("2000-01-01").advanced(by: 366) == day("2001-01-01"))
  }

  @Test func measuresDistancesInDays() {
    #expect(day("2024-01-01").distance(to: day("2025-01-01")) == 366)
    #expect(day("2025-01-01").distance(to: day("2024-01-01")) == -366)
    #expect(day("0001-01-01").distance(to: day("9999-12-31")) == 3_652_058)
  }

  @Test func rangesOfDaysCountEveryDay() {
    let days = Array(day("2024-12-30")...day("2025-01-02")).map(\.description)
    #expect(days == ["2024-12-30", "2024-12-31", "2025-01-01", "2025-01-02"])
  }

  @Test func ordersByDate() {
    #expect(day("2024-12-31") < day("2025-01-01"))
    #expect(day("2025-01-31") < day("2025-02-01"))
    #expect(!(day("2025-02-01") < day("2025-02-01")))
  }

  @Test func weekdaysAreNumberedAsCalendarNumbersThem() {
    #expect(day("1970-01-01").weekday == 5)  // Thursday
    #expect(day("2025-03-02").weekday == 1)  // Sunday
    #expect(day("2025-03-03").weekday == 2)  // Monday
    #expect(day("2025-03-08").weekday == 7)  // Saturday
    #expect(day("1969-12-28").weekday == 1)  // Sunday, before 1970
  }

  @Test func anInstantFallsOnTheDayOfTheTimeZone() {
    let instant = date("2025-03-02T04:30:00Z")
    #expect(Day(instant, in: .utc) == day("2025-03-02"))
    #expect(Day(instant, in: .newYork) == day("2025-03-01"))
    #expect(Day(instant, in: .tokyo) == day("2025-03-02"))
    #expect(Day(date("2025-03-01T23:30:00-05:00"), in: .newYork) == day("2025-03-01"))
    #expect(Day(date("2025-03-01T00:00:00-05:00"), in: .newYork) == day("2025-03-01"))
    #expect(Day(date("2025-02-28T23:59:59-05:00"), in: .newYork) == day("2025-02-28"))
  }

  @Test func daylightSavingTimeMovesMidnight() {
    // New York moves to UTC−4 on 2025-03-09; midnight on the 10th is 04:00 UTC.
    #expect(Day(date("2025-03-10T03:59:59Z"), in: .newYork) == day("2025-03-09"))
    #expect(Day(date("2025-03-10T04:00:00Z"), in: .newYork) == day("2025-03-10"))
  }

  @Test func isStoredAsAnOrderedInteger() throws {
    #expect(day("2025-03-01").encodeColumn() == .integer(20_250_301))
    #expect(try Day(decodingColumn: .integer(20_241_231)) == day("2024-12-31"))
    #expect(Day.columnType == .integer)
    #expect(Day.comparability == .ordering)
  }

  @Test(arguments: [
    SQLValue.integer(20_250_230), .integer(0), .integer(-20_250_301), .text("2025-03-01"),
    .null,
  ])
  func rejectsStoredValuesThatAreNotDays(value: SQLValue) {
    #expect(throws: (any Error).self) { try Day(decodingColumn: value) }
  }

  @Test func encodesAsItsIsoStringInJSON() throws {
    let data = try JSONEncoder().encode([day("2025-03-01")])
    #expect(String(decoding: data, as: UTF8.self) == #"["2025-03-01"]"#)
    #expect(try JSONDecoder().decode([Day].self, from: data) == [day("2025-03-01")])
  }

  @Test func refusesToDecodeTextThatIsNotADay() {
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode([Day].self, from: Data(#"["2025-02-30"]"#.utf8))
    }
  }
}
