import Foundation
import Loop
import Persistence

/// The ledger's storage: fetch, add, update and delete ``LedgerTransaction``s.
///
/// One implementation, ``live(context:)``, works over a `ModelContext`; the app's value, the
/// in-memory value and the SQLite value of tests are all built from it, so they behave the same:
///
/// ```swift
/// let client = LedgerClient.inMemory()
/// try await client.addTransaction(lunch)
/// let all = try await client.fetchTransactions()  // newest first
/// ```
///
/// The client stores what it is given: the caller makes the id and `createdAt` (a feature from
/// its `uuid` and `date` dependencies), so tests decide both. Every endpoint throws only
/// ``LedgerError``.
public struct LedgerClient: Sendable {
  /// Stores a new transaction and returns it as stored.
  ///
  /// - Parameter transaction: The transaction; its id must not be stored yet.
  /// - Returns: The stored transaction.
  /// - Throws: ``LedgerError/duplicateTransaction(_:)`` when its id is stored, a validation
  ///   error from ``LedgerTransaction/validate()``, or ``LedgerError/storageFailed(_:)``;
  ///   nothing is written then.
  public var addTransaction:
    nonisolated(nonsending) @Sendable (_ transaction: LedgerTransaction) async throws ->
      LedgerTransaction

  /// Deletes the transaction with an id.
  ///
  /// - Parameter id: The id of a stored transaction.
  /// - Throws: ``LedgerError/transactionNotFound(_:)`` when no transaction has the id, or
  ///   ``LedgerError/storageFailed(_:)``.
  public var deleteTransaction:
    nonisolated(nonsending) @Sendable (_ id: LedgerTransaction.ID) async throws -> Void

  /// Every transaction, newest first.
  ///
  /// The order is ``LedgerTransaction/isNewer(_:than:)``: date descending, then `createdAt`
  /// descending, then id ascending.
  ///
  /// - Returns: The transactions.
  /// - Throws: ``LedgerError/storageFailed(_:)``.
  public var fetchTransactions:
    nonisolated(nonsending) @Sendable () async throws -> [LedgerTransaction]

  /// Stores many transactions in one transaction of the storage: all of them, or none.
  ///
  /// Every transaction is checked with ``LedgerTransaction/validate()`` before anything is
  /// written. One whose id is stored already, or comes earlier in the same import, is skipped
  /// as a duplicate, so importing the same transactions twice stores them once.
  ///
  /// With `dryRun`, the import runs in full and is then rolled back: the summary says exactly
  /// what it would do. `progress` is called, on the importing task, after every
  /// ``importBatchSize`` transactions and after the last, with how many were processed.
  ///
  /// - Parameters:
  ///   - transactions: The transactions, with their ids and `createdAt`.
  ///   - dryRun: Whether to roll back and only report.
  ///   - progress: Called after every batch with how many were processed.
  /// - Returns: How many were stored and how many skipped.
  /// - Throws: ``LedgerError/importRowInvalid(position:reason:)`` for the first invalid one, or
  ///   ``LedgerError/storageFailed(_:)``; nothing is written then.
  public var importTransactions:
    nonisolated(nonsending) @Sendable (
      _ transactions: [LedgerTransaction], _ dryRun: Bool,
      _ progress: @escaping @Sendable (Int) -> Void
    ) async throws -> LedgerImportSummary

  /// Replaces a stored transaction (found by its id) with new values and returns it as stored.
  ///
  /// - Parameter transaction: The new values of a stored transaction.
  /// - Returns: The stored transaction.
  /// - Throws: ``LedgerError/transactionNotFound(_:)`` when its id is not stored, a
  ///   validation error from ``LedgerTransaction/validate()``, or
  ///   ``LedgerError/storageFailed(_:)``; nothing is written then.
  public var updateTransaction:
    nonisolated(nonsending) @Sendable (_ transaction: LedgerTransaction) async throws ->
      LedgerTransaction

