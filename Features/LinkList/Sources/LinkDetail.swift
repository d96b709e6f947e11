import LinkClient
import Loop

import struct LinkClient.Comment

/// A link opened on its own: the link, its comments, and what can be done to them.
///
/// Opening it (``Action/onAppear``) records the view (so the link rises in "Recent") and loads
/// the comments. Comments are added, updated and deleted here through the client; editing and
/// deleting the link itself are asked of the parent, which owns the editor and the lists. The
/// link is read through the links the parent shares with its screens (``LoadedLink``), so a
/// favorite toggled here shows on every screen, and a save anywhere shows here. A
/// failure of the client is presented as an alert (``State/alert``, made by
/// `AlertState.failure(_:)`), which asks nothing and closes on `.alert(.dismiss)`.
public struct LinkDetail: Reducer, Sendable {
  /// The screen's state.
  public struct State: Equatable, Sendable {
    /// The link shown.
    public var linkID: Link.ID
    /// What the links part loaded about the link, shared with every screen that shows it.
    ///
    /// An element of the parent's ``LinkList/LinkList/State/links``: `nil` before it is loaded,
    /// and once it is deleted. Change it with `withLock`.
    @Shared public var loadedLink: LoadedLink?
    /// Its comments, oldest first.
    public var comments: IdentifiedArrayOf<Comment>
    /// Why the client failed, shown over the link; `nil` when none is shown.
    @Presents public var alert: AlertState<Action.Alert>?

    /// Creates the state, reading the link from `links`, the links the parent shares (a new
    /// array when none is given).
    public init(
      linkID: Link.ID, links: Shared<IdentifiedArrayOf<LoadedLink>> = Shared(value: []),
      comments: IdentifiedArrayOf<Comment> = [], alert: AlertState<Action.Alert>? = nil
    ) {
      self.linkID = linkID
      self._loadedLink = links[id: linkID]
      self.comments = comments
      self.alert = alert
    }

    /// The link, once read whole (opened, or read whole by another screen): read through
    /// ``loadedLink``.
    public var link: Link? { loadedLink?.link }
  }

  /// A link with its comments, as loaded when the detail opens.
  public struct Content: Equatable, Sendable {
    /// The link, as viewed now.
    public var link: Link
    /// Its comments, oldest first.
    public var comments: [Comment]

    /// Creates the content.
    public init(link: Link, comments: [Comment]) {
      self.link = link
      self.comments = comments
    }
  }

  /// What happens on the screen.
  public enum Action: Equatable, Sendable {
    /// The client answered adding a comment.
    case addCommentResponse(Result<Comment, LinkError>)
    /// The user submitted a new comment.
    case addCommentSubmitted(String)
    /// The closing of the failure shown (``State/alert``).
    case alert(PresentationAction<Alert>)
    /// The client answered opening.
    case contentResponse(Result<Content, LinkError>)
    /// Asks the parent to act.
    case delegate(Delegate)
    /// The client answered deleting a comment.
    case deleteCommentResponse(Result<Comment.ID, LinkError>)
    /// The user asked to delete a comment.
    case deleteCommentSubmitted(Comment.ID)
    /// The user asked to delete the link.
    case deleteSubmitted
    /// The user asked to edit the link.
    case editSubmitted
    /// The client saved the favorite toggled here.
    case favoriteResponse(Result<Link, LinkError>)
    /// The user toggled the link's favorite.
    case favoriteSubmitted
    /// The detail was opened: record the view and load the comments.
    case onAppear
    /// The client answered updating a comment.
    case updateCommentResponse(Result<Comment, LinkError>)
    /// The user submitted a comment's new text.
    case updateCommentSubmitted(Comment.ID, String)

    /// The answers to the screen's alerts: none, a failure asks nothing.
    public enum Alert: Equatable, Sendable {}

    /// What the screen asks its parent to do.
    public enum Delegate: Equatable, Sendable {
      /// Delete the link (the parent owns the lists it leaves).
      case deleteLink(Link.ID)
      /// Edit the link (the parent owns the editor).
      case editLink(Link)
    }
  }

  /// Every effect of the detail, so that opening (another link, say) drops the answers still
  /// due for what was shown before.
  private enum CancelID { case work }

  @Dependency(\.linkClient) var linkClient

  /// Creates the reducer.
  public init() {}

  /// The screen's logic.
  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      let effect = handle(action, &state)
      if case .onAppear = action {
        return effect.cancellable(id: CancelID.work, cancelInFlight: true)
      }
      return effect.cancellable(id: CancelID.work)
    }
    .ifLet(\.$alert, action: .case(Action.alert))
  }

  private func handle(_ action: Action, _ state: inout State) -> Effect<Action> {
    switch action {
    case .addCommentResponse(.success(let comment)):
      state.comments.append(comment)
      return .none

    case .addCommentSubmitted(let text):
      let linkID = state.linkID
      return .run { send in
        await send(.addCommentResponse(Result { try await linkClient.addComment(linkID, text) }))
      }

    case .alert, .delegate:
      return .none

    case .deleteCommentResponse(.success(let id)):
      state.comments.remove(id: id)
      return .none

    case .deleteCommentSubmitted(let id):
      return .run { send in
        await send(
          .deleteCommentResponse(Result { try await linkClient.deleteComment(id) }.map { id }))
      }

    case .deleteSubmitted:
      return .send(.delegate(.deleteLink(state.linkID)))

    case .editSubmitted:
      guard let link = state.link else { return .none }
      return .send(.delegate(.editLink(link)))

    case .favoriteResponse(.success(let link)):
      state.$loadedLink.withLock { $0 = LoadedLink(link) }
      return .none

    case .favoriteSubmitted:
      guard let link = state.link else { return .none }
      return .run { send in
        await send(
          .favoriteResponse(
            Result { try await linkClient.setFavorite(link.id, !link.isFavorite) }))
      }

    case .onAppear:
      let linkID = state.linkID
      return .run { send in
        await send(
          .contentResponse(
            Result {
              Content(
                link: try await linkClient.markViewed(linkID),
                comments: try await linkClient.fetchComments(linkID))
            }))
      }

    case .contentResponse(.success(let content)):
      state.$loadedLink.withLock { $0 = LoadedLink(content.link) }
      state.comments = IdentifiedArray(uniqueElements: content.comments)
      return .none

    case .updateCommentResponse(.success(let comment)):
      _ = state.comments.modify(id: comment.id) { $0 = comment }
      return .none

    case .updateCommentSubmitted(let id, let text):
      return .run { send in
        await send(.updateCommentResponse(Result { try await linkClient.updateComment(id, text) }))
      }

    case .addCommentResponse(.failure(let error)), .deleteCommentResponse(.failure(let error)),
      .favoriteResponse(.failure(let error)), .contentResponse(.failure(let error)),
      .updateCommentResponse(.failure(let error)):
      state.alert = .failure(error)
      return .none
    }
  }
}
