import Foundation
import LedgerClient
import Loop
import Persistence

extension LedgerClient: DependencyKey {
  /// The client on the app's database file, `ModelContainer.defaultFilePath()`.
  ///
  /// NB: the conformance is this module's, so a program resolves `\.ledgerClient` to it only
  /// when it links this module (the app's composition imports it); the interface declares the
  /// test value.
  public static var liveValue: LedgerClient { live(path: ModelContainer.defaultFilePath()) }
}

extension LedgerClient {
  /// The model types the ledger stores, for opening a container shared with other clients.
  public static let models: [any PersistentModel.Type] = [LedgerTransaction.self]

  /// The client over a context: the one implementation of every endpoint.
  ///
  /// The context's container must have been opened with ``models``.
  ///
  /// - Parameter context: The context to read and write.
  /// - Returns: The client.
  public static func live(context: ModelContext) -> LedgerClient {
    live(LedgerStorage(context: context))
  }

  /// A client on the SQLite file at `path`, created when missing.
  ///
  /// When the file cannot be opened, every endpoint throws ``LedgerError/storageFailed(_:)``
  /// saying why: the app reports it instead of crashing.
  ///
  /// - Parameter path: The database file.
  /// - Returns: The client.
  public static func live(path: String) -> LedgerClient {
    live(opening: .file(path))
  }

  /// A client on a new container with ``models`` (`.inMemory` for real storage gone with the
  /// client: what tests get as TestSupport's `inMemory()`), or one that fails with the reason it
  /// could not be opened.
  ///
  /// - Parameter storage: Where the container keeps its data.
  /// - Returns: The client.
  public static func live(opening storage: ModelContainer.Storage) -> LedgerClient {
    do {
      let container = try ModelContainer(for: models, storage: storage)
      return live(context: ModelContext(container))
    } catch {
      return failing(LedgerError(error))
    }
  }

  /// Every endpoint over the storage.
  private static func live(_ storage: LedgerStorage) -> LedgerClient {
    var client = LedgerClient()
    client.addTransaction = { try storage.addTransaction($0) }
    client.deleteTransaction = { try storage.deleteTransaction(id: $0) }
    // NB: the endpoints whose work grows with the data run off the caller's actor.
    client.fetchTransactions = { try await offMainActor { try storage.fetchTransactions() } }
    client.importTransactions = { transactions, dryRun, progress in
      try await offMainActor {
        try storage.importTransactions(transactions, dryRun: dryRun, progress: progress)
      }
    }
    client.updateTransaction = { try storage.updateTransaction($0) }

    return client
  }
}

/// The ledger's storage over a model context; every failure is a `LedgerError`.
struct LedgerStorage: Sendable {
  let context: ModelContext

  func addTransaction(_ transaction: LedgerTransaction) throws(LedgerError) -> LedgerTransaction {
    try transaction.validate()
    try LedgerError.capturing(duplicateID: .duplicateTransaction(transaction.id)) {
      try context.insert(transaction)
    }
    return transaction
  }

  func deleteTransaction(id: LedgerTransaction.ID) throws(LedgerError) {
    try LedgerError.capturing(notFound: .transactionNotFound(id)) {
      try context.delete(LedgerTransaction.self, id: id)
    }
  }

  func fetchTransactions() throws(LedgerError) -> [LedgerTransaction] {
    try LedgerError.capturing {
      try context.fetchAll(
        LedgerTransaction.self,
        sortBy: [
          SortDescriptor(\.date, order: .reverse),
          SortDescriptor(\.createdAt, order: .reverse),
          SortDescriptor(\.id),
        ])
    }
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
    return try LedgerError.capturing {
      try context.transaction(rollingBack: dryRun) { context in
        var seen = Set(try context.fetchAll(LedgerTransaction.self).map(\.id))
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
            try context.insert(transaction)
            summary.imported += 1
          }
          processed += batch.count
          progress(processed)
        }
        return summary
      }
    }
  }

  func updateTransaction(_ transaction: LedgerTransaction) throws(LedgerError) -> LedgerTransaction
  {
    try transaction.validate()
    try LedgerError.capturing(notFound: .transactionNotFound(transaction.id)) {
      try context.update(transaction)
    }
    return transaction
  }
}
