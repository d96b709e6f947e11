extension Reducer {
  /// Runs `child` on one case of enum state while the state is that case, before this reducer.
  ///
  /// ```swift
  /// Reduce { state, action in … }
  ///   .ifCaseLet(.case(State.loggedIn), action: .case(Action.loggedIn)) { LoggedIn() }
  /// ```
  ///
  /// A child's action while the state is another case is a mistake (often an effect that
  /// outlived the case): it is reported as a runtime issue and ignored. When this reducer moves
  /// the state to another case (or replaces an `Identifiable` child with one of another id), the
  /// child's running effects are cancelled.
  ///
  /// - Parameters:
  ///   - toCaseState: The case of the state that holds the child's state.
  ///   - toCaseAction: The action case that carries the child's actions.
  ///   - child: The child reducer.
  ///   - fileID: The file of the call, for reports.
  ///   - filePath: The file path of the call, for reports.
  ///   - line: The line of the call, for reports.
  ///   - column: The column of the call, for reports.
  /// - Returns: The combined reducer.
  public func ifCaseLet<CaseState, CaseAction, Child: Reducer>(
    _ toCaseState: CasePath<State, CaseState>,
    action toCaseAction: CasePath<Action, CaseAction>,
    @ReducerBuilder<CaseState, CaseAction> then child: () -> Child,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> IfCaseLetReducer<Self, Child> where CaseState == Child.State, CaseAction == Child.Action {
    IfCaseLetReducer(
      parent: self, child: child(), toCaseState: toCaseState, toCaseAction: toCaseAction,
      fileID: fileID,
      location: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }
}

/// The reducer `ifCaseLet` returns: a parent whose enum state may hold a child.
///
/// ```swift
/// Reduce { state, action in … }
///   .ifCaseLet(.case(State.loggedIn), action: .case(Action.loggedIn)) { LoggedIn() }
/// ```
public struct IfCaseLetReducer<Parent: Reducer, Child: Reducer>: Reducer {
  let parent: Parent
  /// The child, built the first time it runs (see `Scope`).
  let child: LazyReducer<Child>
  let toCaseState: CasePath<Parent.State, Child.State>
  let toCaseAction: CasePath<Parent.Action, Child.Action>
  /// Where the operator was called: its reports point there.
  let location: IssueLocation
  /// The id of the child state when it is `Identifiable` (decided once).
  let childIdentity: ((Child.State) -> AnyHashable?)?
  /// Tells this reducer's effects from those of other `ifCaseLet`s.
  let caseID: CaseEffectID

  init(
    parent: Parent, child: Child, toCaseState: CasePath<Parent.State, Child.State>,
    toCaseAction: CasePath<Parent.Action, Child.Action>, fileID: StaticString,
    location: IssueLocation
  ) {
    self.parent = parent
    self.child = LazyReducer(child)
    self.toCaseState = toCaseState
    self.toCaseAction = toCaseAction
    self.location = location
    self.childIdentity = (Child.State.self as? any Identifiable.Type).map {
      identity(of: Child.State.self, as: $0)
    }
    // NB: a case path is two closures, which cannot be compared: the call's place and the
    // types name the child instead.
    self.caseID = CaseEffectID(
      file: UInt(bitPattern: fileID.utf8Start), line: UInt(location.line),
      types: ObjectIdentifier(Self.self),
      childID: nil)
  }

  /// Runs the child for its actions while the state is its case, then the parent.
  ///
  /// - Parameters:
  ///   - state: The parent's state.
  ///   - action: The parent's action.
  /// - Returns: The merged effects.
  public func reduce(
    into state: inout Parent.State, action: Parent.Action
  ) -> Effect<Parent.Action> {
    var childEffect = Effect<Parent.Action>.none
    if let childAction = toCaseAction.extract(action) {
      if var childState = toCaseState.extract(state) {
        let id = effectID(of: childState)
        let effect = child.reduce(into: &childState, action: childAction)
        childEffect = effect.map(toCaseAction.embed).scoped(toChild: id)
        state = toCaseState.embed(childState)
      } else {
        IssueReporting.current.reportIssue(
          """
          An 'ifCaseLet' at '\(location.fileIDAndLine)' received a child action when the state was \
          another case ('.\(enumCaseName(of: state) ?? "\(state)")'):

              \(Diff.dump(action).indentingContinuationLines(by: 4))

          This is usually an effect that outlived its case, or an action sent after the state \
          changed case. To fix, send the child's actions only while the state is its case.
          """,
          at: location)
      }
    }
    let before = toCaseState.extract(state).map(effectID(of:))
    let parentEffect = parent.reduce(into: &state, action: action)
    if let before, before != toCaseState.extract(state).map(effectID(of:)) {
      return .merge(childEffect, parentEffect, .cancelChild(before))
    }
    return childEffect.merge(with: parentEffect)
  }

  /// The id the effects of `childState` run under: this reducer, and the child's id when it is
  /// `Identifiable`.
  private func effectID(of childState: Child.State) -> CaseEffectID {
    var id = caseID
    id.childID = childIdentity?(childState) ?? nil
    return id
  }
}

struct CaseEffectID: Hashable, @unchecked Sendable {
  /// The address of the call's `#fileID`, which is static.
  let file: UInt
  let line: UInt
  let types: ObjectIdentifier
  // NB: ids are the child state's own.
  var childID: AnyHashable?
}
