/// A key for a value kept in memory, for as long as the process runs (in a test, for as long as
/// the test runs).
///
/// ```swift
/// @Shared(.inMemory("isOnline")) var isOnline = false
/// ```
public struct InMemoryKey<Value: Sendable>: SharedKey, CustomStringConvertible {
  /// The key's name.
  public let id: String

  /// The key as written: `.inMemory("isOnline")`.
  public var description: String { ".inMemory(\(Diff.dump(id)))" }
}

extension SharedKey {
  /// A key for a value kept in memory under `key`.
  ///
  /// - Parameter key: The value's name: declarations with the same name share the value.
  /// - Returns: The key.
  public static func inMemory<Value>(_ key: String) -> Self where Self == InMemoryKey<Value> {
    InMemoryKey(id: key)
  }
}
