extension Reducer {
  /// Runs `child` on optional child state when it is present, before this reducer.
  ///
  /// ```swift
  /// Reduce { state, action in … }
  ///   .ifLet(\.editor, action: .case(Action.editor)) { Editor() }
  /// ```
  ///
  /// An action for the child while its state is `nil` is a mistake (often an effect that
  /// outlived the child): it is reported as a runtime issue and ignored, never a crash. When
  /// this reducer sets the child state to `nil`, the child's running effects are cancelled.
  ///
  /// - Parameters:
  ///   - toChildState: Where the optional child state lives.
  ///   - toChildAction: The action case that carries the child's actions.
  ///   - child: The child reducer.
  ///   - fileID: The file of the call, for reports.
  ///   - line: The line of the call, for reports.
  /// - Returns: The combined reducer.
  public func ifLet<ChildState, ChildAction, Child: Reducer>(
    _ toChildState: WritableKeyPath<State, ChildState?>,
    action toChildAction: CasePath<Action, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> then child: () -> Child,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> IfLetReducer<Self, Child> where ChildState == Child.State, ChildAction == Child.Action {
    IfLetReducer(
      parent: self, child: child(), toChildState: toChildState, toChildAction: toChildAction,
      fileID: fileID, line: line)
  }
}

/// The reducer `ifLet` returns: a parent with an optional child.
public struct IfLetReducer<Parent: Reducer, Child: Reducer>: Reducer {
  let parent: Parent
  let child: Child
  let toChildState: WritableKeyPath<Parent.State, Child.State?>
  let toChildAction: CasePath<Parent.Action, Child.Action>
  let fileID: StaticString
  let line: UInt

  /// Runs the child for its actions when present, then the parent.
  ///
  /// - Parameters:
  ///   - state: The parent's state.
  ///   - action: The parent's action.
  /// - Returns: The merged effects.
  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<
    Parent.Action
  > {
    let effectID = IfLetEffectID(path: UncheckedSendable(toChildState))
    var childEffect = Effect<Parent.Action>.none
    if let childAction = toChildAction.extract(action) {
      // NB: moved out and back so the child state is mutated without a copy.
      if var childState = state[keyPath: toChildState].take() {
        childEffect = child.reduce(into: &childState, action: childAction)
          .map(toChildAction.embed)
          .cancellable(id: effectID)
        state[keyPath: toChildState] = childState
      } else {
        reportIssue(
          """
          An 'ifLet' at '\(fileID):\(line)' received a child action when the child state was \
          nil:

              \(Diff.dump(action).indentingContinuationLines(by: 4))

          This is usually an effect that outlived its child, or an action sent after the \
          child was dismissed. To fix, send child actions only while the child state is \
          present, or cancel the child's effects when dismissing it.
          """,
          fileID: fileID, line: line)
      }
    }
    // NB: checked through mutable projections, which for stored properties are plain addresses.
    let wasPresent = isPresent(&state[keyPath: toChildState])
    let parentEffect = parent.reduce(into: &state, action: action)
    if wasPresent && !isPresent(&state[keyPath: toChildState]) {
      return .merge(childEffect, parentEffect, .cancel(id: effectID))
    }
    return childEffect.merge(with: parentEffect)
  }

  private func isPresent(_ childState: inout Child.State?) -> Bool { childState != nil }
}

struct IfLetEffectID: Hashable, @unchecked Sendable {
  // NB: key paths are immutable and only compared here.
  let path: AnyKeyPath

  init<Root, Value>(path: UncheckedSendable<WritableKeyPath<Root, Value>>) {
    self.path = path.value
  }
}
