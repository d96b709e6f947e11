import Foundation
import LinkClient
import Loop

/// The "Recent" screen: the links viewed most recently (six of them), each row showing when it
/// was last viewed.
///
/// A failure of the client is presented as an alert (``State/alert``, made by
/// `AlertState.failure(_:)`), which asks nothing and closes on `.alert(.dismiss)`.
///
/// It hosts ``LinkRow``s: it toggles favorites through the client, and asks its parent to open
/// a link.
public struct RecentLinks: Reducer, Sendable {
  /// A row of the screen: a link with when it was last viewed.
  ///
  /// It encodes with the link's own field names (`id`, `title`, `url`, `isFavorite`,
  /// `lastViewedDate`), so the REPL's JSON reads like the link's.
  public struct Row: LinkRowItem, Codable {
    /// The link's id.
    public var id: Link.ID
    /// The link's title.
    public var title: String
    /// The link's address.
    public var url: URL
    /// Whether the link is a favorite.
    public var isFavorite: Bool
    /// When the link was last viewed.
    public var lastViewedDate: Date

    /// Creates a row.
    public init(id: Link.ID, title: String, url: URL, isFavorite: Bool, lastViewedDate: Date) {
      self.id = id
      self.title = title
      self.url = url
      self.isFavorite = isFavorite
      self.lastViewedDate = lastViewedDate
    }

    /// The row of a loaded link, or `nil` for a link never viewed (or whose address is not a
    /// URL).
    ///
    /// - Parameter link: The link.
    public init?(_ link: LoadedLink) {
      guard let lastViewedDate = link.details?.lastViewedDate, let url = link.url else {
        return nil
      }
      self.init(
        id: link.id, title: link.title, url: url, isFavorite: link.isFavorite,
        lastViewedDate: lastViewedDate)
    }
  }

  /// The screen's state.
  public struct State: Equatable, Sendable {
    /// What the links part loaded about the links, shared with its other screens.
    ///
    /// The parent's ``LinkList/LinkList/State/links``: the screen shows those of ``rowIDs``.
    /// Change it with `withLock`.
    @Shared public var links: IdentifiedArrayOf<LoadedLink>
    /// The links viewed most recently, most recent first.
    ///
    /// An id whose link left ``links`` (it was deleted) shows no row.
    public var rowIDs: [Link.ID]
    /// Why the client failed, shown over the screen; `nil` when none is shown.
    @Presents public var alert: AlertState<Action.Alert>?

    /// Creates the state.
    public init(
      links: Shared<IdentifiedArrayOf<LoadedLink>> = Shared(value: []), rowIDs: [Link.ID] = [],
      alert: AlertState<Action.Alert>? = nil
    ) {
      self._links = links
      self.rowIDs = rowIDs
      self.alert = alert
    }

    /// The rows shown, most recent first: each of ``rowIDs`` whose link is loaded, read through
    /// ``links``, with when it was last viewed.
    ///
    /// - Complexity: O(*n*) in the rows.
    public var rows: IdentifiedArrayOf<Row> {
      let links = self.links
      return IdentifiedArray(
        uniqueElements: rowIDs.lazy.compactMap { links[id: $0].flatMap(Row.init) })
    }

    /// The row of a link the screen shows, or `nil`.
    ///
    /// - Complexity: O(1).
    public func row(id: Link.ID) -> Row? {
      links[id: id].flatMap(Row.init)
    }
  }

  /// What happens on the screen.
  public enum Action: Equatable, Sendable {
    /// The closing of the failure shown (``State/alert``).
    case alert(PresentationAction<Alert>)
    /// Asks the parent to act.
    case delegate(Delegate)
    /// The client saved a favorite toggled on a row.
    case favoriteResponse(Result<Link, LinkError>)
    /// The client answered a load.
    case linksResponse(Result<[Link], LinkError>)
    /// The screen is shown (it appeared, or something changed): its list loads.
    case onAppear
    /// A row's action.
    case rows(IdentifiedAction<Link.ID, LinkRow<Row>.Action>)

    /// The answers to the screen's alerts: none, a failure asks nothing.
    public enum Alert: Equatable, Sendable {}

    /// What the screen asks its parent to do.
    public enum Delegate: Equatable, Sendable {
      /// Open a link.
      case openLink(Link.ID)
    }
  }

  @Dependency(\.linkClient) var linkClient

  private enum CancelID { case load }

  /// Creates the reducer.
  public init() {}

  /// The screen's logic.
  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .linksResponse(.success(let links)):
        // NB: only viewed links have a row.
        let viewed = links.filter { $0.lastViewedDate != nil }
        state.rowIDs = viewed.map(\.id)
        state.$links.withLock { loaded in
          for link in viewed { loaded.show(link) }
        }
        return .none

      case .linksResponse(.failure(let error)):
        state.alert = .failure(error)
        return .none

      case .onAppear:
        return .run { send in
          await send(.linksResponse(Result { try await linkClient.fetchRecentLinks() }))
        }
        .cancellable(id: CancelID.load, cancelInFlight: true)

      case .alert, .delegate, .favoriteResponse, .rows:
        return .none
      }
    }
    .ifLet(\.$alert, action: .case(Action.alert))
    LinkRows<State, Action>()
  }
}

extension RecentLinks.State: LinkRowsState {
  var sharedLinks: Shared<IdentifiedArrayOf<LoadedLink>> { $links }
}

extension RecentLinks.Action: LinkRowsAction {
  static func openLink(_ id: Link.ID) -> Self { .delegate(.openLink(id)) }
}
