import LinkClient
import Loop

import struct LinkClient.Comment

/// A link opened on its own: the link, its comments, and what can be done to them.
///
/// Opening it (``Action/opened``) records the view (so the link rises in "Recent") and loads
/// the comments. Comments are added, updated and deleted here through the client; editing and
/// deleting the link itself are asked of the parent, which owns the editor and the lists.
public struct LinkDetail: Reducer {
  /// The screen's state.
  public struct State: Equatable, Sendable {
    /// The link shown.
    public var linkID: Link.ID
    /// The link, once loaded.
    public var link: Link?
    /// Its comments, oldest first.
    public var comments: IdentifiedArrayOf<Comment>
    /// The last failure, as a sentence for the user; `nil` after a success.
    public var errorMessage: String?

    /// Creates the state.
    ///
    /// - Parameters:
    ///   - linkID: The link to show.
    ///   - link: The link, if loaded.
    ///   - comments: Its comments.
    ///   - errorMessage: A failure to show, if any.
    public init(
      linkID: Link.ID, link: Link? = nil, comments: IdentifiedArrayOf<Comment> = [],
      errorMessage: String? = nil
    ) {
      self.linkID = linkID
      self.link = link
      self.comments = comments
      self.errorMessage = errorMessage
    }
  }

  /// A link with its comments, as loaded when the detail opens.
  public struct Content: Equatable, Sendable {
    /// The link, as viewed now.
    public var link: Link
    /// Its comments, oldest first.
    public var comments: [Comment]

    /// Creates the content.
    ///
    /// - Parameters:
    ///   - link: The link.
    ///   - comments: Its comments.
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
    /// Asks the parent to act.
    case delegate(Delegate)
    /// The client answered deleting a comment.
    case deleteCommentResponse(Result<Comment.ID, LinkError>)
    /// The user asked to delete a comment.
    case deleteCommentTapped(Comment.ID)
    /// The user asked to delete the link.
    case deleteTapped
    /// The user asked to edit the link.
    case editTapped
    /// The client saved the favorite toggled here.
    case favoriteResponse(Result<Link, LinkError>)
    /// The user toggled the link's favorite.
    case favoriteTapped
    /// The detail was opened: record the view and load the comments.
    case opened
    /// The client answered opening.
    case openResponse(Result<Content, LinkError>)
    /// The client answered updating a comment.
    case updateCommentResponse(Result<Comment, LinkError>)
    /// The user submitted a comment's new text.
    case updateCommentSubmitted(Comment.ID, String)

    /// What the screen asks its parent to do.
    public enum Delegate: Equatable, Sendable {
      /// Delete the link (the parent owns the lists it leaves).
      case deleteRequested(Link.ID)
      /// Edit the link (the parent owns the editor).
      case editRequested(Link)
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
      if case .opened = action {
        return effect.cancellable(id: CancelID.work, cancelInFlight: true)
      }
      return effect.cancellable(id: CancelID.work)
    }
  }

  private func handle(_ action: Action, _ state: inout State) -> Effect<Action> {
    switch action {
    case .addCommentResponse(.success(let comment)):
      state.errorMessage = nil
      state.comments.append(comment)
      return .none

    case .addCommentSubmitted(let text):
      let linkID = state.linkID
      let linkClient = self.linkClient
      return .run { send in
        await send(.addCommentResponse(Result { try await linkClient.addComment(linkID, text) }))
      }

    case .delegate:
      return .none

    case .deleteCommentResponse(.success(let id)):
      state.errorMessage = nil
      state.comments.remove(id: id)
      return .none

    case .deleteCommentTapped(let id):
      let linkClient = self.linkClient
      return .run { send in
        await send(
          .deleteCommentResponse(Result { try await linkClient.deleteComment(id) }.map { id }))
      }

    case .deleteTapped:
      return .send(.delegate(.deleteRequested(state.linkID)))

    case .editTapped:
      guard let link = state.link else { return .none }
      return .send(.delegate(.editRequested(link)))

    case .favoriteResponse(.success(let link)):
      state.errorMessage = nil
      state.link = link
      return .none

    case .favoriteTapped:
      guard let link = state.link else { return .none }
      let linkClient = self.linkClient
      return .run { send in
        await send(
          .favoriteResponse(
            Result { try await linkClient.setFavorite(link.id, !link.isFavorite) }))
      }

    case .opened:
      let linkID = state.linkID
      let linkClient = self.linkClient
      return .run { send in
        await send(
          .openResponse(
            Result {
              Content(
                link: try await linkClient.markViewed(linkID),
                comments: try await linkClient.fetchComments(linkID))
            }))
      }

    case .openResponse(.success(let content)):
      state.errorMessage = nil
      state.link = content.link
      state.comments = IdentifiedArray(uniqueElements: content.comments)
      return .none

    case .updateCommentResponse(.success(let comment)):
      state.errorMessage = nil
      _ = state.comments.modify(id: comment.id) { $0 = comment }
      return .none

    case .updateCommentSubmitted(let id, let text):
      let linkClient = self.linkClient
      return .run { send in
        await send(.updateCommentResponse(Result { try await linkClient.updateComment(id, text) }))
      }

    case .addCommentResponse(.failure(let error)), .deleteCommentResponse(.failure(let error)),
      .favoriteResponse(.failure(let error)), .openResponse(.failure(let error)),
      .updateCommentResponse(.failure(let error)):
      state.errorMessage = error.description
      return .none
    }
  }
}
