import Foundation
import Loop

/// The ledger's storage: fetch, add, update and delete ``LedgerTransaction``s.
///
/// This module is the interface, on Loop alone. The rules of every endpoint are written once,
/// on any ``LedgerStorage`` (``init(storage:)``): `LedgerClientLive`'s `live(context:)` stores
/// over a `ModelContext` (the app's value, on SQLite or PostgreSQL), and ``inMemory()`` in
/// memory (the tests'), so they behave the same:
///
/// ```swift
/// let client = LedgerClient.inMemory()
/// try await client.addTransaction(lunch)
/// let all = try await client.fetchTransactions()  // newest first
/// ```
///
/// The client stores what it is given: the caller makes the id and `createdAt` (a feature from
/// its `uuid` and `date` dependencies), so tests decide both. Every endpoint throws only
/// ``LedgerError``. An endpoint runs on its caller's actor, except those whose work grows with
/// the data (``fetchTransactions``, ``importTransactions``), which run off it.
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
      LedgerTransaction =
      unimplemented("LedgerClient.addTransaction")

  /// Deletes the transaction with an id.
  ///
  /// - Parameter id: The id of a stored transaction.
  /// - Throws: ``LedgerError/transactionNotFound(_:)`` when no transaction has the id, or
  ///   ``LedgerError/storageFailed(_:)``.
  public var deleteTransaction:
    nonisolated(nonsending) @Sendable (_ id: LedgerTransaction.ID) async throws -> Void =
      unimplemented("LedgerClient.deleteTransaction")

  /// Every transaction, newest first.
  ///
  /// The order is ``LedgerTransaction/isNewer(_:than:)``: date descending, then `createdAt`
  /// descending, then id ascending.
  ///
  /// - Returns: The transactions.
  /// - Throws: ``LedgerError/storageFailed(_:)``.
  public var fetchTransactions:
    nonisolated(nonsending) @Sendable () async throws -> [LedgerTransaction] =
      unimplemented("LedgerClient.fetchTransactions")

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
    ) async throws -> LedgerImportSummary =
      unimplemented("LedgerClient.importTransactions")

  /// Replaces a stored transaction (found by its id) with new values and returns it as stored.
  ///
  /// - Parameter transaction: The new values of a stored transaction.
  /// - Returns: The stored transaction.
  /// - Throws: ``LedgerError/transactionNotFound(_:)`` when its id is not stored, a
  ///   validation error from ``LedgerTransaction/validate()``, or
  ///   ``LedgerError/storageFailed(_:)``; nothing is written then.
  public var updateTransaction:
    nonisolated(nonsending) @Sendable (_ transaction: LedgerTransaction) async throws ->
      LedgerTransaction =
      unimplemented("LedgerClient.updateTransaction")

  /// A client whose every endpoint reports an issue and throws (the test value): the live
  /// module sets each endpoint on it, and a test the ones it uses.
  public init() {}
}

extension LedgerClient {
  /// How many transactions ``importTransactions`` writes between two calls of its `progress`.
  public static let importBatchSize = 1_000

  /// Stores many transactions, for real and without progress unless told; see
  /// ``importTransactions``.
  public nonisolated(nonsending) func importTransactions(
    _ transactions: [LedgerTransaction], dryRun: Bool = false,
    progress: @escaping @Sendable (Int) -> Void = { _ in }
  ) async throws -> LedgerImportSummary {
    try await importTransactions(transactions, dryRun, progress)
  }
}

extension LedgerClient: TestDependencyKey {
  /// A client whose every endpoint reports an unimplemented call and throws: a test states
  /// the storage it uses, usually ``inMemory()``, or sets the endpoints it uses.
  ///
  /// NB: every endpoint defaults to `unimplemented`, so the list of endpoints is written once,
  /// above; ``init(storage:)`` sets each on ``init()``, and the live module declares the live
  /// value (its conformance to `DependencyKey`).
  public static var testValue: LedgerClient { LedgerClient() }
}

extension LedgerClient {
  /// A client whose every endpoint throws `error`: what the live value is when the database
  /// cannot be opened, and what a test uses to show a failure.
  ///
  /// - Parameter error: The error every endpoint throws.
  /// - Returns: The client.
  public static func failing(_ error: LedgerError) -> LedgerClient {
    var client = LedgerClient()
    client.addTransaction = { _ in throw error }
    client.deleteTransaction = { _ in throw error }
    client.fetchTransactions = { throw error }
    client.importTransactions = { _, _, _ in throw error }
    client.updateTransaction = { _ in throw error }
    return client
  }
}

extension DependencyValues {
  /// The ledger's storage.
  public var ledgerClient: LedgerClient {
    get { self[LedgerClient.self] }
    set { self[LedgerClient.self] = newValue }
  }
}
