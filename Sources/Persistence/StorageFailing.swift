/// A domain's error, which every failure of its storage becomes.
///
/// A client throws only its domain's error (`LinkError`, `HabitError`, `LedgerError`), never a
/// ``PersistenceError``: its live value runs each storage call through
/// ``capturing(duplicateID:notFound:uniqueViolation:_:)``, which lets the domain's own errors
/// through, turns the persistence errors that break one of the domain's rules into that rule's
/// error, and every other failure into ``storageFailed(_:)`` with the storage's explanation. A
/// feature's effect captures a call's outcome, as the domain's error, with
/// ``Swift/Result/init(catching:)``.
///
/// ```swift
/// extension LedgerError: StorageFailing {}  // has `case storageFailed(String)`
///
/// try LedgerError.capturing(duplicateID: .duplicateTransaction(transaction.id)) {
///   try context.insert(transaction)
/// }
/// ```
public protocol StorageFailing: Error {
  /// The error for a failure of the storage itself, carrying its explanation.
  static func storageFailed(_ reason: String) -> Self
}

extension StorageFailing {
  /// This domain's error for any error: itself when it is one, the given error for a
  /// ``PersistenceError`` that has one, otherwise ``storageFailed(_:)`` with the error's
  /// description.
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
    switch error {
    case let error as Self:
      return error
    case let error as PersistenceError:
      let mapped: Self? =
        switch error {
        case .duplicateID: duplicateID
        case .notFound: notFound
        case .uniqueViolation: uniqueViolation
        default: nil
        }
      return mapped ?? .storageFailed(error.description)
    default:
      return .storageFailed(String(describing: error))
    }
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
