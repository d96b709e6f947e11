import Habits
import Interchange
import Ledger
import LinkClient
import LinkList
import Loop

import struct LinkClient.Comment

/// The whole app as one feature: the links (with their categories), the habit tracker, the
/// ledger, and importing and exporting them, each in its own part of one state, driven by the
/// `loop` REPL through one `Store`.
///
/// ```swift
/// let store = Store(initialState: AppFeature.State()) { AppFeature() }
/// await store.send(.habits(.addHabitSubmitted(name: "Read"))).finish()
/// store.state.errorMessage  // nil: it worked
/// ```
///
/// Every feature keeps its own error message; ``State/errorMessage`` is the first one shown
/// anywhere, so a caller learns from one place whether what it sent failed, and
/// ``Action/errorsDismissed`` clears them all before the next command.
///
/// Besides composing the features, the root answers what a text interface asks of the links
/// and no screen of ``LinkList/LinkList`` does: which links a short id (a "ref") names
/// (``Action/linkRefEntered(_:)``), a link with its comments shown without recording a view
/// (``Action/linkPreviewRequested(_:)``), and which link the last save stored
/// (``State/savedLink``). Nothing is loaded until asked: a database with 100,000 links opens
/// without reading one.
public struct AppFeature: Reducer {
  /// The app's state: one part per feature.
  public struct State: Equatable, Sendable {
    /// The links and their categories.
    public var links: LinkList.State

    /// The habit tracker.
    public var habits: Habits.State

    /// The ledger.
    public var ledger: Ledger.State

    /// Imports and exports.
    public var interchange: Interchange.State

    /// The links whose id starts with the last ref looked up, by id (at most
    /// ``AppFeature/refMatchLimit``); empty before any lookup.
    public var linkRefMatches: [Link]

    /// The link the last save (an add or an update) stored, or `nil`.
    public var savedLink: Link?

    /// Why the root's own work (a ref lookup, a preview) failed, or `nil`.
    public var errorMessage: String?

    /// Creates the state.
    ///
    /// - Parameters:
    ///   - links: The links' state; nothing loaded by default.
    ///   - habits: The habit tracker's state; nothing loaded by default.
    ///   - ledger: The ledger's state; nothing loaded by default.
    ///   - interchange: The imports' and exports' state.
    ///   - linkRefMatches: The links the last ref named.
    ///   - savedLink: The link the last save stored.
    ///   - errorMessage: A failure of the root's own work.
    public init(
      links: LinkList.State = LinkList.State(), habits: Habits.State = Habits.State(),
      ledger: Ledger.State = Ledger.State(), interchange: Interchange.State = Interchange.State(),
      linkRefMatches: [Link] = [], savedLink: Link? = nil, errorMessage: String? = nil
    ) {
      self.links = links
      self.habits = habits
      self.ledger = ledger
      self.interchange = interchange
      self.linkRefMatches = linkRefMatches
      self.savedLink = savedLink
      self.errorMessage = errorMessage
    }

    /// Every error message shown: the root's, then each feature's (links, habits, the ledger,
    /// imports and exports), each feature's own before its children's.
    public var errorMessages: [String] {
      [
        errorMessage, links.errorMessage, links.all.errorMessage, links.search.errorMessage,
        links.recent.errorMessage, links.categories.errorMessage, links.editor?.errorMessage,
        links.detail?.errorMessage, habits.errorMessage,
        habits.destination?.detail?.errorMessage,
        ledger.errorMessage, ledger.editor?.errorMessage, interchange.errorMessage,
      ]
      .compactMap { $0 }
    }

    /// The first of ``errorMessages``, or `nil` when nothing failed.
    public var firstErrorMessage: String? { errorMessages.first }
  }

  /// The most links a ref lookup returns: enough to list the candidates of an ambiguous ref.
  public static let refMatchLimit = 10

  /// What happens in the app.
  public enum Action: Equatable, Sendable {
    /// The user saw the errors shown: every feature's error message is cleared.
    case errorsDismissed
    /// The habit tracker's actions.
    case habits(Habits.Action)
    /// The imports' and exports' actions.
    case interchange(Interchange.Action)
    /// The ledger's actions.
    case ledger(Ledger.Action)
    /// The user named a link by the start of its id: find the links it may name.
    case linkRefEntered(String)
    /// The client answered a ref lookup.
    case linkRefResponse(Result<[Link], LinkError>)
    /// The user asked to see a link and its comments without opening it (no view is
    /// recorded): they load into the links' detail.
    case linkPreviewRequested(Link.ID)
    /// The client answered a preview.
    case linkPreviewResponse(Result<LinkDetail.Content, LinkError>)
    /// The links' actions.
    case links(LinkList.Action)
  }

  @Dependency(\.linkClient) var linkClient

  /// Creates the reducer.
  public init() {}

  /// The features, each on its part of the state; then the root's own work.
  public var body: some ReducerOf<Self> {
    Scope(state: \.links, action: .case(Action.links)) { LinkList() }
    Scope(state: \.habits, action: .case(Action.habits)) { Habits() }
    Scope(state: \.ledger, action: .case(Action.ledger)) { Ledger() }
    Scope(state: \.interchange, action: .case(Action.interchange)) { Interchange() }
    Reduce { state, action in
      switch action {
      case .errorsDismissed:
        // NB: the parent clears the children's messages itself: not every child has an action
        // for it, and a message must never survive into the next command.
        state.errorMessage = nil
        state.links.errorMessage = nil
        state.links.all.errorMessage = nil
        state.links.search.errorMessage = nil
        state.links.recent.errorMessage = nil
        state.links.categories.errorMessage = nil
        state.links.editor?.errorMessage = nil
        state.links.detail?.errorMessage = nil
        state.habits.errorMessage = nil
        state.habits.destination?.detail?.errorMessage = nil
        state.ledger.errorMessage = nil
        state.ledger.editor?.errorMessage = nil
        state.interchange.failure = nil
        return .none

      case .linkRefEntered(let prefix):
        state.errorMessage = nil
        let linkClient = self.linkClient
        return .run { send in
          await send(
            .linkRefResponse(
              Result { try await linkClient.fetchLinksWithIDPrefix(prefix, Self.refMatchLimit) }))
        }

      case .linkRefResponse(.success(let links)):
        state.linkRefMatches = links
        return .none

      case .linkPreviewRequested(let id):
        state.errorMessage = nil
        let linkClient = self.linkClient
        return .run { send in
          await send(
            .linkPreviewResponse(
              Result {
                LinkDetail.Content(
                  link: try await linkClient.fetchLink(id),
                  comments: try await linkClient.fetchComments(id))
              }))
        }

      case .linkPreviewResponse(.success(let content)):
        state.links.detail = LinkDetail.State(
          linkID: content.link.id, link: content.link,
          comments: IdentifiedArray(uniqueElements: content.comments))
        return .none

      case .linkRefResponse(.failure(let error)), .linkPreviewResponse(.failure(let error)):
        state.errorMessage = error.description
        return .none

      case .links(.saveLinkResponse(.success(let link))):
        state.savedLink = link
        return .none

      case .interchange(.delegate(.imported)):
        // NB: nothing is reloaded here: the REPL loads a noun's data when a command next needs
        // it, and forgets what it loaded when an import changes it (a full reload of 100,000
        // imported links would be wasted on a command that shows six).
        return .none

      case .habits, .interchange, .ledger, .links:
        return .none
      }
    }
  }
}
