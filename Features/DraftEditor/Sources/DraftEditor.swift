import Loop

/// What a ``DraftEditor`` edits: the draft's type, the id of a stored item it updates, the
/// values it hands its parent to save, and the check between the two.
public protocol Editing: Sendable {
  /// The values as typed.
  associatedtype Draft: Equatable, Sendable
  /// What names a stored item the draft updates.
  associatedtype ID: Hashable, Sendable
  /// The values handed to the parent to save.
  associatedtype Checked: Equatable, Sendable
  /// Why a draft cannot be saved, as a sentence for the user.
  associatedtype Failure: Error, CustomStringConvertible, Equatable

  /// The values to save from `draft`, or why it cannot be saved.
  ///
  /// NB: it runs inside the editor's reducer, where the store's dependencies (the date, the
  /// calendar) are in effect: a check may read them with `@Dependency`.
  static func check(_ draft: Draft) throws(Failure) -> Checked
}

/// The editor of a draft: the user fills it in, then it is saved as a new item or over a
/// stored one.
///
/// The user edits the draft with binding actions, a field at a time or all of it:
///
/// ```swift
/// store.send(.binding(.set(\.draft.title, "Swift")))
/// store.send(.saveSubmitted)  // .checkResponse(.success(checked)), then .delegate(.save(…))
/// ```
///
/// Saving checks the draft (``Editing/check(_:)``) and answers with the check's result
/// (``Action/checkResponse(_:)``): a draft that fails it stays as typed, and the editor presents
/// why as an alert (``State/alert``, made by `AlertState.failure(_:)`), which asks nothing; a
/// draft that passes is handed to the parent to save (``Action/Delegate/save(_:_:)``). The
/// parent saves through its client and closes the editor, or presents the client's failure in
/// the same alert and lets the user save again (``State/saveFailed(_:)``). A text interface learns that a save failed
/// from the typed failure of the response that reported it (the check's, or the parent's
/// client's), not from the state. Cancelling closes the editor: it dismisses itself
/// (`@Dependency(\.dismiss)`), which its parent presents with `@Presents` and `ifLet`.
///
/// NB: the parent, not the editor, runs the save: the parent holds the client and the list the
/// saved item joins, so one reducer decides what is stored and what is shown, and the editor
/// stays a form any feature presents without knowing its storage.
public struct DraftEditor<Edited: Editing>: Reducer, Sendable {
  /// Whether the editor adds an item or updates one.
  public enum Mode: Equatable, Sendable {
    /// Save as a new item.
    case add
    /// Save over the stored item with this id.
    case update(Edited.ID)
  }

  /// The editor's state.
  public struct State: Equatable, Sendable {
    /// Whether saving adds or updates.
    public var mode: Mode
    /// The values as typed.
    public var draft: Edited.Draft
    /// Whether the parent is saving the draft; another save waits until it answers.
    public var isSaving: Bool
    /// Why the last save failed (the check or the parent's client), shown over the draft;
    /// `nil` when none is shown.
    @Presents public var alert: AlertState<Action.Alert>?

    /// Creates the state.
    public init(
      mode: Mode, draft: Edited.Draft, isSaving: Bool = false,
      alert: AlertState<Action.Alert>? = nil
    ) {
      self.mode = mode
      self.draft = draft
      self.isSaving = isSaving
      self.alert = alert
    }

    /// Ends the save the editor asked for with the client's refusal: the editor stays open with
    /// its draft, shows why, and may save again.
    public mutating func saveFailed(_ error: some Error & CustomStringConvertible) {
      isSaving = false
      alert = .failure(error)
    }
  }

  /// What happens in the editor.
  public enum Action: BindableAction, Equatable, Sendable {
    /// The closing of the failure shown (``State/alert``).
    case alert(PresentationAction<Alert>)
    /// The user changed the draft (a field, or all of it).
    case binding(BindingAction<State>)
    /// The user gave up: the editor closes itself, saving nothing.
    case cancelSubmitted
    /// The draft's check answered a save: the values to hand the parent, or why the draft
    /// cannot be saved.
    case checkResponse(Result<Edited.Checked, Edited.Failure>)
    /// Asks the parent to act.
    case delegate(Delegate)
    /// The user asked to save: the draft is checked and, when it passes, handed to the parent.
    case saveSubmitted

    /// The answers to the editor's alerts: none, a failure asks nothing.
    public enum Alert: Equatable, Sendable {}

    /// What the editor asks its parent to do.
    public enum Delegate: Equatable, Sendable {
      /// Save these checked values (add them, or update the item), then close the editor, or
      /// end ``State/isSaving`` and present why the client rejected them in ``State/alert``.
      case save(Mode, Edited.Checked)
    }
  }

  @Dependency(\.dismiss) var dismiss

  /// Creates the editor's reducer.
  public init() {}

  /// Checks the draft on save; every change to storage is the parent's.
  public var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .alert, .binding, .delegate:
        return .none

      case .cancelSubmitted:
        return .run { _ in await dismiss() }

      case .checkResponse(.success(let checked)):
        state.alert = nil
        state.isSaving = true
        return .send(.delegate(.save(state.mode, checked)))

      case .checkResponse(.failure(let error)):
        state.alert = .failure(error)
        return .none

      case .saveSubmitted:
        guard !state.isSaving else { return .none }
        // NB: the check answers with an action, as a client would: its failure is then typed
        // in an action, where a text interface reads why its command failed.
        return .send(
          .checkResponse(Result { () throws(Edited.Failure) in try Edited.check(state.draft) }))
      }
    }
    .ifLet(\.$alert, action: .case(Action.alert))
  }
}
