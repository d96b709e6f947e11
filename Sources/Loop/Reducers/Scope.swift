/// Runs a child reducer on a part of the parent's state, for the child's actions.
///
/// ```swift
/// var body: some ReducerOf<Self> {
///   Scope(state: \.search, action: .case(Action.search)) { Search() }
///   Reduce { state, action in … }
/// }
/// ```
///
/// The child works on the parent's state in place, so there is one source of truth. Actions that
/// are not the child's case are ignored; the child's effects send their actions back wrapped in
/// the parent's case.
public struct Scope<ParentState, ParentAction, Child: Reducer>: Reducer {
  @usableFromInline let toChildState: WritableKeyPath<ParentState, Child.State>
  @usableFromInline let toChildAction: CasePath<ParentAction, Child.Action>
  @usableFromInline let child: Child

  /// Scopes `child` to the state at `state` and the actions of the case `action`.
  ///
  /// - Parameters:
  ///   - state: Where the child's state lives in the parent's.
  ///   - action: The parent's action case that carries the child's actions.
  ///   - child: The child reducer.
  public init<ChildState, ChildAction>(
    state: WritableKeyPath<ParentState, ChildState>,
    action: CasePath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.toChildState = state
    self.toChildAction = action
    self.child = child()
  }

  /// Runs the child for its own actions.
  ///
  /// - Parameters:
  ///   - state: The parent's state.
  ///   - action: The parent's action.
  /// - Returns: The child's effects, embedded in the parent's action.
  @inlinable
  public func reduce(into state: inout ParentState, action: ParentAction) -> Effect<ParentAction> {
    guard let childAction = toChildAction.extract(action) else { return .none }
    return child.reduce(into: &state[keyPath: toChildState], action: childAction)
      .map(toChildAction.embed)
  }
}
