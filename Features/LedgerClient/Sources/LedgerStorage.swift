import Foundation
import Loop

/// What a storage of ledger transactions must do: the contract every endpoint of
/// ``LedgerClient`` is written on, and transactions.
///
/// A transaction is inserted (failing on an existing id) or updated (failing on a missing
/// one), never upserted. Each requirement throws only a ``LedgerError``, and a failed one
/// changes nothing.
///
/// ``LedgerClient/init(storage:)`` builds every endpoint on these requirements, so the rules of
/// the endpoints are written once: `LedgerClientLive` keeps transactions in a `ModelContext`,
/// and ``LedgerClient/inMemory()`` in memory, and both pass the same tests.
public protocol LedgerStorage: Sendable {
  /// Runs `body` as one transaction: its writes stay together when it returns (unless
  /// `rollingBack`, for a dry run), and none of them stays when it throws.
  func transaction<R>(
    rollingBack: Bool, _ body: () throws(LedgerError) -> R
  ) throws(LedgerError) -> R

  /// Stores a new transaction; ``LedgerError/duplicateTransaction(_:)`` when one has its id.
  func insert(_ transaction: LedgerTransaction) throws(LedgerError)

  /// Replaces the stored transaction with the transaction's id;
  /// ``LedgerError/transactionNotFound(_:)`` when there is none.
  func update(_ transaction: LedgerTransaction) throws(LedgerError)

  /// Deletes the transaction with an id; ``LedgerError/transactionNotFound(_:)`` when there is
  /// none.
  func delete(id: LedgerTransaction.ID) throws(LedgerError)

  /// Every transaction, newest first: by date, then by `createdAt`, both latest first, then by
  /// id.
  func fetchAll() throws(LedgerError) -> [LedgerTransaction]
}

extension LedgerClient {
  /// The client whose every endpoint follows its rules on `storage`.
  ///
  /// The endpoints whose work grows with the data (``fetchTransactions``,
  /// ``importTransactions``) run off the caller's actor.
  public init(storage: some LedgerStorage) {
    self.init()
    addTransaction = { try storage.addTransaction($0) }
    deleteTransaction = { try storage.delete(id: $0) }
    fetchTransactions = { try await offMainActor { try storage.fetchAll() } }
    importTransactions = { transactions, dryRun, progress in
      try await offMainActor {
        try storage.importTransactions(transactions, dryRun: dryRun, progress: progress)
      }
    }
    updateTransaction = { try storage.updateTransaction($0) }
  }
}

// MARK: - The rules, on the contract

extension LedgerStorage {
  func addTransaction(_ transaction: LedgerTransaction) throws(LedgerError) -> LedgerTransaction {
    try transaction.validate()
    try insert(transaction)
    return transaction
  }

  func importTransactions(
    _ transactions: [LedgerTransaction], dryRun: Bool, progress: (Int) -> Void
  ) throws(LedgerError) -> LedgerImportSummary {
    for (offset, transaction) in transactions.enumerated() {
      do {
        try transaction.validate()
      } catch {
        throw .importRowInvalid(position: offset + 1, reason: error)
      }
    }
    let batchSize = LedgerClient.importBatchSize
    return try self.transaction(rollingBack: dryRun) { () throws(LedgerError) in
      var seen = Set(try fetchAll().map(\.id))
      var summary = LedgerImportSummary()
      var processed = 0
      while processed < transactions.count {
        // NB: a cancelled import (Ctrl-C) stops here, and the transaction rolls back.
        try LedgerError.checkCancellation()
        let batch = transactions[processed..<min(processed + batchSize, transactions.count)]
        for transaction in batch {
          guard seen.insert(transaction.id).inserted else {
            summary.duplicates += 1
            continue
          }
          try insert(transaction)
          summary.imported += 1
        }
        processed += batch.count
        progress(processed)
      }
      return summary
    }
  }

  func updateTransaction(_ transaction: LedgerTransaction) throws(LedgerError)
    -> LedgerTransaction
  {
    try transaction.validate()
    try update(transaction)
    return transaction
  }
}
