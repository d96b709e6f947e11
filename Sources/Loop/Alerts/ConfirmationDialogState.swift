/// A confirmation dialog in a feature's state: like an ``AlertState``, a title, an optional
/// message and buttons, for a choice among several actions (a view shows it as an action sheet).
///
/// ```swift
/// state.dialog = ConfirmationDialogState(titleVisibility: .visible) {
///   TextState("Share 'Read'")
/// } actions: {
///   ButtonState(action: .copyLink) { TextState("Copy link") }
///   ButtonState(action: .export) { TextState("Export…") }
///   ButtonState(role: .cancel) { TextState("Cancel") }
/// }
/// ```
///
/// Present it as an alert: `@Presents var dialog: ConfirmationDialogState<Action.Dialog>?` and
/// `.ifLet(\.$dialog, action: .case(Action.dialog))`, with no child reducer.
public struct ConfirmationDialogState<Action> {
  /// The buttons, in the order shown.
  public var buttons: [ButtonState<Action>]
  /// The text under the title, if any.
  public var message: TextState?
  /// The title.
  public var title: TextState
  /// Whether a view shows the title.
  public var titleVisibility: ConfirmationDialogStateTitleVisibility

  /// Creates a dialog.
  ///
  /// - Parameters:
  ///   - titleVisibility: Whether a view shows the title.
  ///   - title: The title.
  ///   - actions: The buttons.
  ///   - message: The text under the title.
  public init(
    titleVisibility: ConfirmationDialogStateTitleVisibility,
    title: () -> TextState,
    @ButtonStateBuilder<Action> actions: () -> [ButtonState<Action>] = { [] },
    message: (() -> TextState)? = nil
  ) {
    self.init(
      title: title(), titleVisibility: titleVisibility, buttons: actions(), message: message?())
  }

  /// Creates a dialog whose title a view shows as it sees fit (`.automatic`).
  ///
  /// - Parameters:
  ///   - title: The title.
  ///   - actions: The buttons.
  ///   - message: The text under the title.
  public init(
    title: () -> TextState,
    @ButtonStateBuilder<Action> actions: () -> [ButtonState<Action>] = { [] },
    message: (() -> TextState)? = nil
  ) {
    self.init(titleVisibility: .automatic, title: title, actions: actions, message: message)
  }

  private init(
    title: TextState, titleVisibility: ConfirmationDialogStateTitleVisibility,
    buttons: [ButtonState<Action>], message: TextState?
  ) {
    self.title = title
    self.titleVisibility = titleVisibility
    self.buttons = buttons
    self.message = message
  }

  /// The same dialog, its buttons sending another type of action.
  ///
  /// - Parameter transform: Turns a button's action into the new one.
  /// - Returns: The dialog.
  public func map<NewAction>(
    _ transform: (Action?) -> NewAction?
  ) -> ConfirmationDialogState<NewAction> {
    ConfirmationDialogState<NewAction>(
      title: title, titleVisibility: titleVisibility, buttons: buttons.map { $0.map(transform) },
      message: message)
  }
}

/// Whether a view shows a ``ConfirmationDialogState``'s title.
public enum ConfirmationDialogStateTitleVisibility: Equatable, Hashable, Sendable {
  /// As the platform sees fit.
  case automatic
  /// Never.
  case hidden
  /// Always.
  case visible
}

extension ConfirmationDialogState: Equatable where Action: Equatable {}

extension ConfirmationDialogState: Hashable where Action: Hashable {}

extension ConfirmationDialogState: Sendable where Action: Sendable {}

extension ConfirmationDialogState: EphemeralState {}
