import Foundation
import Loop

extension LedgerClient {
  /// A client on a fresh, empty storage in memory, gone with the client: what previews and
  /// tests use.
  ///
  /// Its endpoints follow the same rules as the live client's (``init(storage:)``), on this
  /// module's own storage, so a feature's tests need neither a database nor `LedgerClientLive`.
  public static func inMemory() -> LedgerClient {
    LedgerClient(storage: InMemoryLedgerStorage())
  }
}

/// The storage contract of ``LedgerStorage`` on a dictionary in memory.
struct InMemoryLedgerStorage: LedgerStorage {
  let rows = TransactionalValue([LedgerTransaction.ID: LedgerTransaction]())

  func transaction<R>(
    rollingBack: Bool, _ body: () throws(LedgerError) -> R
  ) throws(LedgerError) -> R {
    try rows.transaction(rollingBack: rollingBack, body)
  }

  func insert(_ transaction: LedgerTransaction) throws(LedgerError) {
    try rows.withValue { rows throws(LedgerError) in
      guard rows[transaction.id] == nil else { throw .duplicateTransaction(transaction.id) }
      rows[transaction.id] = transaction
    }
  }

  func update(_ transaction: LedgerTransaction) throws(LedgerError) {
    try rows.withValue { rows throws(LedgerError) in
      guard rows[transaction.id] != nil else { throw .transactionNotFound(transaction.id) }
      rows[transaction.id] = transaction
    }
  }

  func delete(id: LedgerTransaction.ID) throws(LedgerError) {
    try rows.withValue { rows throws(LedgerError) in
      guard rows.removeValue(forKey: id) != nil else { throw .transactionNotFound(id) }
    }
  }

  func fetchAll() -> [LedgerTransaction] {
    rows.withValue { rows in
      rows.values.sorted { lhs, rhs in
        if lhs.date != rhs.date { return lhs.date > rhs.date }
        if lhs.createdAt != rhs.createdAt { return lhs.createdAt > rhs.createdAt }
        return lhs.id < rhs.id
      }
    }
  }
}
