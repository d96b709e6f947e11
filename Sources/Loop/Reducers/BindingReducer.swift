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
///
/// When the binding actions arrive inside a view action (TCA's `ViewAction`: `case
/// view(View)`, where `View` adopts ``BindableAction``), name that case:
///
/// ```swift
/// BindingReducer(action: .case(Action.view))
/// ```
public struct BindingReducer<State, Action>: Reducer {
  private let toBinding: CasePath<Action, BindingAction<State>>

  /// Creates the reducer, for an action that adopts ``BindableAction``.
  public init() where Action: BindableAction, Action.State == State {
    self.toBinding = .case { Action.binding($0) }
  }

  /// Creates the reducer for binding actions carried by the case `toViewAction`, whose payload
  /// adopts ``BindableAction``.
  ///
  /// - Parameter toViewAction: The action case that carries the binding actions, such as
  ///   `.case(Action.view)`.
  public init<ViewAction: BindableAction>(
    action toViewAction: CasePath<Action, ViewAction>
  ) where ViewAction.State == State {
    self.toBinding = toViewAction.appending(path: .case { ViewAction.binding($0) })
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
