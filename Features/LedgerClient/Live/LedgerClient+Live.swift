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
    LedgerClient(storage: ContextLedgerStorage(context: context))
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

  /// A client on a new container with ``models``, or one that fails with the reason it could not
  /// be opened.
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
}

/// The storage contracts of ``LedgerStorage`` over a model context: Persistence's failures
/// become ``LedgerError``s (its duplicate id and missing row become the contract's cases).
struct ContextLedgerStorage: LedgerStorage {
  let context: ModelContext

  func transaction<R>(
    rollingBack: Bool, _ body: () throws(LedgerError) -> R
  ) throws(LedgerError) -> R {
    try LedgerError.capturing {
      try context.transaction(rollingBack: rollingBack) { _ in try body() }
    }
  }

  func insert(_ transaction: LedgerTransaction) throws(LedgerError) {
    try LedgerError.capturing(duplicateID: .duplicateTransaction(transaction.id)) {
      try context.insert(transaction)
    }
  }

  func update(_ transaction: LedgerTransaction) throws(LedgerError) {
    try LedgerError.capturing(notFound: .transactionNotFound(transaction.id)) {
      try context.update(transaction)
    }
  }

  func delete(id: LedgerTransaction.ID) throws(LedgerError) {
    try LedgerError.capturing(notFound: .transactionNotFound(id)) {
      try context.delete(LedgerTransaction.self, id: id)
    }
  }

  func fetchAll() throws(LedgerError) -> [LedgerTransaction] {
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
}
