import Foundation
import LedgerClient
import LedgerClientLive
import Loop
import Persistence
import TestSupport

/// A client on a fresh storage: the in-memory value, or a container on one backend; the SQLite
/// file's folder (or the PostgreSQL schema) goes when it does.
final class Storage {
  let client: LedgerClient
  let folder = temporaryFolder("loop-ledger-client-tests")

  init(_ storage: ClientStorage) throws {
    switch storage {
    case .inMemoryValue: client = .inMemory()
    case .container(.sqlite):
      client = .live(path: folder.appendingPathComponent("ledger.sqlite").path)
    case .container(let backend):
      let storage = backend.storage(file: "ledger.sqlite", in: folder)
      client = .live(
        context: ModelContext(try ModelContainer(for: LedgerClient.models, storage: storage)))
    }
  }

  convenience init(_ backend: Backend) throws {
    try self.init(.container(backend))
  }

  deinit {
    Backend.removeStorage(in: folder)
  }
}

/// The id whose last digits are `n`.
func id(_ n: UInt64) -> LedgerTransaction.ID { LedgerTransaction.ID(UUID(counting: n)) }

/// A day in 2025 at noon UTC, as seconds after the reference date: `day(1)` is 2025-01-01.
func day(_ n: Int, hour: Int = 12) -> Date {
  // 2025-01-01 00:00:00 UTC is 757_382_400 seconds after 2001-01-01.
  Date(timeIntervalSinceReferenceDate: 757_382_400 + Double((n - 1) * 86_400 + hour * 3_600))
}

/// A transaction with readable defaults.
func transaction(
  _ n: UInt64, _ kind: LedgerTransaction.Kind = .expense, amount: Int64 = 1_000,
  on date: Date = day(1), memo: String = "", category: String? = nil, createdAt: Date? = nil
) -> LedgerTransaction {
  LedgerTransaction(
    id: id(n), kind: kind, amount: Money(minorUnits: amount), date: date, memo: memo,
    category: category, createdAt: createdAt ?? date)
}
