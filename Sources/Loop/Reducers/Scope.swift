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
///
/// When the parent's state is an enum of children (a screen's destinations, say), scope each
/// child to its case with a case path:
///
/// ```swift
/// struct Destination: Reducer {
///   enum State: Equatable { case editor(LinkEditor.State), detail(LinkDetail.State) }
///   enum Action { case editor(LinkEditor.Action), detail(LinkDetail.Action) }
///
///   var body: some ReducerOf<Self> {
///     Scope(state: .case(State.editor), action: .case(Action.editor)) { LinkEditor() }
///     Scope(state: .case(State.detail), action: .case(Action.detail)) { LinkDetail() }
///   }
/// }
/// ```
///
/// A child's action that arrives while the state is another case is reported as a runtime issue
/// and ignored.
public struct Scope<ParentState, ParentAction, Child: Reducer>: Reducer {
  @usableFromInline let toChildState: WritableKeyPath<ParentState, Child.State>
  @usableFromInline let toChildAction: CasePath<ParentAction, Child.Action>
  /// The child, whose `body` is built the first time one of its actions arrives (see
  /// `LazyReducer`).
  @usableFromInline let child: LazyReducer<Child>

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
    self.child = LazyReducer(child())
  }

  /// Scopes `child` to one case of the parent's enum state and the actions of the case
  /// `action`.
  ///
  /// - Parameters:
  ///   - state: The parent state's case that holds the child's state.
  ///   - action: The parent's action case that carries the child's actions.
  ///   - child: The child reducer.
  ///   - fileID: The file of the call, for reports.
  ///   - filePath: The file path of the call, for reports.
  ///   - line: The line of the call, for reports.
  ///   - column: The column of the call, for reports.
  public init<ChildState, ChildAction, CaseChild: Reducer>(
    state: CasePath<ParentState, ChildState>,
    action: CasePath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> CaseChild,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  )
  where
    Child == CaseScope<ParentState, CaseChild>, ChildState == CaseChild.State,
    ChildAction == CaseChild.Action
  {
    // NB: the case's reducer works on the whole state, so a scope over a property keeps its
    // stored key path and its fast path; every action of a root passes through those.
    self.toChildState = \.self
    self.toChildAction = action
    self.child = LazyReducer(
      CaseScope(
        toCaseState: state, child: child(),
        location: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)))
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
    let effect = child.reduce(into: &state[keyPath: toChildState], action: childAction)
    return effect.map(toChildAction.embed)
  }
}

/// The reducer a `Scope` over an enum case runs: the child, on the case of the state that holds
/// its state.
///
/// ```swift
/// Scope(state: .case(State.editor), action: .case(Action.editor)) { LinkEditor() }
/// ```
public struct CaseScope<Root, Case: Reducer>: Reducer {
  let toCaseState: CasePath<Root, Case.State>
  /// The child, built the first time it runs (see `Scope`).
  let child: LazyReducer<Case>

  init(toCaseState: CasePath<Root, Case.State>, child: Case, location: IssueLocation) {
    self.toCaseState = toCaseState
    self.child = LazyReducer(child)
    self.location = location
  }
  /// Where the operator was called: its reports point there.
  let location: IssueLocation

  /// Runs the child on its case of the state, or reports that the state is another case.
  ///
  /// - Parameters:
  ///   - state: The enum state.
  ///   - action: The child's action.
  /// - Returns: The child's effects.
  public func reduce(into state: inout Root, action: Case.Action) -> Effect<Case.Action> {
    guard var caseState = toCaseState.extract(state) else {
      IssueReporting.current.reportIssue(
        """
        A 'Scope' at '\(location.fileIDAndLine)' received a child action when the state was \
        another case ('.\(enumCaseName(of: state) ?? "\(state)")'):

            \(Diff.dump(action).indentingContinuationLines(by: 4))

        This is usually an effect that outlived its case, or an action sent after the state \
        changed case. To fix, send the child's actions only while the state is its case; \
        'ifCaseLet' cancels a case's effects when the state leaves it.
        """,
        at: location)
      return .none
    }
    let effect = child.reduce(into: &caseState, action: action)
    state = toCaseState.embed(caseState)
    return effect
  }
}
