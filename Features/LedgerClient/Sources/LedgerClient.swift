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
    @Sendable (_ transaction: LedgerTransaction) async throws -> LedgerTransaction

  /// Deletes the transaction with an id.
  ///
  /// - Parameter id: The id of a stored transaction.
  /// - Throws: ``LedgerError/transactionNotFound(_:)`` when no transaction has the id, or
  ///   ``LedgerError/storageFailed(_:)``.
  public var deleteTransaction: @Sendable (_ id: LedgerTransaction.ID) async throws -> Void

  /// Every transaction, newest first.
  ///
  /// The order is ``LedgerTransaction/isNewer(_:than:)``: date descending, then `createdAt`
  /// descending, then id ascending.
  ///
  /// - Returns: The transactions.
  /// - Throws: ``LedgerError/storageFailed(_:)``.
  public var fetchTransactions: @Sendable () async throws -> [LedgerTransaction]

  /// Replaces a stored transaction (found by its id) with new values and returns it as stored.
  ///
  /// - Parameter transaction: The new values of a stored transaction.
  /// - Returns: The stored transaction.
  /// - Throws: ``LedgerError/transactionNotFound(_:)`` when its id is not stored, a
  ///   validation error from ``LedgerTransaction/validate()``, or
  ///   ``LedgerError/storageFailed(_:)``; nothing is written then.
  public var updateTransaction:
    @Sendable (_ transaction: LedgerTransaction) async throws -> LedgerTransaction

  /// Creates a client from its endpoints, for tests that need a failure storage cannot produce.
  ///
  /// - Parameters:
  ///   - addTransaction: Stores a new transaction.
  ///   - deleteTransaction: Deletes a transaction.
  ///   - fetchTransactions: Returns every transaction, newest first.
  ///   - updateTransaction: Replaces a stored transaction.
  public init(
    addTransaction: @escaping @Sendable (LedgerTransaction) async throws -> LedgerTransaction,
    deleteTransaction: @escaping @Sendable (LedgerTransaction.ID) async throws -> Void,
    fetchTransactions: @escaping @Sendable () async throws -> [LedgerTransaction],
    updateTransaction: @escaping @Sendable (LedgerTransaction) async throws -> LedgerTransaction
  ) {
    self.addTransaction = addTransaction
    self.deleteTransaction = deleteTransaction
    self.fetchTransactions = fetchTransactions
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
