import LinkClient
import Loop

/// The editor of a link: a draft the user fills in, saved through the client as a new link or
/// over an existing one.
///
/// The client checks the draft (blank title, invalid address, missing category); a failure is
/// shown in ``State/errorMessage`` and the draft stays as typed, so the user can fix it. When
/// the link is saved, the editor tells its parent with ``Action/Delegate/saved(_:)``.
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
    ///
    /// - Parameters:
    ///   - mode: Whether saving adds or updates.
    ///   - draft: The values to start from.
    ///   - isSaving: Whether a save is in flight.
    ///   - errorMessage: A failure to show, if any.
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
  public enum Action: Equatable, Sendable {
    /// The user gave up editing.
    case cancelTapped
    /// Tells the parent the outcome.
    case delegate(Delegate)
    /// The user changed the values.
    case draftChanged(LinkDraft)
    /// The client answered a save.
    case saveResponse(Result<Link, LinkError>)
    /// The user asked to save.
    case saveTapped

    /// What the editor tells its parent.
    public enum Delegate: Equatable, Sendable {
      /// The user gave up; nothing was saved.
      case cancelled
      /// The link was saved, as the client stored it.
      case saved(Link)
    }
  }

  @Dependency(\.linkClient) var linkClient

  /// Creates the reducer.
  public init() {}

  /// The editor's logic.
  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .cancelTapped:
        return .send(.delegate(.cancelled))

      case .delegate:
        return .none

      case .draftChanged(let draft):
        state.draft = draft
        state.errorMessage = nil
        return .none

      case .saveResponse(.success(let link)):
        state.isSaving = false
        return .send(.delegate(.saved(link)))

      case .saveResponse(.failure(let error)):
        state.isSaving = false
        state.errorMessage = error.description
        return .none

      case .saveTapped:
        guard !state.isSaving else { return .none }
        state.isSaving = true
        state.errorMessage = nil
        let (mode, draft) = (state.mode, state.draft)
        return .run { [linkClient] send in
          await send(
            .saveResponse(
              Result {
                switch mode {
                case .add: try await linkClient.addLink(draft)
                case .update(let id): try await linkClient.updateLink(id, draft)
                }
              }))
        }
      }
    }
  }
}
