import LinkClient
import Loop

/// What a screen listing links does with its ``LinkRow``s, written once for "All links",
/// "Search" and "Recent": a row asking to open its link becomes the screen's request to its
/// parent, and a row toggling its favorite is saved through the client, then kept in the links
/// the screens share, so that every screen's row shows it (or the client's failure is shown in the
/// screen's alert).
///
/// A screen's state and actions adopt ``LinkRowsState`` and ``LinkRowsAction``, and the screen
/// runs `LinkRows` after its own reducer, which leaves those actions alone:
///
/// ```swift
/// var body: some ReducerOf<Self> {
///   Reduce { state, action in
///     switch action {
///     …
///     case .alert, .delegate, .favoriteResponse, .rows: return .none
///     }
///   }
///   .ifLet(\.$alert, action: .case(Action.alert))
///   LinkRows<State, Action>()
/// }
/// ```
struct LinkRows<ScreenState: LinkRowsState, ScreenAction: LinkRowsAction>: Reducer
where ScreenState.Row == ScreenAction.Row {
  typealias State = ScreenState
  typealias Action = ScreenAction

  @Dependency(\.linkClient) var linkClient

  /// The rows, then what the screen does when they ask.
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if let response = Self.favoriteResponse.extract(action) {
        switch response {
        case .success(let link):
          state.sharedLinks.withLock { $0.update(link) }
        case .failure(let error):
          state.alert = .failure(error)
        }
        return .none
      }
      guard case .element(let id, let rowAction)? = Self.rows.extract(action) else {
        return .none
      }
      // NB: a row is read through the shared links, never stored: the row decides on a copy
      // and changes nothing. One the screen does not show is reported, as `forEach` reports an
      // action for a missing element.
      guard var row = state.row(id: id) else {
        reportIssue(
          """
          A screen of links received an action for a row it does not show (link \(id)): \
          \(rowAction)

          This is usually an action sent after its link left the screen. To fix, send row \
          actions only for the links the screen shows.
          """)
        return .none
      }
      guard case .delegate(let request) = rowAction else {
        return LinkRow<State.Row>().reduce(into: &row, action: rowAction)
          .map { Action.rows(.element(id: id, action: $0)) }
      }
      switch request {
      case .open:
        return .send(.openLink(id))
      case .setFavorite(let isFavorite):
        return .run { send in
          await send(.favoriteResponse(Result { try await linkClient.setFavorite(id, isFavorite) }))
        }
      }
    }
  }

  private static var rows: CasePath<Action, IdentifiedAction<Link.ID, LinkRow<State.Row>.Action>> {
    .case { Action.rows($0) }
  }

  private static var favoriteResponse: CasePath<Action, Result<Link, LinkError>> {
    .case { Action.favoriteResponse($0) }
  }
}

/// The state of a screen listing links in ``LinkRow``s, which ``LinkRows`` reads and writes.
protocol LinkRowsState {
  /// The screen's row value.
  associatedtype Row: LinkRowItem
  /// The answers to the screen's alerts.
  associatedtype Alert
  /// The links the screens share: a favorite saved is kept there.
  var sharedLinks: Shared<IdentifiedArrayOf<LoadedLink>> { get }
  /// The row of a link the screen shows, or `nil`.
  func row(id: Link.ID) -> Row?
  /// The failure the screen shows (its `@Presents` alert); `nil` when none is shown.
  var alert: AlertState<Alert>? { get set }
}

/// The actions of a screen listing links in ``LinkRow``s, which ``LinkRows`` handles: the
/// screen's enum cases `rows` and `favoriteResponse` are the first two requirements.
protocol LinkRowsAction: Sendable {
  /// The screen's row value.
  associatedtype Row: LinkRowItem
  /// A row's action.
  static func rows(_ action: IdentifiedAction<Link.ID, LinkRow<Row>.Action>) -> Self
  /// The client saved a favorite toggled on a row, or failed to.
  static func favoriteResponse(_ response: Result<Link, LinkError>) -> Self
  /// The screen's request to its parent to open a link.
  static func openLink(_ id: Link.ID) -> Self
}
