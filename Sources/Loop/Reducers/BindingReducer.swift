/// Applies a feature's ``BindingAction``s to its state: put it first in the `body`, and the
/// reducers after it see the field already set.
///
/// ```swift
/// var body: some ReducerOf<Self> {
///   BindingReducer()
///   Reduce { state, action in
///     switch action {
///     case .binding(\.title):
///       state.errorMessage = nil
///       return .none
///     case .binding:
///       return .none
///     …
///     }
///   }
/// }
/// ```
public struct BindingReducer<State, Action: BindableAction>: Reducer
where Action.State == State {
  private let toBinding: CasePath<Action, BindingAction<State>>

  /// Creates the reducer.
  public init() {
    self.toBinding = .case { Action.binding($0) }
  }

  /// Sets the field a binding action names; any other action passes.
  ///
  /// - Parameters:
  ///   - state: The feature's state.
  ///   - action: The action.
  /// - Returns: No effect.
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    toBinding.extract(action)?.apply(&state)
    return .none
  }
}
