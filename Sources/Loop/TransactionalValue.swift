import Foundation

/// A value behind a lock whose changes inside a transaction apply all together or not at all:
/// what each client's in-memory storage keeps its rows in.
///
/// A transaction holds the lock while it runs, so no other thread sees its changes half made;
/// when its body throws, or it rolls back on purpose (a dry run), the value is put back as it
/// was when the transaction began. Inside a transaction, ``withValue(_:)`` reads and changes the
/// value on the same thread (the lock is reentrant).
///
/// NB: package-wide, not public: it is the clients' test storage, not an API of Loop's.
package final class TransactionalValue<Value: Sendable>: @unchecked Sendable {
  // NB: @unchecked: `value` is read and written only while `lock` is held.
  private var value: Value
  private let lock = NSRecursiveLock()

  /// Keeps `value`.
  package init(_ value: Value) {
    self.value = value
  }

  /// Runs `body` with the value, which it may change, while holding the lock.
  package func withValue<R, Failure: Error>(
    _ body: (inout Value) throws(Failure) -> R
  ) throws(Failure) -> R {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }

  /// Runs `body` as one transaction: its changes stay when it returns, unless `rollingBack`;
  /// when it throws, none of them stays.
  package func transaction<R, Failure: Error>(
    rollingBack: Bool = false, _ body: () throws(Failure) -> R
  ) throws(Failure) -> R {
    lock.lock()
    defer { lock.unlock() }
    let saved = value
    do {
      let result = try body()
      if rollingBack { value = saved }
      return result
    } catch {
      value = saved
      throw error
    }
  }
}
