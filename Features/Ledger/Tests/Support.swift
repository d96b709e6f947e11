import Foundation
import Ledger
import LedgerClient
import LoopTesting
import TestSupport

let seoul = zone("Asia/Seoul")
let utc = zone("UTC")
let newYork = zone("America/New_York")

/// The instant of a wall-clock time in `timeZone` (Seoul unless given).
func date(
  _ year: Int, _ month: Int, _ day: Int, _ hour: Int = 12, _ minute: Int = 0, _ second: Int = 0,
  in timeZone: TimeZone = seoul
) -> Date {
  let components = DateComponents(
    year: year, month: month, day: day, hour: hour, minute: minute, second: second)
  guard let date = gregorian(timeZone).date(from: components) else {
    fatalError("\(components) is not a date in \(timeZone.identifier).")
  }
  return date
}

/// "Now" in most tests: 2025-03-15 10:00 in Seoul.
let now = date(2025, 3, 15, 10)

/// The month `year`-`month` in `timeZone`, built from wall-clock midnights.
func month(_ year: Int, _ month: Int, in timeZone: TimeZone = seoul) -> LedgerMonth {
  let next = month == 12 ? (year + 1, 1) : (year, month + 1)
  return LedgerMonth(
    year: year, month: month, start: date(year, month, 1, 0, in: timeZone),
    end: date(next.0, next.1, 1, 0, in: timeZone))
}

/// The twelve months ending with `year`-`last`, oldest first.
func twelveMonths(endingWith year: Int, _ last: Int, in timeZone: TimeZone = seoul)
  -> [LedgerMonth]
{
  (0..<12).reversed().map { back in
    let index = year * 12 + (last - 1) - back
    return month(index / 12, index % 12 + 1, in: timeZone)
  }
}

/// The id whose last digits are `n`.
func id(_ n: UInt64) -> LedgerTransaction.ID { LedgerTransaction.ID(UUID(counting: n)) }

/// Minor units as money.
func money(_ minorUnits: Int64) -> Money { Money(minorUnits: minorUnits) }

/// A transaction with readable defaults; `createdAt` defaults to its date.
func transaction(
  _ n: UInt64, _ kind: LedgerTransaction.Kind = .expense, _ amount: Int64 = 1_000,
  on day: Date = now, memo: String = "", category: String? = nil, createdAt: Date? = nil
) -> LedgerTransaction {
  LedgerTransaction(
    id: id(n), kind: kind, amount: money(amount), date: day, memo: memo, category: category,
    createdAt: createdAt ?? day)
}

/// An in-memory client holding `transactions`, added through the client.
func seededClient(_ transactions: [LedgerTransaction]) async throws -> LedgerClient {
  let client = LedgerClient.inMemory()
  for transaction in transactions {
    _ = try await client.addTransaction(transaction)
  }
  return client
}

/// A test store of the whole ledger with every dependency fixed: the date (`now` unless given),
/// incrementing ids from 0, the Gregorian calendar, Seoul's time zone (unless given), a test
/// clock.
@MainActor
func ledgerStore(
  _ state: Ledger.State = Ledger.State(), client: LedgerClient, date: Date = now,
  timeZone: TimeZone = seoul
) -> TestStore<Ledger.State, Ledger.Action> {
  TestStore(initialState: state) {
    Ledger()
  } withDependencies: {
    $0.ledgerClient = client
    $0.date = .constant(date)
    $0.uuid = .incrementing
    // NB: the calendar's own zone is UTC on purpose: the `timeZone` dependency must win.
    $0.calendar = gregorian(utc)
    $0.timeZone = timeZone
    $0.continuousClock = TestClock()
  }
}
