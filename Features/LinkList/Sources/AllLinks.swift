import CategoryClient
import Foundation
import LinkClient
import Loop

/// The "All links" screen: every link, newest first, optionally only a category's, each row
/// showing its category's name.
///
/// Changing the category filter loads the list again; choosing the filter already shown changes
/// nothing (``Action/loadRequested`` reloads).
///
/// It hosts ``LinkRow``s: it toggles favorites through the client, and asks its parent to open
/// a link.
public struct AllLinks: Reducer {
  /// A row of the screen: a link with its category's name.
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
    /// The name of the link's category, or `nil` when it has none.
    public var categoryName: String?

    /// Creates a row.
    ///
    /// - Parameters:
    ///   - id: The link's id.
    ///   - title: The link's title.
    ///   - url: The link's address.
    ///   - isFavorite: Whether the link is a favorite.
    ///   - createdAt: When the link was added.
    ///   - categoryName: The name of its category, if any.
    public init(
      id: Link.ID, title: String, url: URL, isFavorite: Bool, createdAt: Date,
      categoryName: String?
    ) {
      self.id = id
      self.title = title
      self.url = url
      self.isFavorite = isFavorite
      self.createdAt = createdAt
      self.categoryName = categoryName
    }

    /// The row of a link.
    ///
    /// - Parameters:
    ///   - link: The link.
    ///   - categoryName: The name of its category, if any.
    public init(_ link: Link, categoryName: String?) {
      self.init(
        id: link.id, title: link.title, url: link.url, isFavorite: link.isFavorite,
        createdAt: link.createdAt, categoryName: categoryName)
    }
  }

  /// The screen's state.
  public struct State: Equatable, Sendable {
    /// Show only this category's links; `nil` for every link.
    public var categoryFilter: Category.ID?
    /// The links, newest first.
    public var rows: IdentifiedArrayOf<Row>
    /// The last failure, as a sentence for the user; `nil` after a success.
    public var errorMessage: String?

    /// Creates the state.
    ///
    /// - Parameters:
    ///   - categoryFilter: The category to show, or `nil` for all.
    ///   - rows: The rows.
    ///   - errorMessage: A failure to show, if any.
    public init(
      categoryFilter: Category.ID? = nil, rows: IdentifiedArrayOf<Row> = [],
      errorMessage: String? = nil
    ) {
      self.categoryFilter = categoryFilter
      self.rows = rows
      self.errorMessage = errorMessage
    }
  }

  /// What happens on the screen.
  public enum Action: Equatable, Sendable {
    /// The user chose a category to filter by, or `nil` for all links.
    case categoryFilterChanged(Category.ID?)
    /// Asks the parent to act.
    case delegate(Delegate)
    /// The client saved a favorite toggled on a row.
    case favoriteResponse(Result<Link, LinkError>)
    /// The client answered a load.
    case linksResponse(Result<[Row], LinkError>)
    /// The screen needs its list (it appeared, or something changed).
    case loadRequested
    /// A row's action.
    case rows(IdentifiedAction<Link.ID, LinkRow<Row>.Action>)

    /// What the screen asks its parent to do.
    public enum Delegate: Equatable, Sendable {
      /// Open a link.
      case openLink(Link.ID)
    }
  }

  private enum CancelID { case load }

  @Dependency(\.categoryClient) var categoryClient
  @Dependency(\.linkClient) var linkClient

  /// Creates the reducer.
  public init() {}

  /// The screen's logic.
  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .categoryFilterChanged(let categoryID):
        state.categoryFilter = categoryID
        return .none

      case .delegate:
        return .none

      case .favoriteResponse(.success(let link)):
        state.errorMessage = nil
        state.rows.showFavorite(of: link)
        return .none

      case .linksResponse(.success(let rows)):
        state.errorMessage = nil
        state.rows = IdentifiedArray(uniqueElements: rows)
        return .none

      case .favoriteResponse(.failure(let error)), .linksResponse(.failure(let error)):
        state.errorMessage = error.description
        return .none

      case .loadRequested:
        return load(state)

      case .rows(.element(let id, .delegate(.open))):
        return .send(.delegate(.openLink(id)))

      case .rows(.element(let id, .delegate(.setFavorite(let isFavorite)))):
        let linkClient = self.linkClient
        return .run { send in
          await send(
            .favoriteResponse(Result { try await linkClient.setFavorite(id, isFavorite) }))
        }

      case .rows:
        return .none
      }
    }
    .onChange(of: \.categoryFilter) { _, _ in
      Reduce { state, _ in load(state) }
    }
    .forEach(\.rows, action: .case(Action.rows)) {
      LinkRow<Row>()
    }
  }

  private func load(_ state: State) -> Effect<Action> {
    let filter = state.categoryFilter
    let categoryClient = self.categoryClient
    let linkClient = self.linkClient
    return .run { send in
      await send(
        .linksResponse(
          Result {
            let links =
              if let filter {
                try await linkClient.fetchLinksInCategory(filter)
              } else {
                try await linkClient.fetchLinks()
              }
            let names = Dictionary(
              try await categoryClient.fetchCategories().map { ($0.id, $0.name) },
              uniquingKeysWith: { first, _ in first })
            return links.map { Row($0, categoryName: $0.categoryID.flatMap { names[$0] }) }
          }))
    }
    .cancellable(id: CancelID.load, cancelInFlight: true)
  }
}
