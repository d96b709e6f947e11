/// An action for one element of a collection, carrying the element's id.
///
/// A parent holds `case rows(IdentifiedActionOf<Row>)` and routes it with `forEach`.
public enum IdentifiedAction<ID: Hashable & Sendable, Action> {
  /// The element with `id` received `action`.
  case element(id: ID, action: Action)

  /// The element's id.
  public var id: ID {
    switch self {
    case .element(let id, _): id
    }
  }

  /// The element's action.
  public var action: Action {
    switch self {
    case .element(_, let action): action
    }
  }
}

/// The `IdentifiedAction` for the elements a reducer `R` handles.
public typealias IdentifiedActionOf<R: Reducer> = IdentifiedAction<R.State.ID, R.Action>
where R.State: Identifiable, R.State.ID: Sendable

extension IdentifiedAction: Equatable where Action: Equatable {}
extension IdentifiedAction: Hashable where Action: Hashable {}
extension IdentifiedAction: Sendable where Action: Sendable {}

extension Reducer {
  /// Runs `element` on the element of an `IdentifiedArray` that an element action names, before
  /// this reducer.
  ///
  /// ```swift
  /// Reduce { state, action in … }
  ///   .forEach(\.rows, action: .case(Action.rows)) { Row() }
  /// ```
  ///
  /// The element is found by id in O(1) and changed in place; the array is never copied. An
  /// action for an id that is no longer in the array (often an effect that outlived its row) is
  /// reported as a runtime issue and ignored, never a crash. When this reducer removes elements,
  /// their running effects are cancelled.
  ///
  /// - Parameters:
  ///   - toElements: Where the elements live.
  ///   - toElementAction: The action case that carries element actions.
  ///   - element: The element reducer.
  ///   - fileID: The file of the call, for reports.
  ///   - filePath: The file path of the call, for reports.
  ///   - line: The line of the call, for reports.
  ///   - column: The column of the call, for reports.
  /// - Returns: The combined reducer.
  public func forEach<
    ElementState, ElementAction, ElementID: Hashable & Sendable, Element: Reducer
  >(
    _ toElements: WritableKeyPath<State, IdentifiedArray<ElementID, ElementState>>,
    action toElementAction: CasePath<Action, IdentifiedAction<ElementID, ElementAction>>,
    @ReducerBuilder<ElementState, ElementAction> element: () -> Element,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> ForEachReducer<Self, ElementID, Element>
  where ElementState == Element.State, ElementAction == Element.Action {
    ForEachReducer(
      parent: self, element: element(), toElements: toElements,
      toElementAction: toElementAction,
      location: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }
}

/// The reducer `forEach` returns: a parent with a collection of elements.
public struct ForEachReducer<Parent: Reducer, ElementID: Hashable & Sendable, Element: Reducer>:
  Reducer
where Element.State: Identifiable, Element.State.ID == ElementID {
  @usableFromInline let parent: Parent
  /// The element reducer, built the first time an element action arrives (see `Scope`), so a
  /// row can hold rows like itself (a tree).
  @usableFromInline let element: LazyReducer<Element>
  @usableFromInline
  let toElements: WritableKeyPath<Parent.State, IdentifiedArray<ElementID, Element.State>>
  @usableFromInline
  let toElementAction: CasePath<Parent.Action, IdentifiedAction<ElementID, Element.Action>>
  /// Where `forEach` was called: its reports point there.
  @usableFromInline let location: IssueLocation

  @usableFromInline
  init(
    parent: Parent, element: Element,
    toElements: WritableKeyPath<Parent.State, IdentifiedArray<ElementID, Element.State>>,
    toElementAction: CasePath<Parent.Action, IdentifiedAction<ElementID, Element.Action>>,
    location: IssueLocation
  ) {
    self.parent = parent
    self.element = LazyReducer(element)
    self.toElements = toElements
    self.toElementAction = toElementAction
    self.location = location
  }

  /// Runs the element reducer for element actions, then the parent.
  ///
  /// - Parameters:
  ///   - state: The parent's state.
  ///   - action: The parent's action.
  /// - Returns: The element's effect merged with the parent's, and the cancellation of the
  ///   effects of the elements the parent removed.
  @inlinable
  public func reduce(
    into state: inout Parent.State, action: Parent.Action
  ) -> Effect<Parent.Action> {
    var elementEffect = Effect<Parent.Action>.none
    if case .element(let id, let elementAction) = toElementAction.extract(action) {
      let embed = toElementAction.embed
      let effect = state[keyPath: toElements].modify(id: id) {
        element.reduce(into: &$0, action: elementAction)
      }
      if let effect {
        if !effect.isNone {
          elementEffect = effect.map { embed(.element(id: id, action: $0)) }
            .scoped(toChild: ElementEffectID(path: UncheckedSendable(toElements), id: id))
        }
      } else {
        reportMissingElement(id: id, action: action)
      }
    }
    // NB: read through a mutable projection: for a path of stored properties it is a plain
    // address, where a read-only key path projection goes through the runtime.
    let stamp = membershipStamp(of: &state[keyPath: toElements])
    let parentEffect = parent.reduce(into: &state, action: action)
    guard membershipStamp(of: &state[keyPath: toElements]) != stamp else {
      return elementEffect.merge(with: parentEffect)
    }
    return .merge(elementEffect, parentEffect, cancelEffectsOfRemovedElements(state))
  }

  @inlinable
  func membershipStamp(
    of elements: inout IdentifiedArray<ElementID, Element.State>
  ) -> MembershipStamp {
    elements.membershipStamp
  }

  @usableFromInline
  func reportMissingElement(id: ElementID, action: Parent.Action) {
    IssueReporting.current.reportIssue(
      """
      A 'forEach' at '\(location.fileIDAndLine)' received an action for a missing \
      element (id: \(id)):

          \(Diff.dump(action).indentingContinuationLines(by: 4))

      This is usually an effect that outlived its element, or an action sent after the \
      element was removed. To fix, send element actions only for elements in the array.
      """,
      at: location)
  }

  @usableFromInline
  func cancelEffectsOfRemovedElements(_ state: Parent.State) -> Effect<Parent.Action> {
    let remaining = state[keyPath: toElements]
    return ElementEffectID.cancelEffects(
      ofElementsLeaving: toElements, remaining: { remaining.contains(id: $0) })
  }
}
