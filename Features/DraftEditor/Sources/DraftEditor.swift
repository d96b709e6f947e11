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
  associatedtype Failure: Error, CustomStringConvertible

  /// The values to save from `draft`, or why it cannot be saved.
  ///
  /// NB: it runs inside the editor's reducer, where the store's dependencies (the date, the
  /// calendar) are in effect: a check may read them with `@Dependency`.
  static func check(_ draft: Draft) throws(Failure) -> Checked
}

/// The editor of a draft: the user fills it in, then it is saved as a new item or over a
/// stored one.
///
/// The user edits the draft with binding actions, a field at a time or all of it; a changed
/// draft clears the last error (an error is about the draft it was found in):
///
/// ```swift
/// store.send(.binding(.set(\.draft.title, "Swift")))
/// ```
///
/// Saving checks the draft (``Editing/check(_:)``): when it fails, the editor shows why in
/// ``State/errorMessage`` and keeps the draft as typed; when it passes, the editor asks its
/// parent to save the checked values (``Action/Delegate/save(_:_:)``). The parent saves through
/// its client and closes the editor, or writes the client's error into ``State/errorMessage``
/// and ends ``State/isSaving``. Cancelling closes the editor: it dismisses itself
/// (`@Dependency(\.dismiss)`), which its parent presents with `@Presents` and `ifLet`.
///
/// NB: the parent, not the editor, runs the save: the parent holds the client and the list the
/// saved item joins, so one reducer decides what is stored and what is shown, and the editor
/// stays a form any feature presents without knowing its storage.
public struct DraftEditor<Edited: Editing>: Reducer {
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
    /// Why the last save failed (the check or the client), as a sentence; `nil` otherwise.
    public var errorMessage: String?

    /// Creates the state.
    public init(
      mode: Mode, draft: Edited.Draft, isSaving: Bool = false, errorMessage: String? = nil
    ) {
      self.mode = mode
      self.draft = draft
      self.isSaving = isSaving
      self.errorMessage = errorMessage
    }
  }

  /// What happens in the editor.
  public enum Action: BindableAction, Equatable, Sendable {
    /// The user changed the draft (a field, or all of it).
    case binding(BindingAction<State>)
    /// The user gave up: the editor closes itself, saving nothing.
    case cancelSubmitted
    /// Asks the parent to act.
    case delegate(Delegate)
    /// The user asked to save: the draft is checked and, when it passes, handed to the parent.
    case saveSubmitted

    /// What the editor asks its parent to do.
    public enum Delegate: Equatable, Sendable {
      /// Save these checked values (add them, or update the item), then close the editor, or
      /// show why the client rejected them in ``State/errorMessage``.
      case save(Mode, Edited.Checked)
    }
  }

  @Dependency(\.dismiss) var dismiss

  /// Creates the editor's reducer.
  public init() {}

  /// Checks the draft on save; every change to storage is the parent's.
  public var body: some ReducerOf<Self> {
    BindingReducer()
      .onChange(of: \.draft) { _, _ in
        Reduce { state, _ in
          state.errorMessage = nil
          return .none
        }
      }
    Reduce { state, action in
      switch action {
      case .binding, .delegate:
        return .none

      case .cancelSubmitted:
        return .run { [dismiss] _ in await dismiss() }

      case .saveSubmitted:
        guard !state.isSaving else { return .none }
        do throws(Edited.Failure) {
          let checked = try Edited.check(state.draft)
          state.errorMessage = nil
          state.isSaving = true
          return .send(.delegate(.save(state.mode, checked)))
        } catch {
          state.errorMessage = error.description
          return .none
        }
      }
    }
  }
}
