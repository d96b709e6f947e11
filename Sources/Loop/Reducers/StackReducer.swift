extension Reducer {
  /// Runs `destination` on the elements of a navigation stack (see ``StackState``), and pushes
  /// and pops them as ``StackAction``s say, before this reducer.
  ///
  /// ```swift
  /// Reduce { state, action in … }
  ///   .forEach(\.path, action: .case(Action.path)) { Path() }
  /// ```
  ///
  /// - `.path(.element(id:action:))` runs `destination` on that element, in place, then this
  ///   reducer. An action for an id the stack does not hold (often an effect that outlived its
  ///   element) is reported as a runtime issue; this reducer still runs.
  /// - `.path(.popFrom(id:))` runs this reducer with the elements still there, then pops the
  ///   element with that id and every element above it. An element pops itself with
  ///   `@Dependency(\.dismiss)`, which sends it.
  /// - `.path(.push(id:state:))` adds the state at the top under that id, then runs this reducer.
  /// - When elements leave the stack, however they leave, their running effects are cancelled:
  ///   at once when this reducer or the stack's actions remove them; on the next action through
  ///   this `forEach` when a reducer before or after it in the `body` does.
  ///
  /// - Parameters:
  ///   - toStackState: Where the stack lives.
  ///   - toStackAction: The action case that carries the stack's actions.
  ///   - destination: The reducer of an element.
  ///   - fileID: The file of the call, for reports.
  ///   - filePath: The file path of the call, for reports.
  ///   - line: The line of the call, for reports.
  ///   - column: The column of the call, for reports.
  /// - Returns: The combined reducer.
  public func forEach<DestinationState, DestinationAction, Destination: Reducer>(
    _ toStackState: WritableKeyPath<State, StackState<DestinationState>>,
    action toStackAction: CasePath<Action, StackAction<DestinationState, DestinationAction>>,
    @ReducerBuilder<DestinationState, DestinationAction> destination: () -> Destination,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> StackReducer<Self, Destination>
  where DestinationState == Destination.State, DestinationAction == Destination.Action {
    StackReducer(
      parent: self, destination: destination(), toStackState: toStackState,
      toStackAction: toStackAction,
      location: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }
}

/// The reducer `forEach` returns for a navigation stack: a parent with the screens it pushes.
///
/// ```swift
/// Reduce { state, action in … }
///   .forEach(\.path, action: .case(Action.path)) { Path() }
/// ```
public struct StackReducer<Parent: Reducer, Destination: Reducer>: Reducer {
  @usableFromInline let parent: Parent
  /// The destination, and its function once built (see `Scope`).
  ///
  /// NB: built the first time an element runs, so that a screen can hold a stack of screens
  /// like itself: building its body would otherwise build the body of the screens it pushes,
  /// and so on forever.
  @usableFromInline let destination: LazyReducer<Destination>
  @usableFromInline
  let toStackState: WritableKeyPath<Parent.State, StackState<Destination.State>>
  @usableFromInline
  let toStackAction: CasePath<Parent.Action, StackAction<Destination.State, Destination.Action>>
  /// Where `forEach` was called: its reports point there.
  @usableFromInline let location: IssueLocation

  @usableFromInline
  init(
    parent: Parent, destination: Destination,
    toStackState: WritableKeyPath<Parent.State, StackState<Destination.State>>,
    toStackAction: CasePath<Parent.Action, StackAction<Destination.State, Destination.Action>>,
    location: IssueLocation
  ) {
    self.parent = parent
    self.destination = LazyReducer(destination)
    self.toStackState = toStackState
    self.toStackAction = toStackAction
    self.location = location
  }

  /// Runs the element for its actions, pushes and pops, and runs the parent.
  ///
  /// - Parameters:
  ///   - state: The parent's state.
  ///   - action: The parent's action.
  /// - Returns: The element's effect merged with the parent's, and the cancellation of the
  ///   effects of the elements that left the stack.
  @inlinable
  public func reduce(
    into state: inout Parent.State, action: Parent.Action
  ) -> Effect<Parent.Action> {
    // NB: every path of `reduceStack` notes the set of ids it leaves as seen, when it last
    // projects the stack (`reduceParent`, `pop`): one projection fewer an action.
    let leftOutside = state[keyPath: toStackState].noteIDSetSeen()
    let effect = reduceStack(into: &state, action: action)
    guard leftOutside else { return effect }
    return effect.merge(with: cancelEffectsOfPoppedElements(state))
  }

  /// Runs the element for its actions, pushes and pops, and runs the parent.
  @inlinable
  func reduceStack(
    into state: inout Parent.State, action: Parent.Action
  ) -> Effect<Parent.Action> {
    switch toStackAction.extract(action) {
    case .element(let id, let destinationAction):
      let effect = state[keyPath: toStackState].modify(id: id) {
        destination.reduce(into: &$0, action: destinationAction)
      }
      var destinationEffect = Effect<Parent.Action>.none
      if let effect {
        if !effect.isNone { destinationEffect = elementEffect(effect, id: id) }
      } else {
        reportMissingElement(id: id, action: action)
      }
      return destinationEffect.merge(with: reduceParent(into: &state, action: action))
    case .popFrom(let id):
      return pop(from: id, state: &state, action: action)
    case .push(let id, let destinationState):
      return push(destinationState, id: id, state: &state, action: action)
    case nil:
      return reduceParent(into: &state, action: action)
    }
  }

  /// Runs the parent, and cancels the effects of the elements that left the stack meanwhile.
  @inlinable
  func reduceParent(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action>
  {
    // NB: read through a mutable projection: for a path of stored properties it is a plain
    // address, where a read-only key path projection goes through the runtime.
    let stamp = state[keyPath: toStackState].registerIDsReadingMembership()
    let parentEffect = parent.reduce(into: &state, action: action)
    guard state[keyPath: toStackState].noteIDSetSeenReadingMembership() != stamp else {
      return parentEffect
    }
    return parentEffect.merge(with: cancelEffectsOfPoppedElements(state))
  }

  /// An element's effect as the parent's: its actions wrapped, run in the element's own scope of
  /// cancellation (its cancel ids reach its own effects and its descendants', not a sibling's),
  /// cancelled when the element leaves, and `dismiss` popping the element.
  @usableFromInline
  func elementEffect(
    _ effect: Effect<Destination.Action>, id: StackElementID
  ) -> Effect<Parent.Action> {
    let embed = toStackAction.embed
    return
      effect
      .map { embed(.element(id: id, action: $0)) }
      .bindingDismiss { send in send.deliverUnlessCancelled(embed(.popFrom(id: id))) }
      .scoped(toChild: ElementEffectID(path: UncheckedSendable(toStackState), id: id))
  }

  @usableFromInline
  func pop(
    from id: StackElementID, state: inout Parent.State, action: Parent.Action
  ) -> Effect<Parent.Action> {
    guard state[keyPath: toStackState].contains(id: id) else {
      reportMissingPop(id: id, ids: state[keyPath: toStackState].ids)
      return reduceParent(into: &state, action: action)
    }
    state[keyPath: toStackState].registerIDsIfNeeded()
    let parentEffect = parent.reduce(into: &state, action: action)
    state[keyPath: toStackState].pop(from: id)
    state[keyPath: toStackState].noteIDSetSeen()
    return parentEffect.merge(with: cancelEffectsOfPoppedElements(state))
  }

  @usableFromInline
  func push(
    _ destinationState: Destination.State, id: StackElementID, state: inout Parent.State,
    action: Parent.Action
  ) -> Effect<Parent.Action> {
    if state[keyPath: toStackState].contains(id: id) {
      reportDuplicatePush(id: id, ids: state[keyPath: toStackState].ids)
    } else {
      if DependencyValues.current.context == .test,
        let next = DependencyValues.current.stackElementIDs?.nextGeneration, id.generation > next
      {
        reportUnexpectedPush(id: id, next: StackElementID(generation: next))
      }
      state[keyPath: toStackState].insert(destinationState, id: id)
    }
    return reduceParent(into: &state, action: action)
  }

  @usableFromInline
  func cancelEffectsOfPoppedElements(_ state: Parent.State) -> Effect<Parent.Action> {
    let remaining = Set(state[keyPath: toStackState].ids)
    return ElementEffectID.cancelEffects(
      ofElementsLeaving: toStackState, remaining: { remaining.contains($0) })
  }

  // MARK: - Reports

  @usableFromInline
  func reportMissingElement(id: StackElementID, action: Parent.Action) {
    report(
      """
      A 'forEach' at '\(location.fileIDAndLine)' received an action for a missing stack element \
      (id: \(id)):

          \(Diff.dump(action).indentingContinuationLines(by: 4))

      The element was popped before this 'forEach' ran (a reducer before it popped it), an \
      effect of the element outlived it, or the action was sent for an id the stack never held. \
      To fix, run 'forEach' after the reducers that pop elements, and send an element's actions \
      only while the stack holds it.
      """)
  }

  @usableFromInline
  func reportMissingPop(id: StackElementID, ids: [StackElementID]) {
    report(
      """
      A 'forEach' at '\(location.fileIDAndLine)' received a 'popFrom' action for a missing stack \
      element (id: \(id)); the stack holds \(Self.describe(ids)).

      To fix, pop only elements the stack holds: 'popFrom(id:)' with an id of 'ids'.
      """)
  }

  @usableFromInline
  func reportDuplicatePush(id: StackElementID, ids: [StackElementID]) {
    report(
      """
      A 'forEach' at '\(location.fileIDAndLine)' received a 'push' action for an id the stack \
      holds already (id: \(id)); the stack holds \(Self.describe(ids)). Nothing was pushed.

      To fix, push each element under a new id.
      """)
  }

  @usableFromInline
  func reportUnexpectedPush(id: StackElementID, next: StackElementID) {
    report(
      """
      A 'forEach' at '\(location.fileIDAndLine)' received a 'push' action with id \(id), but the \
      next id of this store is \(next).

      In a test, a store numbers stack elements 0, 1, 2… in the order they are added. To fix, \
      push under the next id, \(next).
      """)
  }

  /// Reports `message` at the call of `forEach`.
  @usableFromInline
  func report(_ message: String) {
    IssueReporting.current.reportIssue(message, at: location)
  }

  static func describe(_ ids: [StackElementID]) -> String {
    ids.isEmpty ? "no element" : "[" + ids.map(\.description).joined(separator: ", ") + "]"
  }
}
