/// An action for a presented child (see `Presents`): one of the child's own, or the request to
/// close it.
///
/// ```swift
/// enum Action {
///   case editor(PresentationAction<LinkEditor.Action>)
/// }
///
/// store.send(.editor(.presented(.saveSubmitted)))
/// store.send(.editor(.dismiss))  // closes the editor and cancels its effects
/// ```
public enum PresentationAction<Action> {
  /// Close the child: `ifLet` lets the parent see this action, then sets the child's state to
  /// `nil` and cancels its effects. A child sends it with `@Dependency(\.dismiss)`.
  case dismiss
  /// One of the child's actions.
  ///
  /// NB: `indirect`, so a feature can present itself: its `Action` holds a
  /// `PresentationAction<Action>` without being marked `indirect`, as in TCA.
  indirect case presented(Action)
}

extension PresentationAction: Equatable where Action: Equatable {}

extension PresentationAction: Hashable where Action: Hashable {}

extension PresentationAction: Sendable where Action: Sendable {}
