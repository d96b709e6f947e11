/// Reads a dependency from the current `DependencyValues`.
///
/// ```swift
/// struct LinkList: Reducer {
///   @Dependency(\.linkClient) var linkClient
///   @Dependency(\.date) var date
/// }
/// ```
///
/// The value is looked up each time it is read, in the task that reads it: inside a store's
/// reducer and effects that is the store's dependencies.
@propertyWrapper
public struct Dependency<Value>: Sendable {
  @usableFromInline let keyPath: KeyPath<DependencyValues, Value> & Sendable

  /// Creates a reader for the dependency at `keyPath`.
  public init(_ keyPath: KeyPath<DependencyValues, Value> & Sendable) {
    self.keyPath = keyPath
  }

  /// The dependency's current value.
  // NB: inlinable, so that a feature's module reads it specialized for the value's type:
  // unspecialized, each read looked up the key path's generic metadata before projecting it.
  @inlinable
  public var wrappedValue: Value {
    DependencyValues.current[keyPath: keyPath]
  }
}
