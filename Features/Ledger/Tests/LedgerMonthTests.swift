import Foundation
import Ledger
import LedgerClient
import TestSupport
import Testing

@Suite struct LedgerMonthTests {
  @Test func theMonthContainingAnInstantDependsOnTheTimeZone() throws {
    let instant = date(2025, 3, 1, 5)  // 2025-02-28 20:00 in UTC
    #expect(LedgerMonth(containing: instant, calendar: gregorian(seoul)) == month(2025, 3))
    #expect(
      LedgerMonth(containing: instant, calendar: gregorian(utc)) == month(2025, 2, in: utc))
  }

  @Test func aMonthContainsItsStartButNotItsEnd() throws {
    let march = month(2025, 3)
    #expect(march.contains(march.start))
    #expect(march.contains(march.end.addingTimeInterval(-0.001)))
    #expect(!march.contains(march.end))
    #expect(!march.contains(march.start.addingTimeInterval(-0.001)))
  }

  @Test func monthsAcrossADaylightSavingChange() throws {
    let months = LedgerMonth.months(
      endingWith: date(2025, 4, 2, in: newYork), count: 3, calendar: gregorian(newYork))
    #expect(
      months == [
        month(2025, 2, in: newYork), month(2025, 3, in: newYork), month(2025, 4, in: newYork),
      ])
    // March 2025 in New York lost an hour on the 9th.
    let march = try #require(months.dropFirst().first)
    #expect(march.end.timeIntervalSince(march.start) == 31 * 86_400 - 3_600)
  }

  @Test func monthsAreWrittenYearDashMonth() {
    #expect(month(2025, 3).description == "2025-03")
    #expect(month(987, 12).description == "0987-12")
  }

  @Test func summariesIgnoreTransactionsOutsideTheirMonths() {
    let summaries = MonthSummary.summaries(
      of: [
        transaction(1, .income, 5, on: date(2025, 2, 10)),
        transaction(2, .expense, 7, on: date(2025, 3, 10)),
        transaction(3, .expense, 9, on: date(2025, 5, 10)),
      ],
      in: [month(2025, 3), month(2025, 2)])
    #expect(
      summaries == [
        MonthSummary(month: month(2025, 3), income: .zero, expense: money(7)),
        MonthSummary(month: month(2025, 2), income: money(5), expense: .zero),
      ])
  }
}
