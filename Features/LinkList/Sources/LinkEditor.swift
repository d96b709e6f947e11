import LinkClient
import Loop

/// The editor of a link: a draft the user fills in, to be saved as a new link or over an
/// existing one.
///
/// The user edits the draft with binding actions, a field at a time or all of it, and any edit
/// clears the last error:
///
/// ```swift
/// store.send(.binding(.set(\.draft.title, "Swift")))
/// store.send(.binding(.set(\.draft, draft)))
/// ```
///
/// Saving asks the parent (``Action/Delegate/save(mode:draft:)``), which saves through
/// the client, closes the editor and reloads its list; when the client rejects the draft (blank
/// title, invalid address, missing category), the parent writes why into
/// ``State/errorMessage`` and ends ``State/isSaving``, keeping the draft as typed so the user can
/// fix it (as the ledger does with its editor: a parent changes its child's state directly rather
/// than sending it an action). Cancelling closes the editor: it dismisses itself
/// (`@Dependency(\.dismiss)`), which its parent presents with `@Presents` and `ifLet`.
///
/// NB: the parent, not the editor, runs the save. The parent closes the editor when the save
/// succeeds, which cancels the editor's effects, and Loop's runtime cancels with an effect every
/// effect started by the actions it sent: the parent's reload would be cancelled with an editor
/// that saved by itself.
public struct LinkEditor: Reducer {
  /// Whether the editor adds a link or updates one.
  public enum Mode: Equatable, Sendable {
    /// Save as a new link.
    case add
    /// Save over the link with this id.
    case update(Link.ID)
  }

  /// The editor's state.
  public struct State: Equatable, Sendable {
    /// Whether saving adds or updates.
    public var mode: Mode
    /// The values as typed.
    public var draft: LinkDraft
    /// Whether a save is in flight.
    public var isSaving: Bool
    /// Why the last save failed, as a sentence for the user; `nil` otherwise.
    public var errorMessage: String?

    /// Creates the state.
    public init(
      mode: Mode, draft: LinkDraft = LinkDraft(), isSaving: Bool = false,
      errorMessage: String? = nil
    ) {
      self.mode = mode
      self.draft = draft
      self.isSaving = isSaving
      self.errorMessage = errorMessage
    }
  }

  /// What happens in the editor.
  public enum Action: BindableAction, Equatable, Sendable {
    /// The user changed the values (a field of the draft, or all of it); it clears the last
    /// error.
    case binding(BindingAction<State>)
    /// The user gave up editing: the editor closes itself; nothing is saved.
    case cancelSubmitted
    /// Asks the parent to act.
    case delegate(Delegate)
    /// The user asked to save.
    case saveSubmitted

    /// What the editor asks its parent to do.
    public enum Delegate: Equatable, Sendable {
      /// Save the draft (add it, or update the link), then close the editor, or show why the
      /// client rejected it in ``State/errorMessage``.
      case save(mode: Mode, draft: LinkDraft)
    }
  }

  @Dependency(\.dismiss) var dismiss

  /// Creates the reducer.
  public init() {}

  /// The editor's logic.
  public var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .binding:
        state.errorMessage = nil
        return .none

      case .cancelSubmitted:
        return .run { [dismiss] _ in await dismiss() }

      case .delegate:
        return .none

      case .saveSubmitted:
        guard !state.isSaving else { return .none }
        state.isSaving = true
        state.errorMessage = nil
        return .send(.delegate(.save(mode: state.mode, draft: state.draft)))
      }
    }
  }
}
