import CategoryClient
import Foundation
import LinkClient
import Loop

/// The "All links" screen: every link, newest first, optionally only a category's, each row
/// showing its category's name.
///
/// The links load a page at a time, TCA's "load more": ``Action/onAppear`` loads the first
/// page, and ``Action/nextPageRequested`` (the user scrolled to the end of the rows) the page
/// after ``State/nextPage``, until it is `nil`. A page starts after a link, not at a position
/// (``LinkClient/LinkPage/Cursor``), so a link added or deleted meanwhile moves no other link to
/// another page. At most ``maximumRowCount`` rows stay loaded: a page beyond them drops the
/// oldest rows loaded (``State/droppedRowCount`` counts them), so a screen paged to the end of
/// 200,000 links holds as little as one paged to its second page.
///
/// Changing the category filter loads the list again; choosing the filter already shown changes
/// nothing (``Action/onAppear`` reloads).
///
/// A failure of the client is presented as an alert (``State/alert``, made by
/// `AlertState.failure(_:)`), which asks nothing and closes on `.alert(.dismiss)`.
///
/// It hosts ``LinkRow``s: it toggles favorites through the client, and asks its parent to open
/// a link.
public struct AllLinks: Reducer, Sendable {
  /// A row of the screen: a link with its category's name.
  ///
  /// It encodes with the link's own field names (`id`, `title`, `url`, `isFavorite`,
  /// `createdAt`), so the REPL's JSON reads like the link's. Its address is the text stored, as
  /// a page reads it (``LinkClient/LinkSummary``): opening the link reads the link itself.
  public struct Row: LinkRowItem, Codable {
    /// The link's id.
    public var id: Link.ID
    /// The link's title.
    public var title: String
    /// The link's address, as stored: an absolute `http` or `https` URL's text.
    public var url: String
    /// Whether the link is a favorite.
    public var isFavorite: Bool
    /// When the link was added: the screen's order, newest first.
    public var createdAt: Date
    /// The name of the link's category, or `nil` when it has none.
    public var categoryName: String?

    /// Creates a row.
    public init(
      id: Link.ID, title: String, url: String, isFavorite: Bool, createdAt: Date,
      categoryName: String?
    ) {
      self.id = id
      self.title = title
      self.url = url
      self.isFavorite = isFavorite
      self.createdAt = createdAt
      self.categoryName = categoryName
    }

    /// The row of a loaded link.
    public init(_ link: LoadedLink, categoryName: String?) {
      self.init(link.summary, categoryName: categoryName)
    }

    /// The row of a link's summary.
    // NB: read field by field, not through the loaded link's dynamic members: a listing built
    // each row from a copy of its whole loaded link.
    init(_ summary: LinkSummary, categoryName: String?) {
      self.init(
        id: summary.id, title: summary.title, url: summary.address,
        isFavorite: summary.isFavorite, createdAt: summary.createdAt, categoryName: categoryName)
    }
  }

  /// A page of the screen's links, with the names of the categories, and where the next page
  /// starts (`nil` after the last).
  public struct Page: Equatable, Sendable {
    /// The links, newest first.
    public var links: [LinkSummary]
    /// The name of every category, by id, as read with the page.
    public var categoryNames: [Category.ID: String]
    /// Where the next page starts; `nil` when this page is the last.
    public var next: LinkPage.Cursor?

    /// Creates a page.
    public init(
      links: [LinkSummary], categoryNames: [Category.ID: String] = [:], next: LinkPage.Cursor?
    ) {
      self.links = links
      self.categoryNames = categoryNames
      self.next = next
    }
  }

  /// The screen's state.
  public struct State: Equatable, Sendable {
    /// Show only this category's links; `nil` for every link.
    public var categoryFilter: Category.ID?
    /// What the links part loaded about the links, shared with its other screens.
    ///
    /// The parent's ``LinkList/LinkList/State/links``: the screen shows those of ``rowIDs``.
    /// Change it with `withLock`.
    @Shared public var links: IdentifiedArrayOf<LoadedLink>
    /// The links shown, newest first.
    ///
    /// The pages loaded since the first, without the rows dropped (``droppedRowCount``). An id
    /// whose link left ``links`` (it was deleted) shows no row.
    public var rowIDs: [Link.ID]
    /// The names of the categories, by id, as the last page read them: what each row shows of
    /// its link's category.
    public var categoryNames: [Category.ID: String]
    /// Where the next page starts; `nil` before the first page is loaded and after the last.
    public var nextPage: LinkPage.Cursor?
    /// Whether the last page is loaded: no link comes after the rows.
    public var isLastPageLoaded: Bool
    /// How many rows were loaded before ``rowIDs``' first, and dropped to keep at most
    /// ``AllLinks/maximumRowCount``; 0 when the rows start at the newest link.
    public var droppedRowCount: Int
    /// Why the client failed, shown over the screen; `nil` when none is shown.
    @Presents public var alert: AlertState<Action.Alert>?

