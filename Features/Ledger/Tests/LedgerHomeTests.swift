import Foundation
import Ledger
import LedgerClient
import LoopTesting
import TestSupport
import Testing

@MainActor
@Suite struct LedgerHomeTests {
  @Test func showsThisMonthsBalanceAndTheFourMostRecent() {
    let transactions = [
      transaction(1, .income, 500_000, on: date(2025, 3, 1)),
      transaction(2, .expense, 1_000, on: date(2025, 3, 5), createdAt: date(2025, 3, 5, 13)),
      transaction(3, .expense, 2_000, on: date(2025, 3, 5), createdAt: date(2025, 3, 5, 14)),
      transaction(4, .expense, 4_000, on: date(2025, 2, 28)),
      transaction(5, .income, 8_000, on: date(2025, 3, 14)),
      transaction(6, .expense, 16_000, on: date(2024, 3, 14)),
    ]
    let home = LedgerHome.State(transactions: transactions, month: month(2025, 3))
    #expect(
      home.thisMonth
        == MonthSummary(month: month(2025, 3), income: money(508_000), expense: money(3_000)))
    #expect(home.thisMonth?.balance == money(505_000))
    #expect(home.recent.map(\.id) == [id(5), id(3), id(2), id(1)])
  }

  @Test func transactionsOnOneDateAreListedLastAddedFirstThenByID() {
    let sameDay = [
      transaction(1, on: date(2025, 3, 5), createdAt: date(2025, 3, 5, 13)),
      transaction(3, on: date(2025, 3, 5), createdAt: date(2025, 3, 5, 9)),
      transaction(2, on: date(2025, 3, 5), createdAt: date(2025, 3, 5, 9)),
      transaction(4, on: date(2025, 3, 5), createdAt: date(2025, 3, 5, 14)),
    ]
    for transactions in [sameDay, sameDay.reversed()] {
      let home = LedgerHome.State(transactions: transactions, month: month(2025, 3))
      #expect(home.recent.map(\.id) == [id(4), id(1), id(2), id(3)])
    }
  }

  @Test func aBalanceCanBeNegative() {
    let home = LedgerHome.State(
      transactions: [transaction(1, .income, 100), transaction(2, .expense, 350)],
      month: month(2025, 3))
    #expect(home.thisMonth?.balance == money(-250))
  }

  @Test func beforeTheLedgerKnowsTodayThereIsNoMonth() {
    let home = LedgerHome.State(transactions: [transaction(1), transaction(2)], month: nil)
    #expect(home.thisMonth == nil)
    #expect(home.recent.map(\.id) == [id(1), id(2)])
  }

  @Test func anEmptyLedgerHasAZeroBalance() {
    let home = LedgerHome.State(transactions: [], month: month(2025, 3))
    #expect(
      home.thisMonth == MonthSummary(month: month(2025, 3), income: .zero, expense: .zero))
    #expect(home.recent == [])
  }

  @Test func tapsBecomeRequestsToTheLedger() async {
    let store = TestStore(initialState: LedgerHome.State(transactions: [], month: nil)) {
      LedgerHome()
    }
    await store.send(.newSubmitted)
    await store.receive(.delegate(.newTransaction))
    await store.send(.transactionSelected(id(4)))
    await store.receive(.delegate(.editTransaction(id(4))))
    await store.send(.delegate(.newTransaction))
    await store.finish()
  }
}
