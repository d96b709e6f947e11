import LinkClient
import Loop

/// What a screen listing links does with its ``LinkRow``s, written once for "All links",
/// "Search" and "Recent": a row asking to open its link becomes the screen's request to its
/// parent, and a row toggling its favorite is saved through the client, then shown on the row
/// (or the failure in the screen's error message).
///
/// The screen runs it beside its own reducer, which leaves those actions alone:
///
/// ```swift
/// var body: some ReducerOf<Self> {
///   LinkRows(
///     rows: \.rows, errorMessage: \.errorMessage, action: .case(Action.rows),
///     favoriteResponse: .case(Action.favoriteResponse), openLink: { .delegate(.openLink($0)) })
///   Reduce { state, action in
///     switch action {
///     case .delegate, .favoriteResponse, .rows: return .none
///     …
///     }
///   }
/// }
/// ```
struct LinkRows<ScreenState, ScreenAction, Row: LinkRowItem>: Reducer {
  typealias State = ScreenState
  typealias Action = ScreenAction

  /// The screen's rows.
  let rows: WritableKeyPath<State, IdentifiedArrayOf<Row>>
  /// The screen's last failure, as a sentence; `nil` after a success.
  let errorMessage: WritableKeyPath<State, String?>
  /// The screen's case for its rows' actions.
  let action: CasePath<Action, IdentifiedAction<Link.ID, LinkRow<Row>.Action>>
  /// The screen's case for the client's answer to a favorite toggled on a row.
  let favoriteResponse: CasePath<Action, Result<Link, LinkError>>
  /// The screen's request to its parent to open a link.
  let openLink: @Sendable (Link.ID) -> Action

  @Dependency(\.linkClient) var linkClient

  /// The rows, then what the screen does when they ask.
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if let response = favoriteResponse.extract(action) {
        switch response {
        case .success(let link):
          state[keyPath: errorMessage] = nil
          state[keyPath: rows][id: link.id]?.isFavorite = link.isFavorite
        case .failure(let error):
          state[keyPath: errorMessage] = error.description
        }
        return .none
      }
      guard case .element(let id, .delegate(let request))? = self.action.extract(action) else {
        return .none
      }
      switch request {
      case .open:
        return .send(openLink(id))
      case .setFavorite(let isFavorite):
        let linkClient = self.linkClient
        let favoriteResponse = self.favoriteResponse
        return .run { send in
          await send(
            favoriteResponse.embed(Result { try await linkClient.setFavorite(id, isFavorite) }))
        }
      }
    }
    .forEach(rows, action: action) {
      LinkRow<Row>()
    }
  }
}
