import CategoryClient
import Foundation
import LinkClient
import LinkList
import LoopTesting
import TestSupport
import Testing

@MainActor
@Suite struct AllLinksTests {
  let fixture = Fixture()

  func makeStore(_ state: AllLinks.State = AllLinks.State()) -> TestStore<
    AllLinks.State, AllLinks.Action
  > {
    TestStore(initialState: state) {
      AllLinks()
    } withDependencies: {
      fixture.prepare(&$0)
    }
  }

  /// Category "Work" (id 0); links "Swift" (1, in Work), "Kotlin" (2), "Rust" (3, in Work).
  @discardableResult
  func seed() async throws -> [Link] {
    let work = try await fixture.seed { categories, _ in try await categories.addCategory("Work") }
    return try await fixture.seedLinks(["Swift", "Kotlin", "Rust"], in: [work.id, nil, work.id])
  }

  let rust = LinkSummary(
    id: id(3), title: "Rust", address: seededURL(2).absoluteString, categoryID: id(0),
    createdAt: seededDate(2))
  let kotlin = LinkSummary(
    id: id(2), title: "Kotlin", address: seededURL(1).absoluteString, createdAt: seededDate(1))
  let swift = LinkSummary(
    id: id(1), title: "Swift", address: seededURL(0).absoluteString, categoryID: id(0),
    createdAt: seededDate(0))

  /// The names of ``seed()``'s categories, as a page reads them.
  let names: [Category.ID: String] = [id(0): "Work"]

  /// A last page of `links`, or one followed by the page after `next`, with the category names
  /// read with it.
  func page(
    _ links: [LinkSummary], next: LinkPage.Cursor? = nil, names: [Category.ID: String]? = nil
  ) -> AllLinks.Page {
    AllLinks.Page(links: links, categoryNames: names ?? self.names, next: next)
  }

  /// A screen showing `links`, loaded as pages read them, with ``seed()``'s category names.
  func showing(
    _ links: [LinkSummary], categoryFilter: Category.ID? = nil, nextPage: LinkPage.Cursor? = nil,
    isLastPageLoaded: Bool = false, droppedRowCount: Int = 0
  ) -> AllLinks.State {
    .showing(
      links, names: names, categoryFilter: categoryFilter, nextPage: nextPage,
      isLastPageLoaded: isLastPageLoaded, droppedRowCount: droppedRowCount)
  }

  // MARK: Loading