    /// Creates the state.
    public init(
      categoryFilter: Category.ID? = nil,
      links: Shared<IdentifiedArrayOf<LoadedLink>> = Shared(value: []), rowIDs: [Link.ID] = [],
      categoryNames: [Category.ID: String] = [:], nextPage: LinkPage.Cursor? = nil,
      isLastPageLoaded: Bool = false, droppedRowCount: Int = 0,
      alert: AlertState<Action.Alert>? = nil
    ) {
      self.categoryFilter = categoryFilter
      self._links = links
      self.rowIDs = rowIDs
      self.categoryNames = categoryNames
      self.nextPage = nextPage
      self.isLastPageLoaded = isLastPageLoaded
      self.droppedRowCount = droppedRowCount
      self.alert = alert
    }

    /// The rows shown, newest first: each of ``rowIDs`` whose link is loaded, read through
    /// ``links``.
    ///
    /// - Complexity: O(*n*) in the rows.
    public var rows: IdentifiedArrayOf<Row> {
      let links = self.links
      var rows = IdentifiedArrayOf<Row>()
      // NB: appended one by one, so an id shown twice (which the pages never bring) shows once.
      for id in rowIDs {
        if let link = links[id: id] { rows.append(row(of: link)) }
      }
      return rows
    }

    /// The row of a link the screen shows, or `nil`.
    ///
    /// - Complexity: O(1).
    public func row(id: Link.ID) -> Row? {
      links[id: id].map(row(of:))
    }

    /// The rows from a place in ``rowIDs`` on, in their order: what a listing prints of the page
    /// it just loaded.
    ///
    /// - Parameter position: A place in ``rowIDs``; from past the last, none.
    /// - Returns: The rows of the ids from `position` on whose links are loaded.
    /// - Complexity: O(*k*) in the rows read, reading the shared links once (each read of a
    ///   shared value looks its reference up), and hashing an id only where the rows leave the
    ///   links' order.
    public func rows(from position: Int) -> [Row] {
      let links = self.links
      // NB: the rows follow the links in order: each is looked for after the last one found.
      var next = 0
      return rowIDs.dropFirst(max(0, position)).compactMap { id in
        guard let position = links.index(id: id, expectedAt: next) else { return nil }
        next = position + 1
        return row(of: links[position])
      }
    }

    private func row(of link: LoadedLink) -> Row {
      Row(link.summary, categoryName: link.summary.categoryID.flatMap { categoryNames[$0] })
    }

    /// Shows a link added since the rows were loaded, in its place among the rows, if it has one.
    ///
    /// It has one when it passes the filter, no row before it was dropped, and it comes before
    /// the next page (which brings it otherwise). Nothing changes before the first page is
    /// loaded.
    ///
    /// - Parameters:
    ///   - link: The link added.
    ///   - categoryName: The name of its category, if it has one.
    /// - Complexity: O(*n*) in the rows.
    public mutating func show(added link: Link, categoryName: String?) {
      guard nextPage != nil || isLastPageLoaded, droppedRowCount == 0,
        categoryFilter == nil || link.categoryID == categoryFilter,
        !rowIDs.contains(link.id), !(nextPage?.precedes(link) ?? false)
      else { return }
      let links = self.links
      // NB: the first row that comes after the link, newest first (a deleted link's id, with no
      // row, is passed over).
      let index =
        rowIDs.firstIndex { id in
          guard let row = links[id: id] else { return false }
          return row.createdAt < link.createdAt
            || (row.createdAt == link.createdAt && row.id < link.id)
        } ?? rowIDs.count
      rowIDs.insert(link.id, at: index)
      if let categoryID = link.categoryID, let categoryName {
        categoryNames[categoryID] = categoryName
      }
      $links.withLock { $0.show(link) }
    }
  }

  /// What happens on the screen.
  public enum Action: Equatable, Sendable {
    /// The closing of the failure shown (``State/alert``).
    case alert(PresentationAction<Alert>)
    /// The user chose a category to filter by, or `nil` for all links.
    case categoryFilterChanged(Category.ID?)
    /// Asks the parent to act.
    case delegate(Delegate)
    /// The client saved a favorite toggled on a row.
    case favoriteResponse(Result<Link, LinkError>)
    /// The client answered a load with the first page.
    case linksResponse(Result<Page, LinkError>)
    /// The interface needs the page after the rows (it printed them, or the user scrolled to
    /// their end); nothing happens when there is none (``State/nextPage`` is `nil`).
    case nextPageRequested
    /// The client answered with the page after ``State/nextPage``.
    case nextPageResponse(Result<Page, LinkError>)
    /// The screen is shown (it appeared, or something changed): its first page loads.
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

  /// How many rows a page has: unless given, the `linkPageSize` setting (see
  /// ``linkPageSizeSetting``), or 1,000 when it is unset.
  public let pageSize: Int
  /// The most rows kept loaded (at least a page's): 2,000 unless given.
  public let maximumRowCount: Int

