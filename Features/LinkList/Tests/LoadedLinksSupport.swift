import CategoryClient
import LinkClient
import LinkList
import Loop

// What the tests expect a screen to do when it shows links: the same as the screen does, written
// once for every suite.

extension AllLinks.State {
  /// A screen showing `links` as pages read them, naming their categories by `names`.
  static func showing(
    _ links: [LinkSummary], names: [Category.ID: String] = [:],
    categoryFilter: Category.ID? = nil, nextPage: LinkPage.Cursor? = nil,
    isLastPageLoaded: Bool = false, droppedRowCount: Int = 0
  ) -> Self {
    AllLinks.State(
      categoryFilter: categoryFilter,
      links: Shared(value: IdentifiedArray(uniqueElements: links.map(LoadedLink.init))),
      rowIDs: links.map(\.id), categoryNames: names, nextPage: nextPage,
      isLastPageLoaded: isLastPageLoaded, droppedRowCount: droppedRowCount)
  }

  /// Shows `links` as the screen's rows, in order, keeping them in the shared links, with the
  /// category names a page read: what a load does.
  mutating func show(_ links: [LinkSummary], names: [Category.ID: String]) {
    rowIDs = links.map(\.id)
    categoryNames = names
    $links.withLock { loaded in
      for link in links { loaded.show(link) }
    }
  }
}

/// A screen that shows links read whole, by a search or a load ("Search", "Recent").
protocol ScreenOfWholeLinks {
  var rowIDs: [Link.ID] { get set }
  /// The screen's shared links (its `$links`).
  var sharedLinksOfTheScreen: Shared<IdentifiedArrayOf<LoadedLink>> { get }
}

extension ScreenOfWholeLinks {
  /// Shows `links` as the screen's rows, in order, keeping them in the shared links: what a
  /// search answered, or a load, does.
  mutating func show(_ links: [Link]) {
    rowIDs = links.map(\.id)
    sharedLinksOfTheScreen.withLock { loaded in
      for link in links { loaded.show(link) }
    }
  }
}

extension SearchLinks.State: ScreenOfWholeLinks {
  var sharedLinksOfTheScreen: Shared<IdentifiedArrayOf<LoadedLink>> { $links }
}

extension RecentLinks.State: ScreenOfWholeLinks {
  var sharedLinksOfTheScreen: Shared<IdentifiedArrayOf<LoadedLink>> { $links }
}

extension SearchLinks.State {
  /// A screen showing `links` found by `query`.
  static func showing(_ links: [Link], query: String = "") -> Self {
    SearchLinks.State(
      query: query,
      links: Shared(value: IdentifiedArray(uniqueElements: links.map(LoadedLink.init))),
      rowIDs: links.map(\.id))
  }
}

extension RecentLinks.State {
  /// A screen showing `links`, viewed most recently first.
  static func showing(_ links: [Link]) -> Self {
    RecentLinks.State(
      links: Shared(value: IdentifiedArray(uniqueElements: links.map(LoadedLink.init))),
      rowIDs: links.map(\.id))
  }
}

extension LinkList.Path.State {
  /// Changes the state of a category's screen; a link's screen stays as it is.
  mutating func modifyCategory(_ change: (inout AllLinks.State) -> Void) {
    guard case .category(var state) = self else { return }
    change(&state)
    self = .category(state)
  }

  /// Changes the state of a link's screen; a category's screen stays as it is.
  mutating func modifyDetail(_ change: (inout LinkDetail.State) -> Void) {
    guard case .detail(var state) = self else { return }
    change(&state)
    self = .detail(state)
  }
}
