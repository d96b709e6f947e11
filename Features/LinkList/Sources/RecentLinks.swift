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

    /// The row of a viewed link, or `nil` for a link never viewed.
    ///
    /// - Parameter link: The link.
    public init?(_ link: Link) {
      guard let lastViewedDate = link.lastViewedDate else { return nil }
      self.init(
        id: link.id, title: link.title, url: link.url, isFavorite: link.isFavorite,
        lastViewedDate: lastViewedDate)
    }
  }

  /// The screen's state.
  public struct State: Equatable, Sendable {
    /// The links viewed most recently, most recent first.
    public var rows: IdentifiedArrayOf<Row>
    /// Why the client failed, shown over the screen; `nil` when none is shown.
    @Presents public var alert: AlertState<Action.Alert>?

    /// Creates the state.
    public init(rows: IdentifiedArrayOf<Row> = [], alert: AlertState<Action.Alert>? = nil) {
      self.rows = rows
      self.alert = alert
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

  private enum CancelID { case load }

  @Dependency(\.linkClient) var linkClient

  /// Creates the reducer.
  public init() {}

  /// The screen's logic.
  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .linksResponse(.success(let links)):
        state.rows = IdentifiedArray(uniqueElements: links.compactMap(Row.init))
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

extension RecentLinks.State: LinkRowsState {}

extension RecentLinks.Action: LinkRowsAction {
  static func openLink(_ id: Link.ID) -> Self { .delegate(.openLink(id)) }
}
