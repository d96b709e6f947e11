/// An action that sets one field of a feature's state to a value: what a form sends when the user
/// edits a field.
///
/// A feature whose action adopts ``BindableAction`` takes them in one case, and lets a
/// ``BindingReducer`` apply them:
///
/// ```swift
/// enum Action: BindableAction {
///   case binding(BindingAction<State>)
///   case saveSubmitted
/// }
///
/// store.send(.binding(.set(\.title, "Groceries")))
/// ```
///
/// Two are equal when they set the same field to equal values, so a test store can receive one.
/// A reducer reacts to one field's changes with a key path as the pattern:
///
/// ```swift
/// case .binding(\.title):
///   state.errorMessage = nil
///   return .none
/// ```
public struct BindingAction<Root>: Equatable, @unchecked Sendable {
  // NB: `@unchecked`: a key path is immutable (its subscript arguments are `Hashable` values it
  // copied), and `set(_:_:)` takes only `Sendable` values.
  /// The field set.
  public let keyPath: PartialKeyPath<Root>
  let value: any Sendable
  let apply: @Sendable (inout Root) -> Void
  private let isEqualValue: @Sendable (any Sendable) -> Bool

  /// An action that sets the field at `keyPath` to `value`.
  ///
  /// - Parameters:
  ///   - keyPath: The field.
  ///   - value: Its new value.
  /// - Returns: The action.
  public static func set<Value: Equatable & Sendable>(
    _ keyPath: WritableKeyPath<Root, Value>, _ value: Value
  ) -> Self {
    let path = UncheckedKeyPath(keyPath: keyPath)
    return Self(
      keyPath: keyPath, value: value, apply: { $0[keyPath: path.keyPath] = value },
      isEqualValue: { ($0 as? Value) == value })
  }

  /// Whether `action` sets the field at `keyPath`: the pattern of `case .binding(\.title):`.
  ///
  /// - Parameters:
  ///   - keyPath: The field.
  ///   - action: A binding action.
  /// - Returns: Whether the action sets that field.
  public static func ~= <Value>(keyPath: WritableKeyPath<Root, Value>, action: Self) -> Bool {
    action.keyPath == keyPath
  }

  /// Whether the two set the same field to equal values.
  ///
  /// - Parameters:
  ///   - lhs: A binding action.
  ///   - rhs: Another binding action.
  /// - Returns: Whether they are equal.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.keyPath == rhs.keyPath && lhs.isEqualValue(rhs.value)
  }
}

extension BindingAction: CustomReflectable {
  /// Shown as it is written, `.set(\State.title, "Groceries")`, in diffs and recordings.
  public var customMirror: Mirror {
    Mirror(self, children: ["set": (keyPath, value)], displayStyle: .enum)
  }
}

/// A key path held by a `@Sendable` closure; see the note on ``BindingAction``.
private struct UncheckedKeyPath<Root, Value>: @unchecked Sendable {
  let keyPath: WritableKeyPath<Root, Value>
}

/// An action with a case for ``BindingAction``s, which a ``BindingReducer`` applies.
///
/// ```swift
/// enum Action: BindableAction {
///   case binding(BindingAction<State>)
/// }
/// ```
public protocol BindableAction: SendableMetatype {
  /// The state the binding actions set.
  associatedtype State

  /// The case that carries a binding action.
  ///
  /// - Parameter action: The binding action.
  /// - Returns: The action.
  static func binding(_ action: BindingAction<State>) -> Self
}

extension BindableAction {
  /// The action setting the field at `keyPath` to `value`: `.set(\.title, "Groceries")` is
  /// `.binding(.set(\.title, "Groceries"))`.
  ///
  /// - Parameters:
  ///   - keyPath: The field.
  ///   - value: Its new value.
  /// - Returns: The action.
  public static func set<Value: Equatable & Sendable>(
    _ keyPath: WritableKeyPath<State, Value>, _ value: Value
  ) -> Self {
    binding(.set(keyPath, value))
  }
}
