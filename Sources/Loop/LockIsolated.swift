import Synchronization

/// A value behind a lock, that closures on any thread may read and change: TCA's (and
/// swift-concurrency-extras') `LockIsolated`.
///
/// A test hands one to a dependency's endpoint and checks what it recorded:
///
/// ```swift
/// let opened = LockIsolated<[URL]>([])
/// let store = TestStore(initialState: Feature.State()) { Feature() } withDependencies: {
///   $0.openURL = { url in opened.withValue { $0.append(url) } }
/// }
/// await store.send(.openSubmitted)
/// #expect(opened.value == [URL(string: "https://example.com")!])
/// ```
public final class LockIsolated<Value>: @unchecked Sendable {
  // NB: @unchecked: `value` is read and written only while `lock` is held.
  private var _value: Value
  private let lock = Mutex(())

  /// Isolates `value`.
  ///
  /// - Parameter value: The first value.
  public init(_ value: @autoclosure @Sendable () throws -> Value) rethrows {
    self._value = try value()
  }

  /// Runs `operation` with the value, which it may change, while holding the lock.
  ///
  /// - Parameter operation: Reads or changes the value; it must not use this `LockIsolated`
  ///   again (the lock is not reentrant).
  /// - Returns: What `operation` returns.
  /// - Throws: What `operation` throws.
  public func withValue<T: Sendable>(
    _ operation: @Sendable (inout Value) throws -> T
  ) rethrows -> T {
    try lock.withLock { _ in try operation(&_value) }
  }

  /// Replaces the value.
  ///
  /// - Parameter newValue: The new value.
  public func setValue(_ newValue: @autoclosure @Sendable () throws -> Value) rethrows {
    // NB: evaluated before the lock is taken: it may read this value (`count.value + 1`).
    let value = try newValue()
    lock.withLock { _ in _value = value }
  }
}

extension LockIsolated where Value: Sendable {
  /// The value, read under the lock.
  public var value: Value {
    lock.withLock { _ in _value }
  }
}
