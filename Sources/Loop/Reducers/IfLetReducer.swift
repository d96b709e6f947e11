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
  /// this reducer sets the child state to `nil`, the child's running effects are cancelled; so
  /// are they when it replaces an `Identifiable` child with one of another id (a different
  /// child, whose actions the old one's effects must not send).
  ///
  /// - Parameters:
  ///   - toChildState: Where the optional child state lives.
  ///   - toChildAction: The action case that carries the child's actions.
  ///   - child: The child reducer.
  ///   - fileID: The file of the call, for reports.
  ///   - filePath: The file path of the call, for reports.
  ///   - line: The line of the call, for reports.
  ///   - column: The column of the call, for reports.
  /// - Returns: The combined reducer.
  public func ifLet<ChildState, ChildAction, Child: Reducer>(
    _ toChildState: WritableKeyPath<State, ChildState?>,
    action toChildAction: CasePath<Action, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> then child: () -> Child,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> IfLetReducer<Self, Child> where ChildState == Child.State, ChildAction == Child.Action {
    IfLetReducer(
      parent: self, child: child(), toChildState: toChildState, toChildAction: toChildAction,
      location: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }
}

/// The reducer `ifLet` returns: a parent with an optional child.
public struct IfLetReducer<Parent: Reducer, Child: Reducer>: Reducer {
  let parent: Parent
  let child: Child
  /// The child's function when it has a `body`, made once (see `Scope`).
  let childFunction: ((inout Child.State, Child.Action) -> Effect<Child.Action>)?
  let toChildState: WritableKeyPath<Parent.State, Child.State?>
  let toChildAction: CasePath<Parent.Action, Child.Action>
  /// Where the operator was called: its reports point there.
  let location: IssueLocation
  /// The id of the child state when it is `Identifiable` (decided once): then its effects are
  /// tied to its id.
  let childIdentity: ((Child.State) -> AnyHashable?)?

  init(
    parent: Parent, child: Child, toChildState: WritableKeyPath<Parent.State, Child.State?>,
    toChildAction: CasePath<Parent.Action, Child.Action>, location: IssueLocation
  ) {
    self.parent = parent
    self.child = child
    self.childFunction = child.bodyFunction
    self.toChildState = toChildState
    self.toChildAction = toChildAction
    self.location = location
    self.childIdentity = (Child.State.self as? any Identifiable.Type).map {
      identity(of: Child.State.self, as: $0)
    }
  }

  /// Runs the child for its actions when present, then the parent.
  ///
  /// - Parameters:
  ///   - state: The parent's state.
  ///   - action: The parent's action.
  /// - Returns: The merged effects.
  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<
    Parent.Action
  > {
    var childEffect = Effect<Parent.Action>.none
    if let childAction = toChildAction.extract(action) {
      // NB: moved out and back so the child state is mutated without a copy.
      if var childState = state[keyPath: toChildState].take() {
        let effect =
          if let childFunction {
            childFunction(&childState, childAction)
          } else {
            child.reduce(into: &childState, action: childAction)
          }
        childEffect = effect.map(toChildAction.embed).scoped(toChild: effectID(of: childState))
        state[keyPath: toChildState] = childState
      } else {
        IssueReporting.current.reportIssue(
          """
          An 'ifLet' at '\(location.fileIDAndLine)' received a child action when the child state \
          was nil:

              \(Diff.dump(action).indentingContinuationLines(by: 4))

          This is usually an effect that outlived its child, or an action sent after the \
          child was dismissed. To fix, send child actions only while the child state is \
          present, or cancel the child's effects when dismissing it.
          """,
          at: location)
      }
    }
    // NB: read through mutable projections, which for stored properties are plain addresses.
    let before = presentEffectID(&state[keyPath: toChildState])
    let parentEffect = parent.reduce(into: &state, action: action)
    if let before, before != presentEffectID(&state[keyPath: toChildState]) {
      return .merge(childEffect, parentEffect, .cancelChild(before))
    }
    return childEffect.merge(with: parentEffect)
  }

  /// The id the effects of a present child run under; `nil` when the child is absent.
  private func presentEffectID(_ childState: inout Child.State?) -> IfLetEffectID? {
    guard childState != nil else { return nil }
    // NB: the child state is copied only when its id is needed.
    guard childIdentity != nil, let present = childState else {
      return IfLetEffectID(path: UncheckedSendable(toChildState), childID: nil)
    }
    return effectID(of: present)
  }

  /// The id the effects of `childState` run under: the child's place, and its id when it is
  /// `Identifiable`.
  private func effectID(of childState: Child.State) -> IfLetEffectID {
    IfLetEffectID(path: UncheckedSendable(toChildState), childID: childIdentity?(childState) ?? nil)
  }
}

/// The id of a `State` that is the `Identifiable` type `identified`, type-erased.
///
/// NB: the cast is from a type to itself, which copies without boxing the value in an
/// existential.
func identity<State, Identified: Identifiable>(
  of _: State.Type, as identified: Identified.Type
) -> (State) -> AnyHashable? {
  { state in (state as? Identified).map { AnyHashable($0.id) } }
}

struct IfLetEffectID: Hashable, @unchecked Sendable {
  // NB: key paths are immutable and only compared here; ids are the child state's own.
  let path: AnyKeyPath
  let childID: AnyHashable?

  init<Root, Value>(path: UncheckedSendable<WritableKeyPath<Root, Value>>, childID: AnyHashable?) {
    self.path = path.value
    self.childID = childID
  }
}
