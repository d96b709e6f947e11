import Foundation
import LinkClient
import Loop

/// The "Search" screen: links whose title contains the query, ignoring case, newest first, each
/// row showing where the query matched.
///
/// Typing is debounced on the `continuousClock` dependency: when a keystroke changed the query,
/// the search runs once it has not changed for ``debounce`` (a keystroke that leaves it as it
/// was searches nothing). A newer query (typed or submitted) cancels the search in flight, so
/// results always belong to the current query. A blank query lists every link, as the client
/// does.
///
/// A failure of the client is presented as an alert (``State/alert``, made by
/// `AlertState.failure(_:)`), which asks nothing and closes on `.alert(.dismiss)`.
///
/// It hosts ``LinkRow``s: it toggles favorites through the client, and asks its parent to open
/// a link.
public struct SearchLinks: Reducer, Sendable {
  /// How long the query must stay unchanged before a typed query is searched.
  public static let debounce = Duration.milliseconds(300)

  /// A row of the screen: a link with the part of its title that matched the query.
  ///
  /// It encodes with the link's own field names (`id`, `title`, `url`, `isFavorite`,
  /// `createdAt`), so the REPL's JSON reads like the link's.
  public struct Row: LinkRowItem, Codable {
    /// The link's id.
    public var id: Link.ID
    /// The link's title.
    public var title: String
    /// The link's address.
    public var url: URL
    /// Whether the link is a favorite.
    public var isFavorite: Bool
    /// When the link was added: the screen's order, newest first.
    public var createdAt: Date
    /// Where the query matched the title, in characters from its start; `nil` for a blank
    /// query.
    public var matchedRange: Range<Int>?

    /// Creates a row.
    public init(
      id: Link.ID, title: String, url: URL, isFavorite: Bool, createdAt: Date,
      matchedRange: Range<Int>?
    ) {
      self.id = id
      self.title = title
      self.url = url
      self.isFavorite = isFavorite
      self.createdAt = createdAt
      self.matchedRange = matchedRange
    }

    /// The row of a loaded link found by `query`, or `nil` if its address is not a URL.
    ///
    /// The range is the first case-insensitive match of the trimmed query in the title.
    public init?(_ link: LoadedLink, query: String) {
      guard let url = link.url else { return nil }
      let query = query.trimmingCharacters(in: .whitespacesAndNewlines)
      let title = link.title
      var matchedRange: Range<Int>?
      if !query.isEmpty, let match = title.range(of: query, options: .caseInsensitive) {
        matchedRange =
          title.distance(
            from: title.startIndex, to: match.lowerBound)..<title.distance(
            from: title.startIndex, to: match.upperBound)
      }
      self.init(
        id: link.id, title: title, url: url, isFavorite: link.isFavorite,
        createdAt: link.createdAt, matchedRange: matchedRange)
    }
  }

  /// The screen's state.
  public struct State: Equatable, Sendable {
    /// The query, as typed.
    public var query: String
    /// What the links part loaded about the links, shared with its other screens.
    ///
    /// The parent's ``LinkList/LinkList/State/links``: the screen shows those of ``rowIDs``.
    /// Change it with `withLock`.
    @Shared public var links: IdentifiedArrayOf<LoadedLink>
    /// The links found, newest first.
    ///
    /// An id whose link left ``links`` (it was deleted) shows no row.
    public var rowIDs: [Link.ID]
    /// Whether a search is waiting or running.
    public var isSearching: Bool
    /// Why the client failed, shown over the screen; `nil` when none is shown.
    @Presents public var alert: AlertState<Action.Alert>?

    /// Creates the state.
    public init(
      query: String = "", links: Shared<IdentifiedArrayOf<LoadedLink>> = Shared(value: []),
      rowIDs: [Link.ID] = [], isSearching: Bool = false, alert: AlertState<Action.Alert>? = nil
    ) {
      self.query = query
      self._links = links
      self.rowIDs = rowIDs
      self.isSearching = isSearching
      self.alert = alert
    }

    /// The rows shown, newest first: each of ``rowIDs`` whose link is loaded, read through
    /// ``links``, with where the query matched its title.
    ///
    /// - Complexity: O(*n*) in the rows.
    public var rows: IdentifiedArrayOf<Row> {
      let links = self.links
      return IdentifiedArray(
        uniqueElements: rowIDs.lazy.compactMap { id in
          links[id: id].flatMap { Row($0, query: query) }
        })
    }

    /// The row of a link the screen shows, or `nil`.
    ///
    /// - Complexity: O(1).
    public func row(id: Link.ID) -> Row? {
      links[id: id].flatMap { Row($0, query: query) }
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
    /// The screen is shown: it searches the current query now (it appeared, or something
    /// changed).
    case onAppear
    /// The user typed: search once the query settles.
    case queryChanged(String)
    /// A row's action.
    case rows(IdentifiedAction<Link.ID, LinkRow<Row>.Action>)
    /// The client answered the search for the current query.
    case searchResponse(Result<[Link], LinkError>)
    /// The user submitted a query (pressed return): search it now.
    case searchSubmitted(String)

    /// The answers to the screen's alerts: none, a failure asks nothing.
    public enum Alert: Equatable, Sendable {}

    /// What the screen asks its parent to do.
    public enum Delegate: Equatable, Sendable {
      /// Open a link.
      case openLink(Link.ID)
    }
  }

  private enum CancelID { case search }

  @Dependency(\.continuousClock) var clock
  @Dependency(\.linkClient) var linkClient

  /// Creates the reducer.
  public init() {}

  /// The screen's logic.
  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .onAppear:
        state.isSearching = true
        return search(state.query)

      case .queryChanged(let query):
        state.query = query
        return .none

      case .searchResponse(.success(let links)):
        state.isSearching = false
        state.rowIDs = links.map(\.id)
        state.$links.withLock { loaded in
          for link in links { loaded.show(link) }
        }
        return .none

      case .searchResponse(.failure(let error)):
        state.isSearching = false
        state.alert = .failure(error)
        return .none

      case .searchSubmitted(let query):
        state.query = query
        state.isSearching = true
        return search(query)

      case .alert, .delegate, .favoriteResponse, .rows:
        return .none
      }
    }
    .ifLet(\.$alert, action: .case(Action.alert))
    .onChange(of: \.query) { _, query in
      Reduce { state, action in
        // NB: a submitted query is searched at once, not after the typing settles.
        guard case .queryChanged = action else { return .none }
        state.isSearching = true
        return .debounce(id: CancelID.search, for: Self.debounce, clock: clock) { send in
          await send(.searchResponse(Result { try await linkClient.searchLinks(query) }))
        }
      }
    }
    LinkRows<State, Action>()
  }

  /// Searches now, cancelling any search waiting or in flight.
  private func search(_ query: String) -> Effect<Action> {
    return .run { send in
      await send(.searchResponse(Result { try await linkClient.searchLinks(query) }))
    }
    .cancellable(id: CancelID.search, cancelInFlight: true)
  }
}

extension SearchLinks.State: LinkRowsState {
  var sharedLinks: Shared<IdentifiedArrayOf<LoadedLink>> { $links }
}

extension SearchLinks.Action: LinkRowsAction {
  static func openLink(_ id: Link.ID) -> Self { .delegate(.openLink(id)) }
}
