/// A value several features share by reference: a change made through one `Shared` is seen by
/// every other one with the same reference.
///
/// Declare it with a key, and every declaration with that key shares one value; the first one
/// made gives the value it starts with:
///
/// ```swift
/// struct State: Equatable {
///   @Shared(.inMemory("count")) var count = 0
/// }
/// ```
///
/// Or wrap a value to hand to a child, which changes its parent's value through it:
///
/// ```swift
/// let detail = SyncUpDetail.State(syncUp: Shared(value: syncUp))
/// ```
///
/// Read it as the value it holds (`state.count`); change it only inside ``withLock(_:)``, which
/// gives exclusive access, so two changes made at once never lose one another:
///
/// ```swift
/// state.$count.withLock { $0 += 1 }
/// ```
///
/// A member of the value, or an element of an identified array, is a `Shared` of its own that
/// changes the value it came from (`$syncUp.title`, `$syncUps[id: id]`), and
/// ``init(_:)-(Shared<Value?>)`` unwraps an optional one.
///
/// In a `TestStore`, every change is asserted as a state change is, in the same closure:
/// `await store.send(.incrementSubmitted) { $0.$count.withLock { $0 = 1 } }`.
@propertyWrapper
@dynamicMemberLookup
public struct Shared<Value> {
  let reference: any SharedReference<Value>

  init(reference: any SharedReference<Value>) {
    self.reference = reference
  }

  /// Wraps a value in a new shared reference, which no key names.
  ///
  /// - Parameter value: The value.
  public init(value: Value) {
    self.init(reference: SharedBox(value: value, name: "Shared<\(Diff.typeName(Value.self))>"))
  }

  /// Unwraps a shared optional, or returns `nil` when it holds `nil`.
  ///
  /// ```swift
  /// if let syncUp = Shared(state.$syncUps[id: id]) {
  ///   state.detail = SyncUpDetail.State(syncUp: syncUp)
  /// }
  /// ```
  ///
  /// The result changes the optional's value. Once the optional is `nil` (the element was
  /// removed), it reads the last value it had, and a change through it is dropped and reported.
  ///
  /// - Parameter optional: A shared optional value.
  public init?(_ optional: Shared<Value?>) {
    guard let value = optional.wrappedValue else { return nil }
    self.init(reference: UnwrappedReference(base: optional.reference, value: value))
  }

  /// The value.
  ///
  /// Change it with ``withLock(_:)``.
  public var wrappedValue: Value {
    reference.value(in: SharedAssertion.current?.expected)
  }

  /// The shared reference itself, to hand to another feature, to change with ``withLock(_:)``,
  /// or to derive a member's reference from (`$syncUp.title`).
  public var projectedValue: Self {
    get { self }
    set { self = newValue }
  }

  /// Changes the value with exclusive access to it.
  ///
  /// ```swift
  /// state.$syncUp.withLock { $0.title = "Engineering" }
  /// ```
  ///
  /// Nobody else reads or changes the value until `operation` returns. A value kept in a file
  /// is saved when it returns.
  ///
  /// - Parameter operation: Changes the value.
  /// - Returns: What `operation` returned.
  /// - Throws: What `operation` threw; a change it made before throwing is kept.
  public func withLock<R>(_ operation: (inout Value) throws -> R) rethrows -> R {
    // NB: inside a test store's assertion the change goes to the values it expects, not to the
    // live value; a reducer's or an effect's change is noted for the store first.
    if let scope = SharedAssertion.current {
      return try reference.modify(in: scope.expected, operation)
    }
    SharedChangeTracker.current?.willChange(reference.root)
    return try reference.modify(in: nil, operation)
  }

  /// A shared reference to a member of the value, which changes the value it came from.
  ///
  /// ```swift
  /// let title: Shared<String> = $syncUp.title
  /// let syncUp: Shared<SyncUp?> = $syncUps[id: id]
  /// ```
  ///
  /// - Parameter keyPath: The member's key path.
  /// - Returns: The member's shared reference.
  public subscript<Member>(dynamicMember keyPath: WritableKeyPath<Value, Member>) -> Shared<Member>
  {
    Shared<Member>(reference: KeyPathReference(base: reference, keyPath: keyPath))
  }
}

extension Shared: Equatable where Value: Equatable {
  /// Whether the two hold equal values (a test store's assertion compares the values it expects
  /// on the left with the values after the action on the right).
  ///
  /// - Parameters:
  ///   - lhs: A shared value.
  ///   - rhs: Another shared value.
  /// - Returns: Whether their values are equal.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    let scope = SharedAssertion.current
    return lhs.reference.value(in: scope?.expected) == rhs.reference.value(in: scope?.actual)
  }
}

extension Shared: Sendable where Value: Sendable {}

/// A shared value as the state diff shows it: its value, on each side of a test store's
/// assertion as that side has it.
package protocol SharedValueDiffing {
  /// The value on the left (`isRight == false`) or the right side of the assertion running.
  func diffValue(isRight: Bool) -> Any
}

extension Shared: SharedValueDiffing {
  package func diffValue(isRight: Bool) -> Any {
    let scope = SharedAssertion.current
    return reference.value(in: isRight ? scope?.actual : scope?.expected)
  }
}