  /// Creates a client from its endpoints, for tests that need a failure storage cannot produce.
  ///
  /// - Parameters:
  ///   - addTransaction: Stores a new transaction.
  ///   - deleteTransaction: Deletes a transaction.
  ///   - fetchTransactions: Returns every transaction, newest first.
  ///   - importTransactions: Stores many transactions at once.
  ///   - updateTransaction: Replaces a stored transaction.
  public init(
    addTransaction:
      nonisolated(nonsending) @escaping @Sendable (LedgerTransaction) async throws ->
      LedgerTransaction,
    deleteTransaction:
      nonisolated(nonsending) @escaping @Sendable (LedgerTransaction.ID) async throws -> Void,
    fetchTransactions:
      nonisolated(nonsending) @escaping @Sendable () async throws -> [LedgerTransaction],
    importTransactions:
      nonisolated(nonsending) @escaping @Sendable (
        [LedgerTransaction], Bool, @escaping @Sendable (Int) -> Void
      ) async throws -> LedgerImportSummary,
    updateTransaction:
      nonisolated(nonsending) @escaping @Sendable (LedgerTransaction) async throws ->
      LedgerTransaction
  ) {
    self.addTransaction = addTransaction
    self.deleteTransaction = deleteTransaction
    self.fetchTransactions = fetchTransactions
    self.importTransactions = importTransactions
    self.updateTransaction = updateTransaction
  }
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
    LedgerClient(
      addTransaction: { transaction in
        try transaction.validate()
        do {
          try context.insert(transaction)
        } catch PersistenceError.duplicateID {
          throw LedgerError.duplicateTransaction(transaction.id)
        } catch {
          throw LedgerError(error)
        }
        return transaction
      },
      deleteTransaction: { id in
        do {
          try context.delete(LedgerTransaction.self, id: id)
        } catch PersistenceError.notFound {
          throw LedgerError.transactionNotFound(id)
        } catch {
          throw LedgerError(error)
        }
      },
      fetchTransactions: {
        do {
          return try context.fetchAll(
            LedgerTransaction.self,
            sortBy: [
              SortDescriptor(\.date, order: .reverse),
              SortDescriptor(\.createdAt, order: .reverse),
              SortDescriptor(\.id),
            ])
        } catch {
          throw LedgerError(error)
        }
      },
      importTransactions: { transactions, dryRun, progress in
        try importTransactions(transactions, dryRun: dryRun, progress: progress, into: context)
      },
      updateTransaction: { transaction in
        try transaction.validate()
        do {
          try context.update(transaction)
        } catch PersistenceError.notFound {
          throw LedgerError.transactionNotFound(transaction.id)
        } catch {
          throw LedgerError(error)
        }
        return transaction
      }
    )
  }

  /// How many transactions ``importTransactions`` writes between two calls of its `progress`.
  public static let importBatchSize = 1_000

  /// Stores many transactions at once; see ``importTransactions``.
  ///
  /// - Parameters:
  ///   - transactions: The transactions, with their ids and `createdAt`.
  ///   - dryRun: Whether to roll back and only report.
  ///   - progress: Called after every batch with how many were processed.
  /// - Returns: How many were stored and how many skipped.
  /// - Throws: ``LedgerError/importRowInvalid(position:reason:)`` or
  ///   ``LedgerError/storageFailed(_:)``; nothing is written then.
  public nonisolated(nonsending) func importTransactions(
    _ transactions: [LedgerTransaction], dryRun: Bool = false,
    progress: @escaping @Sendable (Int) -> Void = { _ in }
  ) async throws -> LedgerImportSummary {
    try await importTransactions(transactions, dryRun, progress)
  }

  /// The one implementation of ``importTransactions``.
  private static func importTransactions(
    _ transactions: [LedgerTransaction], dryRun: Bool, progress: (Int) -> Void,
    into context: ModelContext
  ) throws(LedgerError) -> LedgerImportSummary {
    for (offset, transaction) in transactions.enumerated() {
      do {
        try transaction.validate()
      } catch {
        throw .importRowInvalid(position: offset + 1, reason: error)
      }
    }
    do {
      return try context.transaction { context in
        var seen = Set(try context.fetchAll(LedgerTransaction.self).map(\.id))
        var summary = LedgerImportSummary()
        var processed = 0
        while processed < transactions.count {
          let batch = transactions[processed..<min(processed + importBatchSize, transactions.count)]
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
        if dryRun { throw DryRun(summary: summary) }
        return summary
      }
    } catch let dryRun as DryRun {
      return dryRun.summary
    } catch {
      throw LedgerError(error)
    }
  }

  /// A client on a fresh, empty in-memory storage: real storage, gone with the client.
  ///
  /// - Returns: The client.
  public static func inMemory() -> LedgerClient {
    opening(.inMemory)
  }

  /// A client on the SQLite file at `path`, created when missing.
  ///
  /// When the file cannot be opened, every endpoint throws ``LedgerError/storageFailed(_:)``
  /// saying why: the app reports it instead of crashing.
  ///
  /// - Parameter path: The database file.
  /// - Returns: The client.
  public static func live(path: String) -> LedgerClient {
    opening(.file(path))
  }

  /// A client on a new container with ``models``, or one that fails with the reason it could
  /// not be opened.
  private static func opening(_ storage: ModelContainer.Storage) -> LedgerClient {
    do {
      let container = try ModelContainer(for: models, storage: storage)
      return live(context: ModelContext(container))
    } catch {
      return failing(LedgerError(error))
    }
  }

  /// A client whose every endpoint throws `error`.
  private static func failing(_ error: LedgerError) -> LedgerClient {
    LedgerClient(
      addTransaction: { _ in throw error },
      deleteTransaction: { _ in throw error },
      fetchTransactions: { throw error },
      importTransactions: { _, _, _ in throw error },
      updateTransaction: { _ in throw error }
    )
  }
}

extension LedgerClient: DependencyKey {
  /// The client on the app's database file, `ModelContainer.defaultFilePath()`.
  public static var liveValue: LedgerClient { live(path: ModelContainer.defaultFilePath()) }

  /// A client whose every endpoint reports an unimplemented call and throws: a test states
  /// the storage it uses, usually ``inMemory()``.
  public static var testValue: LedgerClient {
    LedgerClient(
      addTransaction: unimplemented("LedgerClient.addTransaction"),
      deleteTransaction: unimplemented("LedgerClient.deleteTransaction"),
      fetchTransactions: unimplemented("LedgerClient.fetchTransactions"),
      importTransactions: unimplemented("LedgerClient.importTransactions"),
      updateTransaction: unimplemented("LedgerClient.updateTransaction")
    )
  }
}

extension DependencyValues {
  /// The ledger's storage.
  public var ledgerClient: LedgerClient {
    get { self[LedgerClient.self] }
    set { self[LedgerClient.self] = newValue }
  }
}

/// What ``LedgerClient/importTransactions`` did (or, in a dry run, would do).
public struct LedgerImportSummary: Equatable, Sendable {
  /// How many transactions were stored.
  public var imported: Int
  /// How many were skipped because their id was stored already (or came earlier in the import).
  public var duplicates: Int

  /// Creates a summary.
  ///
  /// - Parameters:
  ///   - imported: How many transactions were stored.
  ///   - duplicates: How many were skipped as stored already.
  public init(imported: Int = 0, duplicates: Int = 0) {
    self.imported = imported
    self.duplicates = duplicates
  }
}

/// Thrown at the end of a dry run to roll its transaction back, carrying its summary.
private struct DryRun: Error {
  let summary: LedgerImportSummary
}
