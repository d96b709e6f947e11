import Foundation
import Ledger
import LedgerClient
import LoopTesting
import TestSupport
import Testing

@MainActor
@Suite struct LedgerReportTests {
  @Test func twelveMonthsAcrossTheYearBoundary() {
    let months = LedgerMonth.months(
      endingWith: date(2025, 1, 5), count: 12, calendar: gregorian(seoul))
    #expect(months == twelveMonths(endingWith: 2025, 1))
    #expect(months.map(\.description).first == "2024-02")
    #expect(months.map(\.description).last == "2025-01")

    let transactions = [
      transaction(1, .income, 1, on: date(2024, 1, 31, 23, 59, 59)),
      transaction(2, .income, 10, on: date(2024, 2, 1, 0, 0, 0)),
      transaction(3, .expense, 100, on: date(2024, 12, 31, 23, 59, 59)),
      transaction(4, .income, 1_000, on: date(2025, 1, 1, 0, 0, 0)),
      transaction(5, .expense, 10_000, on: date(2025, 1, 31, 23, 59, 59)),
      transaction(6, .expense, 100_000, on: date(2025, 2, 1, 0, 0, 0)),
    ]
    let report = LedgerReport.State(
      categoryKind: .expense, transactions: transactions, months: months)
    #expect(report.months.count == 12)
    #expect(
      report.months.first
        == MonthSummary(month: month(2024, 2), income: money(10), expense: .zero))
    #expect(
      report.months.suffix(2) == [
        MonthSummary(month: month(2024, 12), income: .zero, expense: money(100)),
        MonthSummary(month: month(2025, 1), income: money(1_000), expense: money(10_000)),
      ])
    #expect(report.months.last?.balance == money(-9_000))
    #expect(
      report.months.dropFirst().dropLast(2).allSatisfy { $0.income == .zero && $0.expense == .zero }
    )
    #expect(
      report.categories == [CategoryTotal(category: nil, total: money(10_100), count: 2)])
  }

  @Test func categoryTotalsAreLargestFirstThenByNameWithUncategorizedLast() {
    let transactions = [
      transaction(1, .expense, 500, category: "Food"),
      transaction(2, .expense, 700, category: "Travel"),
      transaction(3, .expense, 200, category: "Food"),
      transaction(4, .expense, 700, category: nil),
      transaction(5, .expense, 700, category: "Books"),
      transaction(6, .expense, 50, category: "food"),
      transaction(7, .income, 9_999, category: "Food"),
      transaction(8, .expense, 9_999, on: date(2024, 3, 31, 23), category: "Old"),
    ]
    let report = LedgerReport.State(
      categoryKind: .expense, transactions: transactions,
      months: twelveMonths(endingWith: 2025, 3))
    #expect(
      report.categories == [
        CategoryTotal(category: "Books", total: money(700), count: 1),
        CategoryTotal(category: "Food", total: money(700), count: 2),
        CategoryTotal(category: "Travel", total: money(700), count: 1),
        CategoryTotal(category: nil, total: money(700), count: 1),
        CategoryTotal(category: "food", total: money(50), count: 1),
      ])
  }

  @Test func withoutMonthsTheReportIsEmpty() {
    let report = LedgerReport.State(
      categoryKind: .income, transactions: [transaction(1, .income)], months: [])
    #expect(report.months == [])
    #expect(report.categories == [])
  }

  @Test func choosingTheKindOfCategoryTotals() async {
    let store = TestStore(
      initialState: LedgerReport.State(categoryKind: .expense, transactions: [], months: [])
    ) {
      LedgerReport()
    }
    await store.send(.categoryKindSelected(.income)) { $0.categoryKind = .income }
    await store.send(.categoryKindSelected(.expense)) { $0.categoryKind = .expense }
  }
}