  @Test func loadRequestedShowsEveryLinkNewestFirstWithItsCategoryName() async throws {
    try await seed()
    let store = makeStore(AllLinks.State())
    await store.send(.onAppear)
    await store.receive(.linksResponse(.success(page([rust, kotlin, swift])))) {
      $0.show([rust, kotlin, swift], names: names)
      $0.isLastPageLoaded = true
    }
    #expect(
      store.state.rows == [
        AllLinks.Row(
          id: id(3), title: "Rust", url: seededURL(2).absoluteString, isFavorite: false,
          createdAt: seededDate(2), categoryName: "Work"),
        AllLinks.Row(
          id: id(2), title: "Kotlin", url: seededURL(1).absoluteString, isFavorite: false,
          createdAt: seededDate(1), categoryName: nil),
        AllLinks.Row(
          id: id(1), title: "Swift", url: seededURL(0).absoluteString, isFavorite: false,
          createdAt: seededDate(0), categoryName: "Work"),
      ])
    await store.finish()
  }

  @Test func categoryFilterChangedShowsOnlyThatCategorysLinks() async throws {
    try await seed()
    let store = makeStore()
    await store.send(.categoryFilterChanged(id(0))) { $0.categoryFilter = id(0) }
    await store.receive(.linksResponse(.success(page([rust, swift])))) {
      $0.show([rust, swift], names: names)
      $0.isLastPageLoaded = true
    }
    await store.send(.categoryFilterChanged(nil)) { $0.categoryFilter = nil }
    await store.receive(.linksResponse(.success(page([rust, kotlin, swift])))) {
      $0.show([rust, kotlin, swift], names: names)
    }
    await store.finish()
  }

  @Test func choosingTheFilterShownLoadsNothing() async throws {
    try await seed()
    let store = makeStore(showing([rust, swift], categoryFilter: id(0)))
    await store.send(.categoryFilterChanged(id(0)))
    await store.finish()
  }

  @Test func categoryFilterChangedToAMissingCategoryShowsTheAlertAndKeepsTheRows() async throws {
    try await seed()
    let store = makeStore(showing([kotlin]))
    await store.send(.categoryFilterChanged(id(9))) { $0.categoryFilter = id(9) }
    await store.receive(.linksResponse(.failure(.categoryNotFound(id(9))))) {
      $0.alert = AlertState {
        TextState("No category with id '00000000-0000-0000-0000-000000000009' exists.")
      }
    }
    await store.finish()
  }

  @Test func aFailedLoadShowsTheAlertAndKeepsTheRows() async {
    let store = makeStore(showing([kotlin]))
    store.dependencies.linkClient = .failing(.storageFailed("Disk full."))
    await store.send(.onAppear)
    await store.receive(.linksResponse(.failure(.storageFailed("Disk full.")))) {
      $0.alert = AlertState { TextState("The links could not be read or saved: Disk full.") }
    }
    await store.finish()
  }

  @Test func aLoadAfterAFailedOneShowsTheLinksUnderTheAlert() async throws {
    try await seed()
    let store = makeStore()
    store.dependencies.linkClient = .failing(.storageFailed("Disk full."))
    await store.send(.onAppear)
    await store.receive(.linksResponse(.failure(.storageFailed("Disk full.")))) {
      $0.alert = AlertState { TextState("The links could not be read or saved: Disk full.") }
    }
    store.dependencies.linkClient = fixture.linkClient
    await store.send(.onAppear)
    await store.receive(.linksResponse(.success(page([rust, kotlin, swift])))) {
      $0.show([rust, kotlin, swift], names: names)
      $0.isLastPageLoaded = true
    }
    await store.finish()
  }

  @Test func aFilterChangedWhileTheLastFiltersLoadIsInFlightShowsOnlyTheNewFiltersLinks()
    async throws
  {
    try await seed()
    // NB: Work's links are read first but answer last: a stale answer arriving after the new one.
    let answers = HeldAnswers(answeringAt: .seconds(2), .seconds(1))
    let client = fixture.linkClient
    let store = makeStore()
    store.dependencies.linkClient.fetchLinkPage = { categoryID, cursor, limit in
      try await answers.answer { try await client.fetchLinkPage(categoryID, cursor, limit) }
    }
    await store.send(.categoryFilterChanged(id(0))) { $0.categoryFilter = id(0) }
    await answers.waitForRead(0)
    await store.send(.categoryFilterChanged(nil)) { $0.categoryFilter = nil }
    await answers.clock.advance(by: .seconds(1))
    await store.receive(.linksResponse(.success(page([rust, kotlin, swift])))) {
      $0.show([rust, kotlin, swift], names: names)
      $0.isLastPageLoaded = true
    }
    await answers.clock.advance(by: .seconds(1))
    await store.finish()
  }

  // MARK: Pages

  /// Five links, "1" (the oldest) to "5", a minute apart, none in a category.
  @discardableResult
  func seedFive() async throws -> [LinkSummary] {
    let links = try await fixture.seedLinks(["1", "2", "3", "4", "5"])
    return links.reversed().map(LinkSummary.init)
  }

  func paging(
    _ state: AllLinks.State = AllLinks.State(), pageSize: Int = 2, maximumRowCount: Int = 10
  ) -> TestStore<AllLinks.State, AllLinks.Action> {
    TestStore(initialState: state) {
      AllLinks(pageSize: pageSize, maximumRowCount: maximumRowCount)
    } withDependencies: {
      fixture.prepare(&$0)
    }
  }

  /// Where the page after `row` starts.
  func after(_ row: LinkSummary) -> LinkPage.Cursor {
    LinkPage.Cursor(createdAt: row.createdAt, id: row.id)
  }

  /// Shows the first page of ``seedFive()``'s rows on a ``paging()`` store: "5" and "4".
  func showFirstPage(
    of rows: [LinkSummary], in store: TestStore<AllLinks.State, AllLinks.Action>
  ) async {
    await store.send(.onAppear)
    await store.receive(
      .linksResponse(.success(page([rows[0], rows[1]], next: after(rows[1]), names: [:])))
    ) {
      $0.show([rows[0], rows[1]], names: [:])
      $0.nextPage = after(rows[1])
    }
  }

  @Test func thePageSizeSettingSetsTheSizeOfAPage() async throws {
    let rows = try await seedFive()
    @Shared(.appStorage(AllLinks.linkPageSizeSetting)) var linkPageSize = 1_000
    $linkPageSize.withLock { $0 = 2 }
    let store = makeStore()
    #expect(AllLinks().pageSize == 2)
    await showFirstPage(of: rows, in: store)
  }

  @Test func aPageSizeSettingBelowOneCountsAsOne() {
    @Shared(.appStorage(AllLinks.linkPageSizeSetting)) var linkPageSize = 1_000
    $linkPageSize.withLock { $0 = 0 }
    #expect(AllLinks().pageSize == 1)
  }

  @Test func withoutThePageSizeSettingAPageHasAThousandRows() {
    #expect(AllLinks().pageSize == 1_000)
  }

  /// Shows the second page after the first: "3" and "2".
  func showSecondPage(
    of rows: [LinkSummary], in store: TestStore<AllLinks.State, AllLinks.Action>
  ) async {
    await store.send(.nextPageRequested)
    await store.receive(
      .nextPageResponse(.success(page([rows[2], rows[3]], next: after(rows[3]), names: [:])))
    ) {
      $0.show([rows[0], rows[1], rows[2], rows[3]], names: [:])
      $0.nextPage = after(rows[3])
    }
  }

  /// Shows the last page after the second: "1".
  func showLastPage(
    of rows: [LinkSummary], in store: TestStore<AllLinks.State, AllLinks.Action>
  ) async {
    await store.send(.nextPageRequested)
    await store.receive(.nextPageResponse(.success(page([rows[4]], names: [:])))) {
      $0.show(rows, names: [:])
      $0.nextPage = nil
      $0.isLastPageLoaded = true
    }
  }

  @Test func pagesLoadOneAfterAnotherUntilTheLastThenNoMore() async throws {
    let rows = try await seedFive()
    let store = paging()
    await showFirstPage(of: rows, in: store)
    await showSecondPage(of: rows, in: store)
    await showLastPage(of: rows, in: store)
    await store.send(.nextPageRequested)
    await store.finish()
  }

  @Test func aLinkAddedWhilePagingMovesNoLinkToAnotherPage() async throws {
    let rows = try await seedFive()
    let store = paging()
    await showFirstPage(of: rows, in: store)
    // A sixth link, the newest: a page counted by position would now start one link earlier
    // and read "4" again.
    try await fixture.seedLinks(["6"])
    await showSecondPage(of: rows, in: store)
    await showLastPage(of: rows, in: store)
    await store.finish()
  }

  @Test func aLinkDeletedWhilePagingSkipsNoOtherLink() async throws {
    let rows = try await seedFive()
    let store = paging()
    await showFirstPage(of: rows, in: store)
    // "4", the last row loaded, is deleted: the next page still starts after it.
    try await fixture.linkClient.deleteLink(rows[1].id)
    await showSecondPage(of: rows, in: store)
    await store.finish()
  }

  @Test func pagesBeyondTheMostRowsKeptDropTheOldestRows() async throws {
    let rows = try await seedFive()
    let store = paging(maximumRowCount: 3)
    await showFirstPage(of: rows, in: store)
    await store.send(.nextPageRequested)
    // NB: the links of the rows dropped stay loaded: the parent lets go of what no screen shows.
    await store.receive(
      .nextPageResponse(.success(page([rows[2], rows[3]], next: after(rows[3]), names: [:])))
    ) {
      $0.show([rows[1], rows[2], rows[3]], names: [:])
      $0.nextPage = after(rows[3])
      $0.droppedRowCount = 1
    }
    await store.send(.nextPageRequested)
    await store.receive(.nextPageResponse(.success(page([rows[4]], names: [:])))) {
      $0.show([rows[2], rows[3], rows[4]], names: [:])
      $0.nextPage = nil
      $0.isLastPageLoaded = true
      $0.droppedRowCount = 2
    }
    #expect(store.state.rows.map(\.title) == ["3", "2", "1"])
    await store.send(.onAppear)
    await store.receive(
      .linksResponse(.success(page([rows[0], rows[1]], next: after(rows[1]), names: [:])))
    ) {
      $0.show([rows[0], rows[1]], names: [:])
      $0.nextPage = after(rows[1])
      $0.isLastPageLoaded = false
      $0.droppedRowCount = 0
    }
    await store.finish()
  }

  @Test func aNextPageOfMoreRowsThanAreKeptKeepsItsNewestRows() async throws {
    let rows = try await seedFive()
    var state = showing([rows[0]], nextPage: after(rows[0]))
    state.categoryNames = [:]
    let store = paging(state, pageSize: 2, maximumRowCount: 2)
    // NB: a client answering more rows than the page asked for.
    store.dependencies.linkClient.fetchLinkPage = { _, _, _ in
      LinkPage(links: Array(rows[1...3]), next: nil)
    }
    await store.send(.nextPageRequested)
    await store.receive(
      .nextPageResponse(.success(page([rows[1], rows[2], rows[3]], names: [:])))
    ) {
      // NB: the newest link of the page is dropped at once: it is never loaded.
      $0.show([rows[2], rows[3]], names: [:])
      $0.nextPage = nil
      $0.isLastPageLoaded = true
      $0.droppedRowCount = 2
    }
    await store.finish()
  }

  @Test func aFailedNextPageShowsTheAlertKeepsTheRowsAndIsAskedAgain() async throws {
    let rows = try await seedFive()
    let store = paging()
    await showFirstPage(of: rows, in: store)
    store.dependencies.linkClient = .failing(.storageFailed("Disk full."))
    await store.send(.nextPageRequested)
    await store.receive(.nextPageResponse(.failure(.storageFailed("Disk full.")))) {
      $0.alert = AlertState { TextState("The links could not be read or saved: Disk full.") }
    }
    store.dependencies.linkClient = fixture.linkClient
    await store.send(.nextPageRequested)
    await store.receive(
      .nextPageResponse(.success(page([rows[2], rows[3]], next: after(rows[3]), names: [:])))
    ) {
      $0.show([rows[0], rows[1], rows[2], rows[3]], names: [:])
      $0.nextPage = after(rows[3])
    }
    await store.finish()
  }

  @Test func aFilterChangedWhileTheNextPageLoadsShowsOnlyTheNewFiltersFirstPage() async throws {
    let work = try await fixture.seed { categories, _ in try await categories.addCategory("Work") }
    let links = try await fixture.seedLinks(["1", "2", "3"], in: [work.id, nil, work.id])
    let rows = links.reversed().map(LinkSummary.init)
    // NB: the next page is read first but answers last: a stale page arriving after the new one.
    let answers = HeldAnswers(answeringAt: .seconds(2), .seconds(1))
    let client = fixture.linkClient
    let store = paging(showing([rows[0], rows[1]], nextPage: after(rows[1])))
    store.dependencies.linkClient.fetchLinkPage = { categoryID, cursor, limit in
      try await answers.answer { try await client.fetchLinkPage(categoryID, cursor, limit) }
    }
    await store.send(.nextPageRequested)
    await answers.waitForRead(0)
    await store.send(.categoryFilterChanged(work.id)) { $0.categoryFilter = work.id }
    await answers.clock.advance(by: .seconds(1))
    await store.receive(.linksResponse(.success(page([rows[0], rows[2]])))) {
      $0.show([rows[0], rows[2]], names: names)
      $0.nextPage = nil
      $0.isLastPageLoaded = true
    }
    await answers.clock.advance(by: .seconds(1))
    await store.finish()
  }

  @Test func aPageOfNoRowsIsRefused() async throws {
    let result = try #require(
      await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        _ = AllLinks(pageSize: 0)
      })
    let standardError = String(decoding: result.standardErrorContent, as: UTF8.self)
    #expect(standardError.contains("AllLinks(pageSize:) needs at least one row a page"))
  }

  // MARK: Added links

  @Test func rowsFromAPlaceReadTheRowsFromThereOnPassingOverALinkDeletedMeanwhile() {
    let state = showing([rust, kotlin, swift], isLastPageLoaded: true)
    #expect(state.rows(from: 1).map(\.title) == ["Kotlin", "Swift"])
    #expect(state.rows(from: 0).map(\.categoryName) == ["Work", nil, "Work"])
    state.$links.withLock { _ = $0.remove(id: kotlin.id) }
    #expect(state.rows(from: 1).map(\.title) == ["Swift"])
    #expect(state.rows(from: 3).isEmpty)
    #expect(state.rows(from: 9).isEmpty)
  }

  @Test func anAddedLinkShowsInItsPlaceAmongTheLoadedRows() {
    let newest = Link(
      id: id(9), title: "Zig", url: seededURL(9), createdAt: seededDate(3))
    var state = showing([rust, kotlin, swift], isLastPageLoaded: true)
    state.show(added: newest, categoryName: nil)
    #expect(state.rows.map(\.title) == ["Zig", "Rust", "Kotlin", "Swift"])
    let between = Link(
      id: id(8), title: "Go", url: seededURL(8), categoryID: id(5), createdAt: seededDate(1))
    state.show(added: between, categoryName: "Home")
    #expect(state.rows.map(\.title) == ["Zig", "Rust", "Go", "Kotlin", "Swift"])
    #expect(state.rows[id: id(8)]?.categoryName == "Home")
    #expect(state.links[id: id(8)] == LoadedLink(between))
  }

  @Test func anAddedLinkAsOldAsARowGoesAfterItWhenItsIdIsSmaller() {
    // NB: the client's order, newest first and then the larger id first: Kotlin (id 2) comes
    // before a link of its own time with id 0.
    let twin = Link(id: id(0), title: "Go", url: seededURL(8), createdAt: kotlin.createdAt)
    var state = showing([rust, kotlin, swift], isLastPageLoaded: true)
    state.show(added: twin, categoryName: nil)
    #expect(state.rows.map(\.title) == ["Rust", "Kotlin", "Go", "Swift"])
  }

  @Test func anAddedLinkPassesOverTheIdOfALinkDeletedMeanwhile() {
    var state = showing([rust, kotlin, swift], isLastPageLoaded: true)
    state.$links.withLock { _ = $0.remove(id: kotlin.id) }
    let oldest = Link(
      id: id(7), title: "Ada", url: seededURL(7),
      createdAt: Fixture.start.addingTimeInterval(-60))
    state.show(added: oldest, categoryName: nil)
    #expect(state.rows.map(\.title) == ["Rust", "Swift", "Ada"])
  }

  /// Where the loaded rows cannot tell an added link's place, so it is not shown.
  enum UnplacedLink: CaseIterable {
    /// No page is loaded yet.
    case beforeTheFirstPage
    /// Rows before the first loaded were dropped: the link may belong among them.
    case afterDroppedRows
    /// The link is not in the category shown.
    case outsideTheFilter
    /// The link is older than the last row loaded, with a page to come: that page brings it.
    case onAPageToCome
    /// The link is shown already.
    case alreadyShown
  }

  /// The state and the added link of each ``UnplacedLink`` case.
  func story(_ unplaced: UnplacedLink) -> (AllLinks.State, Link) {
    let zig = Link(id: id(9), title: "Zig", url: seededURL(9), createdAt: seededDate(3))
    switch unplaced {
    case .beforeTheFirstPage:
      return (AllLinks.State(), zig)
    case .afterDroppedRows:
      return (
        showing([kotlin, swift], isLastPageLoaded: true, droppedRowCount: 1), zig
      )
    case .outsideTheFilter:
      return (
        showing([rust, swift], categoryFilter: id(0), isLastPageLoaded: true), zig
      )
    case .onAPageToCome:
      let old = Link(
        id: id(7), title: "Ada", url: seededURL(7),
        createdAt: Fixture.start.addingTimeInterval(-60))
      let cursor = LinkPage.Cursor(createdAt: kotlin.createdAt, id: kotlin.id)
      return (showing([rust, kotlin], nextPage: cursor), old)
    case .alreadyShown:
      var shown = showing([rust, kotlin, swift], isLastPageLoaded: true)
      shown.show(added: zig, categoryName: nil)
      return (shown, zig)
    }
  }

  @Test(arguments: UnplacedLink.allCases)
  func anAddedLinkIsNotShownWhereTheRowsCannotTellItsPlace(_ unplaced: UnplacedLink) {
    var (state, link) = story(unplaced)
    let rows = state.rows.map(\.title)
    state.show(added: link, categoryName: nil)
    #expect(state.rows.map(\.title) == rows)
  }

  // MARK: Rows

  @Test func openingARowAsksTheParentToOpenTheLink() async throws {
    let store = makeStore(showing([kotlin]))
    await store.send(.rows(.element(id: id(2), action: .selected)))
    await store.receive(.rows(.element(id: id(2), action: .delegate(.open))))
    await store.receive(.delegate(.openLink(id(2))))
    await store.finish()
  }

  @Test func aRowActionForALinkTheScreenDoesNotShowIsReportedAndDoesNothing() async throws {
    let unshown: Link.ID = id(1)
    let store = makeStore(showing([kotlin]))
    let issues = IssueCollector()
    await withIssueReporter(issues) {
      await store.send(.rows(.element(id: unshown, action: .favoriteSubmitted)))
    }
    #expect(
      issues.messages == [
        """
        A screen of links received an action for a row it does not show (link \(unshown)): \
        favoriteSubmitted

        This is usually an action sent after its link left the screen. To fix, send row \
        actions only for the links the screen shows.
        """
      ])
    await store.finish()
  }

  @Test func togglingARowsFavoriteSavesItThenShowsIt() async throws {
    var saved = try await seed()[1]
    saved.isFavorite = true
    let store = makeStore(showing([rust, kotlin, swift]))
    await store.send(.rows(.element(id: id(2), action: .favoriteSubmitted)))
    await store.receive(.rows(.element(id: id(2), action: .delegate(.setFavorite(true)))))
    // NB: the link as saved, read whole, in the links the screens share.
    await store.receive(.favoriteResponse(.success(saved))) {
      $0.$links.withLock { $0[id: id(2)] = LoadedLink(saved) }
    }
    #expect(store.state.rows[id: id(2)]?.isFavorite == true)
    await store.finish()
    #expect(try await fixture.stored(id(2)).isFavorite)
    await store.send(.rows(.element(id: id(2), action: .favoriteSubmitted)))
    await store.receive(.rows(.element(id: id(2), action: .delegate(.setFavorite(false)))))
    saved.isFavorite = false
    await store.receive(.favoriteResponse(.success(saved))) {
      $0.$links.withLock { $0[id: id(2)]?.isFavorite = false }
    }
    await store.finish()
    #expect(try await !fixture.stored(id(2)).isFavorite)
  }

  @Test func togglingTheFavoriteOfALinkDeletedMeanwhileShowsTheAlert() async throws {
    try await seed()
    try await fixture.linkClient.deleteLink(id(2))
    let store = makeStore(showing([kotlin]))
    await store.send(.rows(.element(id: id(2), action: .favoriteSubmitted)))
    await store.receive(.rows(.element(id: id(2), action: .delegate(.setFavorite(true)))))
    await store.receive(.favoriteResponse(.failure(.notFound(id(2))))) {
      $0.alert = AlertState {
        TextState("No link with id '00000000-0000-0000-0000-000000000002' exists.")
      }
    }
    await store.finish()
  }

  @Test func aFavoriteSavedAfterAFailedOneShowsUnderTheAlert() async throws {
    var saved = try await seed()[0]
    saved.isFavorite = true
    try await fixture.linkClient.deleteLink(id(2))
    let store = makeStore(showing([kotlin, swift]))
    await store.send(.rows(.element(id: id(2), action: .favoriteSubmitted)))
    await store.receive(.rows(.element(id: id(2), action: .delegate(.setFavorite(true)))))
    await store.receive(.favoriteResponse(.failure(.notFound(id(2))))) {
      $0.alert = AlertState {
        TextState("No link with id '00000000-0000-0000-0000-000000000002' exists.")
      }
    }
    await store.send(.rows(.element(id: id(1), action: .favoriteSubmitted)))
    await store.receive(.rows(.element(id: id(1), action: .delegate(.setFavorite(true)))))
    await store.receive(.favoriteResponse(.success(saved))) {
      $0.$links.withLock { $0[id: id(1)] = LoadedLink(saved) }
    }
    await store.finish()
  }

  @Test func delegateActionsAreForTheParentAndChangeNothing() async {
    let store = makeStore()
    await store.send(.delegate(.openLink(id(1))))
    await store.finish()
  }
}
