import Synchronization

extension Reducer {
  /// Runs `destination` on presented child state (see `Presents`) while it is present, before
  /// this reducer, and closes it on `PresentationAction.dismiss`.
  ///
  /// ```swift
  /// Reduce { state, action in … }
  ///   .ifLet(\.$editor, action: .case(Action.editor)) { LinkEditor() }
  /// ```
  ///
  /// - The child's actions (`.editor(.presented(…))`) run the child, then this reducer.
  /// - `.editor(.dismiss)`, which the child sends itself with `@Dependency(\.dismiss)`, runs this
  ///   reducer with the child still present, then sets the child to `nil`.
  /// - An alert or a confirmation dialog (``AlertState``, ``ConfirmationDialogState``, or an enum
  ///   of destinations whose presented case is one) closes once one of its buttons' actions has
  ///   run this reducer, unless this reducer presented a child in its place (set the property,
  ///   say to another alert): that child stays.
  /// - When the child goes away (dismissed, set to `nil`, or replaced by another case of an enum
  ///   of destinations or by a child of another id), its running effects are cancelled.
  /// - An action for the child while nothing is presented (often an effect that outlived it) is
  ///   reported as a runtime issue and ignored.
  ///
  /// - Parameters:
  ///   - toPresentationState: The projection of the `@Presents` property, such as `\.$editor`.
  ///   - toPresentationAction: The action case that carries the child's presentation actions.
  ///   - destination: The child reducer.
  ///   - fileID: The file of the call, for reports.
  ///   - filePath: The file path of the call, for reports.
  ///   - line: The line of the call, for reports.
  ///   - column: The column of the call, for reports.
  /// - Returns: The combined reducer.
  public func ifLet<DestinationState, DestinationAction, Destination: Reducer>(
    _ toPresentationState: WritableKeyPath<State, Presents<DestinationState>>,
    action toPresentationAction: CasePath<Action, PresentationAction<DestinationAction>>,
    @ReducerBuilder<DestinationState, DestinationAction> then destination: () -> Destination,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> PresentationReducer<Self, Destination>
  where DestinationState == Destination.State, DestinationAction == Destination.Action {
    PresentationReducer(
      parent: self, destination: destination(), toPresentationState: toPresentationState,
      toPresentationAction: toPresentationAction,
      location: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }
}

extension Reducer {
  /// Presents an alert (see ``AlertState``): a button's action runs this reducer as
  /// `.alert(.presented(action))`, then the alert closes.
  ///
  /// ```swift
  /// Reduce { state, action in … }
  ///   .ifLet(\.$alert, action: .case(Action.alert))
  /// ```
  ///
  /// An alert has no reducer of its own; `.alert(.dismiss)` closes it without an answer.
  ///
  /// - Parameters:
  ///   - toPresentationState: The projection of the `@Presents` property, such as `\.$alert`.
  ///   - toPresentationAction: The action case that carries the alert's actions.
  ///   - fileID: The file of the call, for reports.
  ///   - filePath: The file path of the call, for reports.
  ///   - line: The line of the call, for reports.
  ///   - column: The column of the call, for reports.
  /// - Returns: The combined reducer.
  public func ifLet<ButtonAction>(
    _ toPresentationState: WritableKeyPath<State, Presents<AlertState<ButtonAction>>>,
    action toPresentationAction: CasePath<Action, PresentationAction<ButtonAction>>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> PresentationReducer<Self, EmptyReducer<AlertState<ButtonAction>, ButtonAction>> {
    ifLet(
      toPresentationState, action: toPresentationAction, then: {}, fileID: fileID,
      filePath: filePath, line: line, column: column)
  }

  /// Presents a confirmation dialog (see ``ConfirmationDialogState``): a button's action runs
  /// this reducer as `.dialog(.presented(action))`, then the dialog closes.
  ///
  /// ```swift
  /// Reduce { state, action in … }
  ///   .ifLet(\.$dialog, action: .case(Action.dialog))
  /// ```
  ///
  /// - Parameters:
  ///   - toPresentationState: The projection of the `@Presents` property, such as `\.$dialog`.
  ///   - toPresentationAction: The action case that carries the dialog's actions.
  ///   - fileID: The file of the call, for reports.
  ///   - filePath: The file path of the call, for reports.
  ///   - line: The line of the call, for reports.
  ///   - column: The column of the call, for reports.
  /// - Returns: The combined reducer.
  public func ifLet<ButtonAction>(
    _ toPresentationState: WritableKeyPath<State, Presents<ConfirmationDialogState<ButtonAction>>>,
    action toPresentationAction: CasePath<Action, PresentationAction<ButtonAction>>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> PresentationReducer<Self, EmptyReducer<ConfirmationDialogState<ButtonAction>, ButtonAction>>
  {
    ifLet(
      toPresentationState, action: toPresentationAction, then: {}, fileID: fileID,
      filePath: filePath, line: line, column: column)
  }
}

/// The reducer `ifLet(_:action:then:)` returns for presented state: a parent with a child it
/// presents and dismisses.
///
/// ```swift
/// Reduce { state, action in … }
///   .ifLet(\.$destination, action: .case(Action.destination)) { Destination() }
/// ```
public struct PresentationReducer<Parent: Reducer, Destination: Reducer>: Reducer {
  @usableFromInline let parent: Parent
  /// The destination, and its function once built (see `Scope`).
  @usableFromInline let destination: LazyReducer<Destination>
  @usableFromInline let toPresentationState:
    WritableKeyPath<Parent.State, Presents<Destination.State>>
  @usableFromInline let toPresentationAction:
    CasePath<Parent.Action, PresentationAction<Destination.Action>>
  /// Where the operator was called: its reports point there.
  let location: IssueLocation
  /// The id of the child state when it is `Identifiable` (decided once).
  @usableFromInline let destinationIdentity: ((Destination.State) -> AnyHashable?)?
  /// Which actions answer an alert or a dialog, which then closes.
  let ephemeral: EphemeralDismissal<Destination.State, Destination.Action>

  init(
    parent: Parent, destination: Destination,
    toPresentationState: WritableKeyPath<Parent.State, Presents<Destination.State>>,
    toPresentationAction: CasePath<Parent.Action, PresentationAction<Destination.Action>>,
    location: IssueLocation
  ) {
    self.parent = parent
    self.destination = LazyReducer(destination)
    self.toPresentationState = toPresentationState
    self.toPresentationAction = toPresentationAction
    self.location = location
    self.destinationIdentity = (Destination.State.self as? any Identifiable.Type).map {
      identity(of: Destination.State.self, as: $0)
    }
    self.ephemeral = EphemeralDismissal()
  }

  /// Runs the child for its actions, then the parent; closes the child on `.dismiss`.
  ///
  /// - Parameters:
  ///   - state: The parent's state.
  ///   - action: The parent's action.
  /// - Returns: The merged effects.
  // NB: inlinable, as `Scope` and `StackReducer` are, so that a feature's module runs it
  // specialized for its own types: this runs for every action the parent sees, and
  // unspecialized each call looked up the generic metadata of the optionals, effects and key
  // paths it touches. What only a presentation action does stays behind `reducePresented`.
  @inlinable
  public func reduce(
    into state: inout Parent.State, action: Parent.Action
  ) -> Effect<Parent.Action> {
    var destinationEffect = Effect<Parent.Action>.none
    /// The child that ran this action, whose effects just started.
    var ranChild: PresentationEffectID?
    /// The child dismissed by this action, before the parent saw it.
    var dismissed: PresentationEffectID?
    /// The count of children set before the parent ran, when this action dismisses one.
    var generation: UInt?
    if let presentationAction = toPresentationAction.extract(action) {
      reducePresented(
        presentationAction, action, state: &state, destinationEffect: &destinationEffect,
        ranChild: &ranChild, dismissed: &dismissed)
      // NB: only for an answer to an alert or a dialog: a parent that changes a child it is
      // told is dismissed (through a computed property's setter, say) does not present anew.
      if dismissed != nil, case .presented = presentationAction {
        generation = state[keyPath: toPresentationState].generation
      }
    }
    let parentEffect = parent.reduce(into: &state, action: action)
    // NB: read, and written back only when something changes: `\.$editor` is a computed key
    // path, whose mutable projection is a getter, a writeback buffer and a setter, copying the
    // wrapper and, for some parents, their state; this runs for every action the parent sees.
    let (recorded, presented) = presentation(state[keyPath: toPresentationState])
    var after = presented
    // NB: a parent that presented a child in answer (another alert, say) keeps it, though an
    // alert without identity has the same id as the one it replaces.
    if let dismissed, presented == dismissed,
      generation == nil || state[keyPath: toPresentationState].generation == generation
    {
      after = close(&state[keyPath: toPresentationState], recorded: recorded, ranChild: ranChild)
    } else if recorded != after || (ranChild != nil && ranChild != after) {
      state[keyPath: toPresentationState].presentedID = after
    }
    guard recorded != after || (ranChild != nil && ranChild != after) else {
      return destinationEffect.merge(with: parentEffect)
    }
    return cancelling(
      destinationEffect, parentEffect, recorded: recorded, after: after, ranChild: ranChild)
  }

  /// Runs the child for a presentation action, or notes the child it dismisses.
  ///
  /// - Parameters:
  ///   - presentationAction: The presentation action.
  ///   - action: The parent's action that carried it.
  ///   - state: The parent's state.
  ///   - destinationEffect: Set to the child's effect, as the parent's.
  ///   - ranChild: Set to the child that ran the action.
  ///   - dismissed: Set to the child the action dismissed.
  @usableFromInline
  func reducePresented(
    _ presentationAction: PresentationAction<Destination.Action>, _ action: Parent.Action,
    state: inout Parent.State, destinationEffect: inout Effect<Parent.Action>,
    ranChild: inout PresentationEffectID?, dismissed: inout PresentationEffectID?
  ) {
    switch presentationAction {
    case .presented(let destinationAction):
      // NB: moved out and back so the child state is mutated without a copy.
      if var destinationState = state[keyPath: toPresentationState].wrappedValue.take() {
        let id = effectID(of: destinationState)
        // NB: an alert's button was chosen: the alert closes as if dismissed.
        if ephemeral.isAnswer(destinationAction, to: destinationState) { dismissed = id }
        let embed = toPresentationAction.embed
        let effect = destination.reduce(into: &destinationState, action: destinationAction)
        destinationEffect =
          effect
          .map { embed(.presented($0)) }
          .bindingDismiss { send in send.deliverUnlessCancelled(embed(.dismiss)) }
          .scoped(toChild: id)
        state[keyPath: toPresentationState].wrappedValue = destinationState
        ranChild = id
      } else {
        reportAbsentDestination(action)
      }
    case .dismiss:
      dismissed = presentedEffectID(state[keyPath: toPresentationState])
      if dismissed == nil { reportAbsentDestination(action) }
    }
  }

  /// The child's and the parent's effects, with the cancellation of the effects of the children
  /// no longer presented.
  ///
  /// - Parameters:
  ///   - destinationEffect: The child's effect, as the parent's.
  ///   - parentEffect: The parent's effect.
  ///   - recorded: The child recorded as presented before the action.
  ///   - after: The child presented after it.
  ///   - ranChild: The child that ran the action, if any.
  /// - Returns: The merged effects.
  @usableFromInline
  func cancelling(
    _ destinationEffect: Effect<Parent.Action>, _ parentEffect: Effect<Parent.Action>,
    recorded: PresentationEffectID?, after: PresentationEffectID?,
    ranChild: PresentationEffectID?
  ) -> Effect<Parent.Action> {
    var cancellations: [Effect<Parent.Action>] = []
    if let recorded, recorded != after { cancellations.append(.cancelChild(recorded)) }
    if let ranChild, ranChild != after, ranChild != recorded {
      cancellations.append(.cancelChild(ranChild))
    }
    return .merge([destinationEffect, parentEffect] + cancellations)
  }

  /// The child recorded as presented before the action (`Presents.presentedID`), and the one
  /// presented now.
  ///
  /// - Parameter presented: The presentation, after the parent ran.
  /// - Returns: The recorded child and the presented one.
  @inlinable
  func presentation(
    _ presented: Presents<Destination.State>
  ) -> (recorded: PresentationEffectID?, presented: PresentationEffectID?) {
    (presented.presentedID, presentedEffectID(presented))
  }

  /// Closes the child the action dismissed (the parent did not present another in its place),
  /// and records that nothing is presented.
  ///
  /// - Parameters:
  ///   - presented: The presentation, after the parent ran.
  ///   - recorded: The child recorded as presented before the action.
  ///   - ranChild: The child that ran the action, if any.
  /// - Returns: The child presented now: none.
  @inlinable
  func close(
    _ presented: inout Presents<Destination.State>, recorded: PresentationEffectID?,
    ranChild: PresentationEffectID?
  ) -> PresentationEffectID? {
    presented.wrappedValue = nil
    // NB: the presented child is remembered in the wrapper, so a child set to `nil` or replaced
    // anywhere (a sibling reducer, say) has its effects cancelled on the next action here.
    if recorded != nil || ranChild != nil { presented.presentedID = nil }
    return nil
  }

  /// The id the effects of the presented child run under; `nil` when nothing is presented.
  @inlinable
  func presentedEffectID(
    _ presented: Presents<Destination.State>
  ) -> PresentationEffectID? {
    if case .none = presented.wrappedValue { return nil }
    // NB: a parent runs this for every action; the presented state is copied only when its id
    // or its case is needed.
    if destinationIdentity == nil, isKnownNotEnum(Destination.State.self) {
      return PresentationEffectID(
        path: UncheckedSendable(toPresentationState), caseName: nil, childID: nil)
    }
    return presented.wrappedValue.map(effectID(of:))
  }

  /// The id the effects of `destinationState` run under: the child's place, its case when it is
  /// an enum of destinations, and its id when it, or its case's payload, is `Identifiable`.
  @usableFromInline
  func effectID(of destinationState: Destination.State) -> PresentationEffectID {
    let enumCase = presentedCase(of: destinationState)
    return PresentationEffectID(
      path: UncheckedSendable(toPresentationState), caseName: enumCase?.name,
      childID: destinationIdentity?(destinationState) ?? enumCase?.payloadID)
  }

  @usableFromInline
  func reportAbsentDestination(_ action: Parent.Action) {
    IssueReporting.current.reportIssue(
      """
      An 'ifLet' at '\(location.fileIDAndLine)' received a presentation action when nothing was \
      presented:

          \(Diff.dump(action).indentingContinuationLines(by: 4))

      This is usually an effect that outlived its child, or an action sent after the child \
      was dismissed. To fix, send the child's actions only while it is presented; its effects \
      are cancelled when it is dismissed.
      """,
      at: location)
  }
}

/// The name of `value`'s case when it is an enum, else `nil`.
func enumCaseName(of value: Any) -> String? {
  enumCase(of: value)?.name
}

/// The name of `value`'s case when it is an enum, else `nil`, and the id of its payload when the
/// payload is `Identifiable`.
func enumCase(of value: Any) -> (name: String, payloadID: AnyHashable?)? {
  let type = ObjectIdentifier(Swift.type(of: value))
  if enumTypes.withLock({ $0[type] }) == false { return nil }
  let mirror = Mirror(reflecting: value)
  let isEnum = mirror.displayStyle == .enum
  enumTypes.withLock { $0[type] = isEnum }
  guard isEnum else { return nil }
  guard let payload = mirror.children.first else { return (String(describing: value), nil) }
  return (payload.label ?? String(describing: value), identifiableID(of: payload.value))
}

/// `enumCase(of:)` for a value whose type is known: read through the enum's cached layout (its
/// tag, the case's name, the payload in place), not `Mirror`.
///
/// NB: a parent runs it for every action while a child is presented (an alert stays up across
/// many); reflecting the presented state took microseconds each time, a tenth of an exploration
/// of the ledger, which presents its alerts often. Only a payload that is `Identifiable` is read.
func presentedCase<Value>(of value: Value) -> (name: String, payloadID: AnyHashable?)? {
  guard let layout = EnumLayout.of(Value.self) else { return enumCase(of: value) }
  return withUnsafePointer(to: value) { root in
    let tag = layout.tag(of: root)
    guard layout.cases.indices.contains(tag), let name = layout.cases[tag].name else {
      return enumCase(of: value)
    }
    let `case` = layout.cases[tag]
    guard let payload = `case`.payload, `case`.hasGenericRepresentation,
      isIdentifiable(payload)
    else { return (name, nil) }
    func load<Payload>(_: Payload.Type) -> Any {
      loadPayload(
        Payload.self, of: root, isProjected: `case`.isProjected, isIndirect: `case`.isIndirect,
        in: layout)
    }
    return (name, identifiableID(of: load(payload)))
  }
}

/// Whether values of `type` are `Identifiable`, asked of the runtime once per type.
private func isIdentifiable(_ type: Any.Type) -> Bool {
  let key = ObjectIdentifier(type)
  if let known = identifiableTypes.withLock({ $0[key] }) { return known }
  let isIdentifiable = type is any Identifiable.Type
  identifiableTypes.withLock { $0[key] = isIdentifiable }
  return isIdentifiable
}

/// Whether each payload type ``presentedCase(of:)`` has read is `Identifiable`.
private let identifiableTypes = Mutex<[ObjectIdentifier: Bool]>([:])

/// The id of `value` when it is `Identifiable`.
private func identifiableID(of value: Any) -> AnyHashable? {
  func id(of identifiable: some Identifiable) -> AnyHashable { AnyHashable(identifiable.id) }
  guard let identifiable = value as? any Identifiable else { return nil }
  return id(of: identifiable)
}

/// Whether values of `type` have been seen by ``enumCaseName(of:)`` not to be enums.
///
/// NB: reflecting a value costs microseconds; each type is reflected once to learn it.
@usableFromInline
func isKnownNotEnum<T>(_ type: T.Type) -> Bool {
  enumTypes.withLock { $0[ObjectIdentifier(type)] } == false
}

/// Whether each type ``enumCaseName(of:)`` has seen is an enum.
private let enumTypes = Mutex<[ObjectIdentifier: Bool]>([:])

/// The place and identity of a presented child, which its effects run under.
@usableFromInline
package struct PresentationEffectID: Hashable, @unchecked Sendable {
  // NB: key paths are immutable and only compared here; ids are the child state's own.
  let path: AnyKeyPath
  let caseName: String?
  let childID: AnyHashable?

  @usableFromInline
  init<Root, Value>(
    path: UncheckedSendable<WritableKeyPath<Root, Value>>, caseName: String?,
    childID: AnyHashable?
  ) {
    self.path = path.value
    self.caseName = caseName
    self.childID = childID
  }
}

extension Effect {
  /// This effect with the `dismiss` dependency closing the presented child while its work runs:
  /// `dismiss` receives the effect's `Send` and sends the child's `.dismiss` with it.
  func bindingDismiss(
    _ dismiss: @escaping @MainActor @Sendable (Send<Action>) -> Void
  ) -> Self {
    guard let storage else { return self }
    switch storage.operation {
    case .none, .send, .cancel, .cancelChild, .cancelChildren:
      return self
    case .run(let setup, let operation):
      return Self(
        operation: .run(setup) { send in
          await withEffectTaskLocal(DismissEffect.$presented, DismissEffect { dismiss(send) }) {
            await operation(send)
          }
        })
    case .merge(let effects):
      return Self(operation: .merge(effects.map { $0.bindingDismiss(dismiss) }))
    case .concatenate(let effects):
      return Self(operation: .concatenate(effects.map { $0.bindingDismiss(dismiss) }))
    case .cancellable(let effect, let id, let cancelInFlight):
      return Self(
        operation: .cancellable(
          effect.bindingDismiss(dismiss), id: id, cancelInFlight: cancelInFlight))
    case .child(let effect, let id):
      return Self(operation: .child(effect.bindingDismiss(dismiss), id: id))
    }
  }
}
