import Synchronization

/// Records values from any task, in order.
public final class Log<Value: Sendable>: Sendable {
  private let storage = Mutex<[Value]>([])

  /// Creates an empty log.
  public init() {}

  /// Records `value` after the others.
  public func append(_ value: Value) { storage.withLock { $0.append(value) } }

  /// The values recorded, oldest first.
  public var values: [Value] { storage.withLock { $0 } }
}
