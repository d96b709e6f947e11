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
  /// Where the child's state lives: a property, or a case of an enum.
  @usableFromInline
  enum ChildState {
    case keyPath(WritableKeyPath<ParentState, Child.State>)
    case casePath(CasePath<ParentState, Child.State>, fileID: StaticString, line: UInt)
  }

  @usableFromInline let toChildState: ChildState
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
    self.toChildState = .keyPath(state)
    self.toChildAction = action
    self.child = child()
  }

  /// Scopes `child` to one case of the parent's enum state and the actions of the case
  /// `action`.
  ///
  /// - Parameters:
  ///   - state: The parent state's case that holds the child's state.
  ///   - action: The parent's action case that carries the child's actions.
  ///   - child: The child reducer.
  ///   - fileID: The file of the call, for reports.
  ///   - line: The line of the call, for reports.
  public init<ChildState, ChildAction>(
    state: CasePath<ParentState, ChildState>,
    action: CasePath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.toChildState = .casePath(state, fileID: fileID, line: line)
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
    switch toChildState {
    case .keyPath(let toChildState):
      return child.reduce(into: &state[keyPath: toChildState], action: childAction)
        .map(toChildAction.embed)
    case .casePath(let toChildState, let fileID, let line):
      guard var childState = toChildState.extract(state) else {
        reportOtherCase(state: state, action: action, fileID: fileID, line: line)
        return .none
      }
      let effect = child.reduce(into: &childState, action: childAction)
      state = toChildState.embed(childState)
      return effect.map(toChildAction.embed)
    }
  }

  @usableFromInline
  func reportOtherCase(
    state: ParentState, action: ParentAction, fileID: StaticString, line: UInt
  ) {
    reportIssue(
      """
      A 'Scope' at '\(fileID):\(line)' received a child action when the state was another case \
      ('.\(enumCaseName(of: state) ?? "\(state)")'):

          \(Diff.dump(action).indentingContinuationLines(by: 4))

      This is usually an effect that outlived its case, or an action sent after the state \
      changed case. To fix, send the child's actions only while the state is its case; \
      'ifCaseLet' cancels a case's effects when the state leaves it.
      """,
      fileID: fileID, line: line)
  }
}
