/// An action for a navigation stack (see ``StackState``): one of an element's own, a pop, or a
/// push.
///
/// ```swift
/// enum Action {
///   case path(StackActionOf<Path>)
/// }
///
/// store.send(.path(.element(id: 0, action: .detail(.saveSubmitted))))
/// store.send(.path(.popFrom(id: 0)))  // pops element 0 and everything above it
/// ```
public enum StackAction<State, Action> {
  /// One of the element's actions, for the element with `id`.
  case element(id: StackElementID, action: Action)
  /// Pop the element with `id` and every element above it: `forEach` lets the parent see this
  /// action with the elements still there, then pops them and cancels their effects. An element
  /// sends it for itself with `@Dependency(\.dismiss)`.
  case popFrom(id: StackElementID)
  /// Push `state` at the top under `id`, a new id: `forEach` adds it, then runs the parent.
  case push(id: StackElementID, state: State)
}

/// The ``StackAction`` of the elements a reducer `R` runs.
///
/// ```swift
/// case path(StackActionOf<Path>)  // rather than StackAction<Path.State, Path.Action>
/// ```
public typealias StackActionOf<R: Reducer> = StackAction<R.State, R.Action>

extension StackAction: Equatable where State: Equatable, Action: Equatable {}

extension StackAction: Hashable where State: Hashable, Action: Hashable {}

extension StackAction: Sendable where State: Sendable, Action: Sendable {}
