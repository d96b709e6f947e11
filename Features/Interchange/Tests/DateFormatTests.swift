import Interchange
import TestSupport
import Testing

@Suite struct DateFormatTests {
  @Test(arguments: [
    ("yyyy-MM-dd", "2025-01-31"), ("dd.MM.yyyy", "31.01.2025"), ("MM/dd/yyyy", "01/31/2025"),
    ("d.M.yyyy", "31.1.2025"), ("yyyyMMdd", "20250131"),
  ])
  func readsAndWritesADay(_ pattern: String, _ text: String) throws {
    let format = try DateFormat(pattern)
    let day = try #require(format.day(from: text))
    #expect(day == (2025, 1, 31))
    #expect(format.string(year: 2025, month: 1, day: 31) == text)
  }

  @Test func readsOneDigitMonthsAndDaysWithAPaddedPattern() throws {
    let day = try #require(try DateFormat("MM/dd/yyyy").day(from: "1/5/2025"))
    #expect(day == (2025, 1, 5))
  }

  @Test(arguments: ["31.01.25", "2025-01-31", "31.02.2025", "31.01.2025x", "", "3l.01.2025"])
  func refusesTextThatDoesNotMatchOrIsNoDay(_ text: String) throws {
    #expect(try DateFormat("dd.MM.yyyy").day(from: text) == nil)
  }

  @Test(arguments: ["yy-MM-dd", "dd.MM", "yyyy-MM-dd HH:mm", "yyyy-MMM-dd", "dd/dd/yyyy", ""])
  func refusesAPatternWithoutExactlyAYearAMonthAndADay(_ pattern: String) {
    #expect(throws: InterchangeError.invalidDateFormat(pattern)) { try DateFormat(pattern) }
  }

  @Test func anInvalidPatternErrorShowsExamples() {
    #expect(
      InterchangeError.invalidDateFormat("dd-MMM").description
        == "'dd-MMM' is not a date format: use yyyy, MM and dd with separators, such as "
        + "'yyyy-MM-dd', 'dd.MM.yyyy' or 'MM/dd/yyyy'.")
  }

  @Test(arguments: [
    ("%d.%m.%Y", "31.01.2025", "31.01.2025"), ("%d.%m.%y", "31.01.25", "31.01.25"),
    ("%-d/%-m/%Y", "31/1/2025", "31/1/2025"), ("%Y-%m-%d", "2025-01-31", "2025-01-31"),
    ("%Y%m%d", "20250131", "20250131"), ("%d%%%m%%%Y", "31%01%2025", "31%01%2025"),
  ])
  func readsAndWritesAStrftimePattern(_ pattern: String, _ text: String, _ written: String) throws {
    let format = try DateFormat(strftime: pattern)
    #expect(try #require(format.day(from: text)) == (2025, 1, 31))
    #expect(format.string(year: 2025, month: 1, day: 31) == written)
    #expect(format.strftime == pattern)
  }

  @Test func aTimeOfDayIsReadAndLeftOut() throws {
    let format = try DateFormat(strftime: "%Y-%m-%d %H:%M:%S")
    #expect(try #require(format.day(from: "2025-01-31 7:05:00")) == (2025, 1, 31))
    #expect(format.day(from: "2025-01-31") == nil)
    #expect(format.strftime == "%Y-%m-%d %H:%M:%S")
  }

  @Test func aTwoDigitYearIsFrom1969To2068() throws {
    let format = try DateFormat(strftime: "%d.%m.%y")
    #expect(format.day(from: "01.01.68")?.year == 2068)
    #expect(format.day(from: "01.01.69")?.year == 1969)
    #expect(format.day(from: "01.01.2025") == nil)
  }

  @Test(arguments: [
    "%b %d %Y", "%d.%m", "%Y-%m-%d %I:%M %p", "%d.%m.%Y%", "%-Y-%m-%d", "dd.%m.%Y", "",
  ])
  func refusesAStrftimePatternLoopCannotRead(_ pattern: String) {
    #expect(throws: InterchangeError.invalidDateFormat(pattern)) {
      try DateFormat(strftime: pattern)
    }
  }
}