  @Dependency(\.categoryClient) var categoryClient
  @Dependency(\.linkClient) var linkClient

  /// The setting that gives the page size when the reducer is not given one:
  /// `"linkPageSize"` in the app's settings file (`@Shared(.appStorage("linkPageSize"))`), read
  /// when the reducer is made; a value below 1 counts as 1.
  public static let linkPageSizeSetting = "linkPageSize"

  /// Creates the reducer, loading `pageSize` rows a page (the ``linkPageSizeSetting`` when
  /// `nil`) and keeping at most `maximumRowCount`.
  public init(pageSize: Int? = nil, maximumRowCount: Int = 2_000) {
    let pageSize =
      pageSize
      ?? max(1, Shared(wrappedValue: 1_000, .appStorage(Self.linkPageSizeSetting)).wrappedValue)
    precondition(pageSize > 0, "AllLinks(pageSize:) needs at least one row a page")
    self.pageSize = pageSize
    self.maximumRowCount = max(maximumRowCount, pageSize)
  }

  /// The screen's logic.
  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .categoryFilterChanged(let categoryID):
        state.categoryFilter = categoryID
        return .none

      case .linksResponse(.success(let page)):
        state.rowIDs = page.links.map(\.id)
        state.droppedRowCount = 0
        show(page, in: &state)
        return .none

      case .linksResponse(.failure(let error)), .nextPageResponse(.failure(let error)):
        state.alert = .failure(error)
        return .none

      case .onAppear:
        return load(state)

      case .nextPageRequested:
        guard let cursor = state.nextPage else { return .none }
        return fetch(state.categoryFilter, after: cursor) { .nextPageResponse($0) }

      case .nextPageResponse(.success(let page)):
        // NB: a page starts after the last row, so none of its links is among the rows; a
        // link shown since (``State/show(added:categoryName:)``) came before the page.
        // NB: the oldest rows dropped in place, then the page appended: the rows kept keep
        // their index entries, only the dropped and the new ids are hashed.
        // NB: the links dropped stay in the shared `links` until the parent lets go of what no
        // screen shows.
        let excess = max(0, state.rowIDs.count + page.links.count - maximumRowCount)
        let droppedRows = min(excess, state.rowIDs.count)
        state.rowIDs.removeFirst(droppedRows)
        let kept = page.links.dropFirst(excess - droppedRows)
        // NB: `map`, not a lazy map: a lazy map's iterator copies each link out (retaining its
        // strings) to read its id.
        state.rowIDs.append(contentsOf: kept.map(\.id))
        state.droppedRowCount += excess
        show(
          Page(links: Array(kept), categoryNames: page.categoryNames, next: page.next), in: &state)
        return .none

      case .alert, .delegate, .favoriteResponse, .rows:
        return .none
      }
    }
    .ifLet(\.$alert, action: .case(Action.alert))
    .onChange(of: \.categoryFilter) { _, _ in
      Reduce { state, _ in load(state) }
    }
    LinkRows<State, Action>()
  }

  /// Loads the first page, cancelling any page in flight.
  private func load(_ state: State) -> Effect<Action> {
    fetch(state.categoryFilter, after: nil) { .linksResponse($0) }
  }

  /// Keeps the page's links in the shared `links` and its category names, and notes where the
  /// page after it starts, and whether it was the last.
  private func show(_ page: Page, in state: inout State) {
    state.$links.withLock { links in
      for link in page.links { links.show(link) }
    }
    state.categoryNames = page.categoryNames
    state.nextPage = page.next
    state.isLastPageLoaded = page.next == nil
  }

  /// Fetches the page after `cursor` (the first when `nil`), with its links' category names,
  /// cancelling any page in flight: a newer request (another filter, a reload) always wins.
  private func fetch(
    _ filter: Category.ID?, after cursor: LinkPage.Cursor?,
    _ response: @escaping @Sendable (Result<Page, LinkError>) -> Action
  ) -> Effect<Action> {
    let pageSize = self.pageSize
    return .run { send in
      await send(
        response(
          Result {
            // NB: the names first: answering a page starts the live client reading the next
            // one, which holds the storage; asked after the page, the names would wait for it.
            let names = Dictionary(
              try await categoryClient.fetchCategories().map { ($0.id, $0.name) },
              uniquingKeysWith: { first, _ in first })
            let page = try await linkClient.fetchLinkPage(filter, cursor, pageSize)
            return Page(links: page.links, categoryNames: names, next: page.next)
          }))
    }
    .cancellable(id: CancelID.load, cancelInFlight: true)
  }
}

extension AllLinks.State: LinkRowsState {
  var sharedLinks: Shared<IdentifiedArrayOf<LoadedLink>> { $links }
}

extension AllLinks.Action: LinkRowsAction {
  static func openLink(_ id: Link.ID) -> Self { .delegate(.openLink(id)) }
}
