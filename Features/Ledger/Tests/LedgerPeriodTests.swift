import Foundation
import Ledger
import Testing

@Suite struct LedgerPeriodTests {
  typealias Month = LedgerPeriod.Month

  let latest = Month(year: 2024, month: 12)

  @Test(arguments: [
    (LedgerPeriod(), Month(year: 2024, month: 1), Month(year: 2024, month: 12)),
    (LedgerPeriod(count: 3), Month(year: 2024, month: 10), Month(year: 2024, month: 12)),
    (
      LedgerPeriod(from: Month(year: 2024, month: 6)), Month(year: 2024, month: 6),
      Month(year: 2024, month: 12)
    ),
    (
      LedgerPeriod(from: Month(year: 2025, month: 6)), Month(year: 2025, month: 6),
      Month(year: 2025, month: 6)
    ),
    (
      LedgerPeriod(to: Month(year: 2024, month: 2)), Month(year: 2023, month: 3),
      Month(year: 2024, month: 2)
    ),
    (
      LedgerPeriod(from: Month(year: 2023, month: 11), count: 3), Month(year: 2023, month: 11),
      Month(year: 2024, month: 1)
    ),
    (
      LedgerPeriod(to: Month(year: 2024, month: 1), count: 2), Month(year: 2023, month: 12),
      Month(year: 2024, month: 1)
    ),
    (
      LedgerPeriod(from: Month(year: 2023, month: 5), to: Month(year: 2023, month: 7)),
      Month(year: 2023, month: 5), Month(year: 2023, month: 7)
    ),
  ])
  func aPeriodCoversTheMonthsItsChoicesSay(period: LedgerPeriod, first: Month, last: Month) {
    let bounds = period.bounds(latest: latest)
    #expect(bounds.first == first)
    #expect(bounds.last == last)
  }

  @Test(arguments: [
    ("2025-03", Month(year: 2025, month: 3)), ("2025-12", Month(year: 2025, month: 12)),
  ])
  func aMonthReadsAsYYYYMM(text: String, month: Month) {
    #expect(Month(text) == month)
    #expect(month.description == text)
  }

  @Test(arguments: ["2025-13", "2025-00", "2025-3", "25-03", "2025/03", "march"])
  func aWordThatIsNoMonthReadsAsNone(text: String) {
    #expect(Month(text) == nil)
  }

  @Test func theMonthsEndWithTheLatestTransactionsOrThisMonthWithoutAny() throws {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
    let now = Date(timeIntervalSince1970: 1_741_996_800)  // 2025-03-15
    let months = LedgerPeriod(count: 2).months(of: [], now: now, calendar: calendar)
    #expect(months.map(\.description) == ["2025-02", "2025-03"])
    #expect(LedgerPeriod().months(of: [], now: nil, calendar: calendar) == [])
  }
}
