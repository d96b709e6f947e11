import Loop

// NB: `StorageFailing` itself is Loop's, so that a client's interface declares its error
// without importing Persistence; turning a `PersistenceError` into the domain's error is
// Persistence's, for the clients' live modules.

extension StorageFailing {
  /// This domain's error for any error: itself when it is one, the given error for a
  /// ``PersistenceError`` that has one, otherwise `storageFailed(_:)` with the error's
  /// description.
  ///
  /// A client's live value runs each storage call through
  /// ``capturing(duplicateID:notFound:uniqueViolation:_:)``, which calls this: the persistence
  /// errors that break one of the domain's rules become that rule's error.
  ///
  /// ```swift
  /// try LedgerError.capturing(duplicateID: .duplicateTransaction(transaction.id)) {
  ///   try context.insert(transaction)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - error: What was thrown.
  ///   - duplicateID: The error for ``PersistenceError/duplicateID(model:id:)``, if any.
  ///   - notFound: The error for ``PersistenceError/notFound(model:id:)``, if any.
  ///   - uniqueViolation: The error for ``PersistenceError/uniqueViolation(model:columns:id:)``,
  ///     if any.
  /// - Returns: The domain's error.
  public static func captured(
    _ error: any Error, duplicateID: Self? = nil, notFound: Self? = nil,
    uniqueViolation: Self? = nil
  ) -> Self {
    let mapped: Self? =
      switch error as? PersistenceError {
      case .duplicateID?: duplicateID
      case .notFound?: notFound
      case .uniqueViolation?: uniqueViolation
      default: nil
      }
    // NB: Loop's `captured(_:)`, which describes a `PersistenceError` by its `description`.
    return mapped ?? captured(error)
  }

  /// Runs storage work, turning whatever it throws into this domain's error (see
  /// ``captured(_:duplicateID:notFound:uniqueViolation:)``).
  ///
  /// - Parameters:
  ///   - duplicateID: The error for ``PersistenceError/duplicateID(model:id:)``, if any.
  ///   - notFound: The error for ``PersistenceError/notFound(model:id:)``, if any.
  ///   - uniqueViolation: The error for ``PersistenceError/uniqueViolation(model:columns:id:)``,
  ///     if any.
  ///   - body: The work.
  /// - Returns: What `body` returns.
  /// - Throws: This domain's error.
  public static func capturing<R>(
    duplicateID: Self? = nil, notFound: Self? = nil, uniqueViolation: Self? = nil,
    _ body: () throws -> R
  ) throws(Self) -> R {
    do {
      return try body()
    } catch {
      throw captured(
        error, duplicateID: duplicateID, notFound: notFound, uniqueViolation: uniqueViolation)
    }
  }
}
