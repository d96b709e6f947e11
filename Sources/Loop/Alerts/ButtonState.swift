/// A button of an alert or a confirmation dialog, in a feature's state: its label, its role, and
/// the action it sends.
///
/// ```swift
/// ButtonState(role: .destructive, action: .confirmDeletion) {
///   TextState("Delete")
/// }
/// ButtonState(role: .cancel) {
///   TextState("Keep")
/// }
/// ```
///
/// A button without an action (as the cancel button above) only closes what presents it.
public struct ButtonState<Action> {
  /// What the button sends when chosen.
  public let action: ButtonStateAction<Action>
  /// The button's text.
  public let label: TextState
  /// What kind of button it is, if it is one of the kinds a view shows apart.
  public let role: ButtonStateRole?

  /// A button that sends `action` (or nothing, by default) when chosen.
  ///
  /// - Parameters:
  ///   - role: The button's role.
  ///   - action: What it sends.
  ///   - label: Its text.
  public init(
    role: ButtonStateRole? = nil,
    action: ButtonStateAction<Action> = .send(nil),
    label: () -> TextState
  ) {
    self.role = role
    self.action = action
    self.label = label()
  }

  /// A button that sends `action` when chosen.
  ///
  /// - Parameters:
  ///   - role: The button's role.
  ///   - action: What it sends.
  ///   - label: Its text.
  public init(role: ButtonStateRole? = nil, action: Action, label: () -> TextState) {
    self.init(role: role, action: .send(action), label: label)
  }

  /// Calls `perform` with the button's action (`nil` for a button that sends none), as a view does
  /// when the button is chosen.
  ///
  /// - Parameter perform: Sends the action: `{ store.send(.alert($0.map { .presented($0) } ?? .dismiss)) }`.
  public func withAction(_ perform: (Action?) -> Void) {
    perform(action.action)
  }

  /// The same button sending another type of action.
  ///
  /// - Parameter transform: Turns the button's action into the new one.
  /// - Returns: The button.
  public func map<NewAction>(_ transform: (Action?) -> NewAction?) -> ButtonState<NewAction> {
    ButtonState<NewAction>(role: role, action: action.map(transform)) { label }
  }
}

/// What a ``ButtonState`` sends when it is chosen.
public struct ButtonStateAction<Action> {
  /// The action, or `nil` for a button that only closes what presents it.
  public let action: Action?

  private init(action: Action?) {
    self.action = action
  }

  /// Sends `action`, or nothing for `nil`.
  ///
  /// - Parameter action: The action.
  /// - Returns: The button's action.
  public static func send(_ action: Action?) -> Self {
    Self(action: action)
  }

  /// The same, sending another type of action.
  ///
  /// - Parameter transform: Turns the action into the new one.
  /// - Returns: The button's action.
  public func map<NewAction>(
    _ transform: (Action?) -> NewAction?
  ) -> ButtonStateAction<NewAction> {
    .send(transform(action))
  }
}

/// The kind of a ``ButtonState``, which a view shows apart from the others.
public enum ButtonStateRole: Equatable, Hashable, Sendable {
  /// Closes without doing anything: "Cancel", "Keep".
  case cancel
  /// Deletes or otherwise destroys something: "Delete".
  case destructive
}

extension ButtonState: Equatable where Action: Equatable {}

extension ButtonState: Hashable where Action: Hashable {}

extension ButtonState: Sendable where Action: Sendable {}

extension ButtonStateAction: Equatable where Action: Equatable {}

extension ButtonStateAction: Hashable where Action: Hashable {}

extension ButtonStateAction: Sendable where Action: Sendable {}
