import Synchronization

/// State that is presented only until the user answers it: an alert or a confirmation dialog.
///
/// `ifLet` closes presented ephemeral state as soon as one of its buttons' actions arrives, so a
/// parent never closes an alert by hand; an enum of destinations with an alert case gets the same
/// treatment while that case is presented.
package protocol EphemeralState {
  /// The type of the actions its buttons send.
  associatedtype Action
}

extension EphemeralState {
  /// The type of the actions its buttons send, as a value.
  static var buttonActionType: Any.Type { Action.self }
}

/// Finds, for a presented child's state and action types, whether an action closes the child as
/// an answer to ephemeral state: the child is an alert, or an enum of destinations whose
/// presented case is one, and the action is that alert's.
///
/// NB: decided once per `ifLet`, the first time a presented child gets an action, not when the
/// reducer is built: deciding asks the runtime whether each type conforms, a search of every
/// conformance the program has, and `loop` builds every feature's presentations for every
/// command. A destination that can never be ephemeral costs a lock after.
final class EphemeralDismissal<State, Action>: Sendable {
  /// What the types are, once decided.
  private struct Decision: @unchecked Sendable {
    /// The button action type of `State` when it is ephemeral itself.
    let directActionType: Any.Type?
    /// The layouts of `State` and `Action` when `State` is an enum with an ephemeral case.
    let layouts: (state: EnumLayout, action: EnumLayout)?
  }

  private let decided = Mutex<Decision?>(nil)

  init() {}

  private var decision: Decision {
    decided.withLock { decided in
      if let decided { return decided }
      let decision = Self.decide()
      decided = decision
      return decision
    }
  }

  private static func decide() -> Decision {
    let directActionType = (State.self as? any EphemeralState.Type)?.buttonActionType
    guard directActionType == nil, let state = EnumLayout.of(State.self),
      state.cases.contains(where: { $0.payload is any EphemeralState.Type }),
      let action = EnumLayout.of(Action.self)
    else { return Decision(directActionType: directActionType, layouts: nil) }
    return Decision(directActionType: nil, layouts: (state, action))
  }

  /// Whether `action`, sent to the presented `state`, answers ephemeral state.
  func isAnswer(_ action: Action, to state: State) -> Bool {
    let decision = self.decision
    if let directActionType = decision.directActionType {
      return directActionType == Action.self
    }
    guard let layouts = decision.layouts else { return false }
    let stateTag = withUnsafePointer(to: state) { layouts.state.tag(of: $0) }
    guard
      let ephemeral = layouts.state.cases[stateTag].payload as? any EphemeralState.Type
    else { return false }
    let actionTag = withUnsafePointer(to: action) { layouts.action.tag(of: $0) }
    return layouts.action.cases[actionTag].payload == ephemeral.buttonActionType
  }
}
