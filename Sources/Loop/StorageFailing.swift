/// A domain's error, which every failure of its storage becomes.
///
/// A client throws only its domain's error (`LinkError`, `HabitError`, `LedgerError`), never its
/// storage's: the domain's error adopts this protocol, and its live value turns whatever its
/// storage throws into the domain's error (Persistence maps its own errors to the domain's
/// rules, and every other failure to ``storageFailed(_:)`` with the storage's explanation). A
/// feature's effect captures a call's outcome, as the domain's error, with
/// ``Swift/Result/init(catching:)-97w9q``.
///
/// ```swift
/// extension LedgerError: StorageFailing {}  // has `case storageFailed(String)`
///
/// await send(.transactionsResponse(Result { try await ledgerClient.fetchTransactions() }))
/// ```
///
/// NB: in Loop, not Persistence, so that a client's interface module declares its error, and a
/// feature captures it, without importing the storage the client's live module uses.
public protocol StorageFailing: Error {
  /// The error for a failure of the storage itself, carrying its explanation.
  static func storageFailed(_ reason: String) -> Self
}

extension StorageFailing {
  /// This domain's error for any error: itself when it is one, otherwise ``storageFailed(_:)``
  /// with the error's description.
  ///
  /// - Parameter error: What was thrown.
  /// - Returns: The domain's error.
  public static func captured(_ error: any Error) -> Self {
    error as? Self ?? .storageFailed(String(describing: error))
  }

  /// Throws ``storageFailed(_:)`` when the current task is cancelled; otherwise does nothing.
  ///
  /// Long work in a transaction (an import of 100,000 rows) calls it between batches: the
  /// transaction then rolls back, and a cancelled command leaves nothing half-written.
  ///
  /// ```swift
  /// for batch in batches {
  ///   try LinkError.checkCancellation()
  ///   for link in batch { try context.insert(link) }
  /// }
  /// ```
  ///
  /// - Throws: ``storageFailed(_:)``, saying the work was cancelled.
  public static func checkCancellation() throws(Self) {
    if Task.isCancelled { throw .storageFailed("the work was cancelled") }
  }
}
