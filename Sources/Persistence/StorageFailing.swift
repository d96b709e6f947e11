/// A domain's error, which every failure of its storage becomes.
///
/// A client throws only its domain's error (`LinkError`, `HabitError`, `LedgerError`), never a
/// ``PersistenceError``: its live value runs each storage call through ``capturing(_:_:)``,
/// which lets the domain's own errors through, turns the persistence errors that break one of
/// the domain's rules into that rule's error, and every other failure into
/// ``storageFailed(_:)`` with the storage's explanation.
///
/// ```swift
/// extension LedgerError: StorageFailing {}  // has `case storageFailed(String)`
///
/// try LedgerError.capturing(mapping: { error in
///   if case .duplicateID = error { .duplicateTransaction(transaction.id) } else { nil }
/// }) {
///   try context.insert(transaction)
/// }
/// ```
public protocol StorageFailing: Error {
  /// The error for a failure of the storage itself, carrying its explanation.
  static func storageFailed(_ reason: String) -> Self
}

extension StorageFailing {
  /// This domain's error for any error: itself when it is one, `mapping`'s error for a
  /// ``PersistenceError`` it maps, otherwise ``storageFailed(_:)`` with the error's description.
  ///
  /// - Parameters:
  ///   - error: What was thrown.
  ///   - mapping: The domain's error for a persistence error, or `nil` for a storage failure.
  /// - Returns: The domain's error.
  public static func captured(
    _ error: any Error, mapping: (PersistenceError) -> Self? = { _ in nil }
  ) -> Self {
    switch error {
    case let error as Self:
      return error
    case let error as PersistenceError:
      return mapping(error) ?? .storageFailed(error.description)
    default:
      return .storageFailed(String(describing: error))
    }
  }

  /// Runs storage work, turning whatever it throws into this domain's error (see
  /// ``captured(_:mapping:)``).
  ///
  /// - Parameters:
  ///   - mapping: The domain's error for a persistence error, or `nil` for a storage failure.
  ///   - body: The work.
  /// - Returns: What `body` returns.
  /// - Throws: This domain's error.
  public static func capturing<R>(
    mapping: (PersistenceError) -> Self? = { _ in nil }, _ body: () throws -> R
  ) throws(Self) -> R {
    do {
      return try body()
    } catch {
      throw captured(error, mapping: mapping)
    }
  }
}
