extension Reducer {
  /// Runs `child` on optional child state when it is present, before this reducer.
  ///
  /// ```swift
  /// Reduce { state, action in … }
  ///   .ifLet(\.editor, action: .case(Action.editor)) { Editor() }
  /// ```
  ///
  /// Over an optional ``AlertState`` or ``ConfirmationDialogState`` (not `@Presents`), any of
  /// its actions answers it: it is set to `nil` before this reducer runs, so this reducer sees
  /// it closed and may present another.
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

extension Reducer {
  /// Presents an alert kept in a plain optional (not `@Presents`): any of its buttons' actions
  /// runs this reducer as `.alert(action)` with the alert already closed.
  ///
  /// ```swift
  /// Reduce { state, action in … }
  ///   .ifLet(\.alert, action: .case(Action.alert))
  /// ```
  ///
  /// Setting the alert again while answering it (`state.alert = AlertState { … }`) presents
  /// the new one.
  ///
  /// - Parameters:
  ///   - toAlertState: Where the optional alert lives.
  ///   - toAlertAction: The action case that carries the alert's button actions.
  ///   - fileID: The file of the call, for reports.
  ///   - filePath: The file path of the call, for reports.
  ///   - line: The line of the call, for reports.
  ///   - column: The column of the call, for reports.
  /// - Returns: The combined reducer.
  public func ifLet<ButtonAction>(
    _ toAlertState: WritableKeyPath<State, AlertState<ButtonAction>?>,
    action toAlertAction: CasePath<Action, ButtonAction>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> IfLetReducer<Self, EmptyReducer<AlertState<ButtonAction>, ButtonAction>> {
    ifLet(
      toAlertState, action: toAlertAction, then: {}, fileID: fileID, filePath: filePath,
      line: line, column: column)
  }

  /// Presents a confirmation dialog kept in a plain optional (not `@Presents`): any of its
  /// buttons' actions runs this reducer as `.dialog(action)` with the dialog already closed.
  ///
  /// - Parameters:
  ///   - toDialogState: Where the optional dialog lives.
  ///   - toDialogAction: The action case that carries the dialog's button actions.
  ///   - fileID: The file of the call, for reports.
  ///   - filePath: The file path of the call, for reports.
  ///   - line: The line of the call, for reports.
  ///   - column: The column of the call, for reports.
  /// - Returns: The combined reducer.
  public func ifLet<ButtonAction>(
    _ toDialogState: WritableKeyPath<State, ConfirmationDialogState<ButtonAction>?>,
    action toDialogAction: CasePath<Action, ButtonAction>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> IfLetReducer<Self, EmptyReducer<ConfirmationDialogState<ButtonAction>, ButtonAction>> {
    ifLet(
      toDialogState, action: toDialogAction, then: {}, fileID: fileID, filePath: filePath,
      line: line, column: column)
  }
}

/// The reducer `ifLet` returns: a parent with an optional child.
public struct IfLetReducer<Parent: Reducer, Child: Reducer>: Reducer {
  let parent: Parent
  /// The child, built the first time it runs (see `Scope`).
  let child: LazyReducer<Child>
  let toChildState: WritableKeyPath<Parent.State, Child.State?>
  let toChildAction: CasePath<Parent.Action, Child.Action>
  /// Where the operator was called: its reports point there.
  let location: IssueLocation
  /// The id of the child state when it is `Identifiable` (decided once): then its effects are
  /// tied to its id.
  let childIdentity: ((Child.State) -> AnyHashable?)?
  /// Whether the child is an alert or a confirmation dialog, which closes once answered.
  let isEphemeral: Bool

  init(
    parent: Parent, child: Child, toChildState: WritableKeyPath<Parent.State, Child.State?>,
    toChildAction: CasePath<Parent.Action, Child.Action>, location: IssueLocation
  ) {
    self.parent = parent
    self.child = LazyReducer(child)
    self.toChildState = toChildState
    self.toChildAction = toChildAction
    self.location = location
    self.childIdentity = (Child.State.self as? any Identifiable.Type).map {
      identity(of: Child.State.self, as: $0)
    }
    self.isEphemeral = Child.State.self is any EphemeralState.Type
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
        let effect = child.reduce(into: &childState, action: childAction)
        childEffect = effect.map(toChildAction.embed).scoped(toChild: effectID(of: childState))
        // NB: an alert or a dialog is answered by any of its actions, and closes: before the
        // parent runs, so that one the parent presents in answer (another alert) stays.
        if !isEphemeral { state[keyPath: toChildState] = childState }
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
