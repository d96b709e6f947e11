/// An alert in a feature's state: a title, an optional message, and the buttons the user
/// chooses from, each sending an action of the feature's.
///
/// Present it with `@Presents` and `ifLet`, which needs no child reducer: a button's action
/// reaches the parent as `.alert(.presented(action))`, and the alert closes.
///
/// ```swift
/// struct State: Equatable {
///   @Presents var alert: AlertState<Action.Alert>? = nil
/// }
/// enum Action: Equatable {
///   case alert(PresentationAction<Alert>)
///   case deleteSubmitted
///   enum Alert: Equatable { case confirmDeletion }
/// }
///
/// // In the body:
/// Reduce { state, action in
///   switch action {
///   case .deleteSubmitted:
///     state.alert = AlertState {
///       TextState("Delete 'Read'?")
///     } actions: {
///       ButtonState(role: .destructive, action: .confirmDeletion) { TextState("Delete") }
///       ButtonState(role: .cancel) { TextState("Keep") }
///     } message: {
///       TextState("This cannot be undone.")
///     }
///     return .none
///   case .alert(.presented(.confirmDeletion)):
///     // delete…
///     return .none
///   case .alert:
///     return .none
///   }
/// }
/// .ifLet(\.$alert, action: .case(Action.alert))
/// ```
///
/// A button without an action, or closing the alert any other way, sends `.alert(.dismiss)`.
/// The `loop` REPL asks an alert's question at its prompt.
public struct AlertState<Action> {
  /// The buttons, in the order shown.
  public var buttons: [ButtonState<Action>]
  /// The text under the title, if any.
  public var message: TextState?
  /// The question or the news.
  public var title: TextState

  /// Creates an alert.
  ///
  /// - Parameters:
  ///   - title: The title.
  ///   - actions: The buttons; none shows a single button that closes the alert.
  ///   - message: The text under the title.
  public init(
    title: () -> TextState,
    @ButtonStateBuilder<Action> actions: () -> [ButtonState<Action>] = { [] },
    message: (() -> TextState)? = nil
  ) {
    self.init(title: title(), buttons: actions(), message: message?())
  }

  private init(title: TextState, buttons: [ButtonState<Action>], message: TextState?) {
    self.title = title
    self.buttons = buttons
    self.message = message
  }

  /// The same alert, its buttons sending another type of action.
  ///
  /// - Parameter transform: Turns a button's action into the new one.
  /// - Returns: The alert.
  public func map<NewAction>(_ transform: (Action?) -> NewAction?) -> AlertState<NewAction> {
    AlertState<NewAction>(
      title: title, buttons: buttons.map { $0.map(transform) }, message: message)
  }
}

extension AlertState {
  /// A failure shown to the user: the error's sentence as the title, and the one button that
  /// closes the alert; it answers nothing.
  ///
  /// ```swift
  /// case .addResponse(.failure(let error)):
  ///   state.alert = .failure(error)
  /// ```
  ///
  /// - Parameter error: What failed, described for the user.
  /// - Returns: The alert.
  public static func failure(_ error: some Error & CustomStringConvertible) -> Self {
    AlertState { TextState(error.description) }
  }
}

extension AlertState: Equatable where Action: Equatable {}

extension AlertState: Hashable where Action: Hashable {}

extension AlertState: Sendable where Action: Sendable {}

extension AlertState: EphemeralState {}
