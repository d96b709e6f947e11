import Categories
import CategoryClient
import DraftEditor
import Foundation
import LinkClient
import LinkList
import LoopTesting
import TestSupport
import Testing

@MainActor
@Suite struct LinkListTests {
  let fixture = Fixture()

  func makeStore(_ state: LinkList.State = LinkList.State()) -> TestStore<
    LinkList.State, LinkList.Action
  > {
    TestStore(initialState: state) {
      LinkList()
    } withDependencies: {
      fixture.prepare(&$0)
    }
  }

  /// The stored story every test starts from: category "Work" (id 0); links "Swift" (1, in
  /// Work), "Kotlin" (2) and "Rust" (3, in Work), a minute apart; then Kotlin viewed.
  struct Seeded {
    var work: Category
    var swift: Link
    var kotlin: Link
    var rust: Link
  }

  func seed() async throws -> Seeded {
    let work = try await fixture.seed { categories, _ in try await categories.addCategory("Work") }
    let links = try await fixture.seedLinks(
      ["Swift", "Kotlin", "Rust"], in: [work.id, nil, work.id])
    let kotlin = try await fixture.seed { _, client in try await client.markViewed(id(2)) }
    return Seeded(work: work, swift: links[0], kotlin: kotlin, rust: links[2])
  }

  // MARK: Screens as they show links

  /// The names of the seeded categories, as a page of "All links" reads them.
  let workNames: [Category.ID: String] = [id(0): "Work"]

  /// The one page of "All links" the client answers with: `links`, and none after, with the
  /// category names (the seeded ones unless given).
  func allPage(_ links: [Link], names: [Category.ID: String]? = nil) -> AllLinks.Page {
    AllLinks.Page(
      links: links.map(LinkSummary.init), categoryNames: names ?? workNames, next: nil)
  }

  /// "All links" reloads after a change: it is shown again, and its one page of `links` arrives.
  func receiveAllLinksReload(
    of links: [Link], names: [Category.ID: String]? = nil,
    in store: TestStore<LinkList.State, LinkList.Action>
  ) async {
    await store.receive(.all(.onAppear))
    await store.receive(.all(.linksResponse(.success(allPage(links, names: names))))) {
      $0.all.show(links.map(LinkSummary.init), names: names ?? workNames)
      $0.all.isLastPageLoaded = true
    }
  }

  /// "All links" showing `links` as its pages read them, with the seeded category names.
  func allShowing(
    _ links: [Link], categoryFilter: Category.ID? = nil, isLastPageLoaded: Bool = false
  ) -> AllLinks.State {
    .showing(
      links.map(LinkSummary.init), names: workNames, categoryFilter: categoryFilter,
      isLastPageLoaded: isLastPageLoaded)
  }

  /// "All links" with every seeded link loaded, newest first, and no page after.
  func allLinksLoaded(_ seeded: Seeded) -> AllLinks.State {
    allShowing([seeded.rust, seeded.kotlin, seeded.swift], isLastPageLoaded: true)
  }

  /// The opened link, read whole.
  func detail(_ link: Link) -> LinkDetail.State {
    LinkDetail.State(linkID: link.id, links: Shared(value: [LoadedLink(link)]))
  }

  /// Every screen loaded: "All links" and "Search" with every seeded link, "Recent" with Kotlin.
  func everyScreenLoaded(
    _ seeded: Seeded, screen: LinkList.Screen = .all, destination: LinkList.Destination.State? = nil
  ) -> LinkList.State {
    let links = [seeded.rust, seeded.kotlin, seeded.swift]
    return LinkList.State(
      screen: screen, all: allShowing(links), search: .showing(links),
      recent: .showing([seeded.kotlin]), destination: destination)
  }

  /// A link "Go" in "Work" added a minute after the seeded ones: as drafted, and as stored (the
  /// fixture's next id, 4).
  func goInWork(_ seeded: Seeded) -> (draft: LinkDraft, link: Link) {
    fixture.advance(by: 60)
    let draft = LinkDraft(title: "Go", url: "https://go.dev", categoryID: seeded.work.id)
    let link = Link(
      id: id(4), title: "Go", url: url("https://go.dev"), categoryID: seeded.work.id,
      createdAt: fixture.date)
    return (draft, link)
  }

  // MARK: Screens

  @Test func screenSelectedShowsAndLoadsEachScreen() async throws {
    let seeded = try await seed()
    let newestFirst = [seeded.rust, seeded.kotlin, seeded.swift]
    let store = makeStore()
    await store.send(.screenSelected(.search)) { $0.screen = .search }
    await store.receive(.search(.onAppear)) { $0.search.isSearching = true }
    await store.receive(.search(.searchResponse(.success(newestFirst)))) {
      $0.search.isSearching = false
      $0.search.show(newestFirst)
    }
    await store.send(.screenSelected(.recent)) { $0.screen = .recent }
    await store.receive(.recent(.onAppear))
    await store.receive(.recent(.linksResponse(.success([seeded.kotlin])))) {
      $0.recent.rowIDs = [id(2)]
    }
    await store.send(.screenSelected(.all)) { $0.screen = .all }
    await store.receive(.all(.onAppear))
    await store.receive(
      .all(.linksResponse(.success(allPage(newestFirst))))
    ) {
      $0.all.show(newestFirst.map(LinkSummary.init), names: workNames)
      $0.all.isLastPageLoaded = true
    }
    // NB: the screens read one link's facts from one place.
    #expect(store.state.links.map(\.title) == ["Rust", "Kotlin", "Swift"])
    await store.finish()
  }

  // MARK: Opening

  @Test func linkOpenedShowsTheLinkWithItsCommentsAndRecordsTheView() async throws {
    let seeded = try await seed()
    let comment = try await fixture.seed { _, links in try await links.addComment(id(1), "Read") }
    fixture.advance(by: 60)
    var viewed = seeded.swift
    viewed.lastViewedDate = fixture.date
    let store = makeStore()
    await store.send(.linkSelected(id(1))) {
      $0.destination = .detail(LinkDetail.State(linkID: id(1), links: $0.$links))
    }
    await store.receive(.destination(.presented(.detail(.onAppear))))
    await store.receive(
      .destination(
        .presented(
          .detail(
            .contentResponse(.success(LinkDetail.Content(link: viewed, comments: [comment]))))))
    ) {
      $0.$links.withLock { $0.show(viewed) }
      $0.destination?.detail?.comments = [comment]
    }
    await store.finish()
    #expect(try await fixture.linkClient.fetchRecentLinks().map(\.id) == [id(1), id(2)])
  }

  @Test func openingARowOnAnyScreenShowsItsDetail() async throws {
    let seeded = try await seed()
    let store = makeStore(everyScreenLoaded(seeded))
    let opens: [(LinkList.Action, [LinkList.Action])] = [
      (
        .all(.rows(.element(id: id(2), action: .selected))),
        [
          .all(.rows(.element(id: id(2), action: .delegate(.open)))),
          .all(.delegate(.openLink(id(2)))),
        ]
      ),
      (
        .search(.rows(.element(id: id(2), action: .selected))),
        [
          .search(.rows(.element(id: id(2), action: .delegate(.open)))),
          .search(.delegate(.openLink(id(2)))),
        ]
      ),
      (
        .recent(.rows(.element(id: id(2), action: .selected))),
        [
          .recent(.rows(.element(id: id(2), action: .delegate(.open)))),
          .recent(.delegate(.openLink(id(2)))),
        ]
      ),
    ]
    for (tap, delegates) in opens {
      fixture.advance(by: 1)
      var viewed = seeded.kotlin
      viewed.lastViewedDate = fixture.date
      await store.send(tap)
      await store.receive(delegates[0])
      await store.receive(delegates[1]) {
        $0.destination = .detail(LinkDetail.State(linkID: id(2), links: $0.$links))
      }
      await store.receive(.destination(.presented(.detail(.onAppear))))
      await store.receive(
        .destination(
          .presented(
            .detail(.contentResponse(.success(LinkDetail.Content(link: viewed, comments: []))))))
      ) {
        // NB: the view is recorded on every screen that shows the link.
        $0.$links.withLock { $0.show(viewed) }
      }
      #expect(store.state.recent.rows[id: id(2)]?.lastViewedDate == fixture.date)
      await store.send(.destination(.dismiss)) { $0.destination = nil }
    }
    await store.finish()
  }

  @Test func dismissingTheDetailClosesTheLink() async {
    let store = makeStore(LinkList.State(destination: .detail(LinkDetail.State(linkID: id(1)))))
    await store.send(.destination(.dismiss)) { $0.destination = nil }
    await store.finish()
  }

  @Test func dismissingTheDetailCancelsItsLoading() async throws {
    _ = try await seed()
    let store = makeStore()
    let (clock, client) = (fixture.clock, fixture.linkClient)
    store.dependencies.linkClient.markViewed = { id in
      try await clock.sleep(for: .seconds(1))
      return try await client.markViewed(id)
    }
    await store.send(.linkSelected(id(1))) {
      $0.destination = .detail(LinkDetail.State(linkID: id(1), links: $0.$links))
    }
    await store.receive(.destination(.presented(.detail(.onAppear))))
    await store.send(.destination(.dismiss)) { $0.destination = nil }
    // The answer would have arrived for a detail that is gone: it never does.
    await fixture.clock.advance(by: .seconds(1))
    await store.finish()
  }

  @Test func aDetailFailureShowsInTheDetailsOwnAlertAndStoresNothing() async throws {
    let seeded = try await seed()
    let store = makeStore(
      LinkList.State(
        destination: .detail(detail(seeded.swift))))
    await store.send(.destination(.presented(.detail(.addCommentSubmitted(" ")))))
    await store.receive(
      .destination(.presented(.detail(.addCommentResponse(.failure(.emptyComment)))))
    ) {
      $0.destination?.detail?.alert = AlertState { TextState("A comment cannot be empty.") }
    }
    await store.send(.destination(.presented(.detail(.alert(.dismiss))))) {
      $0.destination?.detail?.alert = nil
    }
    await store.finish()
    #expect(try await fixture.linkClient.fetchComments(seeded.swift.id) == [])
  }

  @Test func dismissingTheDetailCancelsACommentInFlight() async throws {
    let seeded = try await seed()
    let store = makeStore(
      LinkList.State(
        destination: .detail(detail(seeded.swift))))
    let (clock, client) = (fixture.clock, fixture.linkClient)
    store.dependencies.linkClient.addComment = { linkID, text in
      try await clock.sleep(for: .seconds(1))
      return try await client.addComment(linkID, text)
    }
    await store.send(.destination(.presented(.detail(.addCommentSubmitted("late")))))
    // NB: no screen shows the link once its detail closes: it is let go of.
    await store.send(.destination(.dismiss)) {
      $0.destination = nil
      $0.$links.withLock { $0 = [] }
    }
    // The answer would have arrived for a detail that is gone: it never does, nor is it stored.
    await fixture.clock.advance(by: .seconds(1))
    await store.finish()
    #expect(try await client.fetchComments(seeded.swift.id) == [])
  }

  // MARK: Adding and updating

  @Test func addLinkTappedOpensAnEmptyEditorInTheCategoryShown() async {
    let store = makeStore(LinkList.State(all: AllLinks.State(categoryFilter: id(0))))
    await store.send(.newLinkSubmitted) {
      $0.destination = .editor(LinkEditor.State(mode: .add, draft: LinkDraft(categoryID: id(0))))
    }
    await store.finish()
  }

  @Test func addLinkSubmittedSavesTheLinkInOneStepAndAnswersWithTheDigitsThatNameIt()
    async throws
  {
    let draft = LinkDraft(title: "Swift", url: "https://swift.org")
    let link = Link(
      id: id(0), title: "Swift", url: url("https://swift.org"),
      createdAt: Fixture.start)
    let store = makeStore(LinkList.State(screen: .recent))
    await store.send(.addLinkSubmitted(draft))
    // NB: the only link: its first digit names it alone.
    await store.receive(.addLinkResponse(.success(SavedLink(link: link, idPrefixLength: 1))))
    await store.finish()
    #expect(try await fixture.linkClient.fetchLinks() == [link])
  }

  @Test func anAddedLinkShowsAmongTheLoadedRowsOfAllLinksWithItsCategory() async throws {
    let seeded = try await seed()
    let store = makeStore(
      LinkList.State(
        all: allLinksLoaded(seeded),
        categories: Categories.State(
          rows: [CategorySummary(category: seeded.work, linkCount: 2)])))
    let (draft, link) = goInWork(seeded)
    await store.send(.addLinkSubmitted(draft))
    // NB: the ids count up: id 4 shares 31 digits with id 3, its neighbour.
    await store.receive(.addLinkResponse(.success(SavedLink(link: link, idPrefixLength: 32)))) {
      $0.all.rowIDs.insert(id(4), at: 0)
      $0.$links.withLock { $0.show(link) }
    }
    #expect(store.state.all.rows.first?.categoryName == "Work")
    await store.finish()
  }

  @Test func aLinkAddedInACategoryNotLoadedReloadsAllLinksToNameIt() async throws {
    let seeded = try await seed()
    let store = makeStore(
      LinkList.State(
        all: allLinksLoaded(seeded)))
    let (draft, link) = goInWork(seeded)
    await store.send(.addLinkSubmitted(draft))
    await store.receive(.addLinkResponse(.success(SavedLink(link: link, idPrefixLength: 32))))
    await receiveAllLinksReload(of: [link, seeded.rust, seeded.kotlin, seeded.swift], in: store)
    await store.finish()
  }

  @Test func aLinkAddedInACategoryNotLoadedLeavesAllLinksAloneWhileItIsNotShown() async throws {
    let seeded = try await seed()
    let store = makeStore(
      LinkList.State(
        screen: .recent,
        all: allLinksLoaded(seeded)))
    let (draft, link) = goInWork(seeded)
    await store.send(.addLinkSubmitted(draft))
    await store.receive(.addLinkResponse(.success(SavedLink(link: link, idPrefixLength: 32))))
    await store.finish()
  }

  @Test func aLinkAddedOnTheSearchScreenSearchesAgain() async throws {
    let seeded = try await seed()
    let store = makeStore(LinkList.State(screen: .search))
    let draft = LinkDraft(title: "Go", url: "https://go.dev")
    let link = Link(
      id: id(4), title: "Go", url: url("https://go.dev"),
      createdAt: fixture.date)
    await store.send(.addLinkSubmitted(draft))
    await store.receive(.addLinkResponse(.success(SavedLink(link: link, idPrefixLength: 32))))
    await store.receive(.search(.onAppear)) { $0.search.isSearching = true }
    await store.receive(
      .search(.searchResponse(.success([link, seeded.rust, seeded.kotlin, seeded.swift])))
    ) {
      $0.search.isSearching = false
      $0.search.show([link, seeded.rust, seeded.kotlin, seeded.swift])
    }
    await store.finish()
  }

  nonisolated static let invalidDrafts: [(LinkDraft, LinkError, String)] = [
    (
      LinkDraft(title: "Swift", url: "swift.org"), .invalidURL("swift.org"),
      "'swift.org' is not a web address: enter an absolute http or https URL, such as "
        + "'https://example.com'."
    ),
    (LinkDraft(title: " ", url: "https://swift.org"), .emptyTitle, "A link needs a title."),
    (
      LinkDraft(title: "Swift", url: "https://swift.org", categoryID: id(7)),
      .categoryNotFound(id(7)),
      "No category with id '00000000-0000-0000-0000-000000000007' exists."
    ),
  ]

  @Test(arguments: invalidDrafts)
  func addLinkSubmittedWithAnInvalidDraftShowsTheAlertAndSavesNothing(
    _ draft: LinkDraft, _ error: LinkError, _ message: String
  ) async throws {
    let store = makeStore()
    await store.send(.addLinkSubmitted(draft))
    await store.receive(.addLinkResponse(.failure(error))) {
      $0.destination = .alert(AlertState { TextState(message) })
    }
    await store.finish()
    #expect(try await fixture.linkClient.fetchLinks() == [])
  }

  @Test func anAddAfterAFailedOneSavesUnderTheAlert() async throws {
    let link = Link(
      id: id(0), title: "Swift", url: url("https://swift.org"),
      createdAt: Fixture.start)
    let store = makeStore(LinkList.State(screen: .recent))
    await store.send(.addLinkSubmitted(LinkDraft(title: " ", url: "https://swift.org")))
    await store.receive(.addLinkResponse(.failure(.emptyTitle))) {
      $0.destination = .alert(AlertState { TextState("A link needs a title.") })
    }
    await store.send(.addLinkSubmitted(LinkDraft(title: "Swift", url: "https://swift.org")))
    await store.receive(.addLinkResponse(.success(SavedLink(link: link, idPrefixLength: 1))))
    await store.finish()
  }

  @Test func anAddedLinkWhoseDigitsCannotBeReadIsNamedByAllOfThem() async throws {
    let link = Link(
      id: id(0), title: "Swift", url: url("https://swift.org"),
      createdAt: Fixture.start)
    let store = makeStore(LinkList.State(screen: .recent))
    store.dependencies.linkClient.fetchIDPrefixLength = { _ in
      throw LinkError.storageFailed("Disk full.")
    }
    await store.send(.addLinkSubmitted(LinkDraft(title: "Swift", url: "https://swift.org")))
    await store.receive(.addLinkResponse(.success(SavedLink(link: link, idPrefixLength: 32))))
    await store.finish()
  }

  @Test func updateLinkSubmittedSavesShowsItOnEveryScreenInOneChangeAndReloadsTheScreen()
    async throws
  {
    let seeded = try await seed()
    var updated = seeded.kotlin
    updated.title = "Kotlin Multiplatform"
    updated.categoryID = seeded.work.id
    let draft = LinkDraft(updated)
    let store = makeStore(
      everyScreenLoaded(seeded, screen: .recent, destination: .detail(detail(seeded.kotlin))))
    await store.send(.updateLinkSubmitted(id(2), draft))
    await store.receive(.updateLinkResponse(.success(SavedLink(link: updated, idPrefixLength: 32))))
    {
      $0.$links.withLock { $0[id: id(2)] = LoadedLink(updated) }
    }
    #expect(store.state.destination?.detail?.link == updated)
    #expect(store.state.all.rows[id: id(2)]?.title == "Kotlin Multiplatform")
    #expect(store.state.all.rows[id: id(2)]?.categoryName == "Work")
    #expect(store.state.search.rows[id: id(2)]?.title == "Kotlin Multiplatform")
    #expect(store.state.recent.rows[id: id(2)]?.title == "Kotlin Multiplatform")
    await store.receive(.recent(.onAppear))
    await store.receive(.recent(.linksResponse(.success([updated]))))
    await store.finish()
  }

  @Test func updateLinkSubmittedForALinkDeletedMeanwhileShowsTheAlert() async throws {
    let draft = LinkDraft(title: "Swift", url: "https://swift.org")
    let store = makeStore(LinkList.State())
    await store.send(.updateLinkSubmitted(id(5), draft))
    await store.receive(.updateLinkResponse(.failure(.notFound(id(5))))) {
      $0.destination = .alert(
        AlertState { TextState("No link with id '00000000-0000-0000-0000-000000000005' exists.") })
    }
    await store.finish()
  }

  @Test func aSaveAnsweredAfterTheEditorClosedStillReloadsOrShowsItsAlert() async throws {
    let seeded = try await seed()
    let store = makeStore(LinkList.State(screen: .recent))
    await store.send(.saveLinkResponse(.success(seeded.kotlin)))
    await store.receive(.recent(.onAppear))
    await store.receive(.recent(.linksResponse(.success([seeded.kotlin])))) {
      $0.recent.show([seeded.kotlin])
    }
    await store.send(.saveLinkResponse(.failure(.emptyTitle))) {
      $0.destination = .alert(AlertState { TextState("A link needs a title.") })
    }
    await store.finish()
  }

  nonisolated static let failures: [(LinkError, String)] = [
    (
      .invalidURL("swift.org"),
      "'swift.org' is not a web address: enter an absolute http or https URL, such as "
        + "'https://example.com'."
    ),
    (.emptyTitle, "A link needs a title."),
    (
      .categoryNotFound(id(7)),
      "No category with id '00000000-0000-0000-0000-000000000007' exists."
    ),
    (
      .notFound(id(4)),
      "No link with id '00000000-0000-0000-0000-000000000004' exists."
    ),
  ]

  @Test(arguments: failures)
  func aRejectedSaveShowsWhyInTheOpenEditorAndKeepsItsDraft(_ error: LinkError, _ message: String)
    async
  {
    let draft = LinkDraft(title: " Swift ", url: "https://swift.org", memo: "read")
    let store = makeStore(
      LinkList.State(
        destination: .editor(LinkEditor.State(mode: .add, draft: draft, isSaving: true))))
    await store.send(.saveLinkResponse(.failure(error))) {
      $0.destination?.editor?.isSaving = false
      $0.destination?.editor?.alert = AlertState { TextState(message) }
    }
    await store.finish()
  }

  /// Types `draft` into the open editor of a new link and saves it: the editor checks it, then
  /// asks the list to add it.
  func typeAndSave(_ draft: LinkDraft, in store: TestStore<LinkList.State, LinkList.Action>) async {
    await store.send(.destination(.presented(.editor(.binding(.set(\.draft, draft)))))) {
      $0.destination?.editor?.draft = draft
    }
    await store.send(.destination(.presented(.editor(.saveSubmitted))))
    await store.receive(.destination(.presented(.editor(.checkResponse(.success(draft)))))) {
      $0.destination?.editor?.isSaving = true
    }
    await store.receive(.destination(.presented(.editor(.delegate(.save(.add, draft))))))
  }

  @Test func aSaveThatFailedWhilePresentedThenSucceedsClosesTheEditor() async throws {
    let bad = LinkDraft(title: " ", url: "https://swift.org")
    let good = LinkDraft(title: "Swift", url: "https://swift.org")
    let link = Link(
      id: id(0), title: "Swift", url: url("https://swift.org"),
      createdAt: Fixture.start)
    let store = makeStore(LinkList.State(screen: .recent))
    await store.send(.newLinkSubmitted) {
      $0.destination = .editor(LinkEditor.State(mode: .add, draft: LinkDraft()))
    }
    await typeAndSave(bad, in: store)
    await store.receive(.saveLinkResponse(.failure(.emptyTitle))) {
      $0.destination?.editor?.isSaving = false
      $0.destination?.editor?.alert = AlertState { TextState("A link needs a title.") }
    }
    await store.send(.destination(.presented(.editor(.alert(.dismiss))))) {
      $0.destination?.editor?.alert = nil
    }
    await typeAndSave(good, in: store)
    await store.receive(.saveLinkResponse(.success(link))) { $0.destination = nil }
    await store.receive(.recent(.onAppear))
    await store.receive(.recent(.linksResponse(.success([]))))
    await store.finish()
  }

  @Test func openingALinkWhileTheEditorIsOpenPresentsTheDetailInItsPlace() async throws {
    _ = try await seed()
    let store = makeStore(
      LinkList.State(destination: .editor(LinkEditor.State(mode: .add, draft: LinkDraft()))))
    let (clock, client) = (fixture.clock, fixture.linkClient)
    store.dependencies.linkClient.markViewed = { id in
      try await clock.sleep(for: .seconds(1))
      return try await client.markViewed(id)
    }
    await store.send(.linkSelected(id(1))) {
      $0.destination = .detail(LinkDetail.State(linkID: id(1), links: $0.$links))
    }
    #expect(store.state.destination?.editor == nil, "one screen presented at a time")
    await store.receive(.destination(.presented(.detail(.onAppear))))
    await store.send(.destination(.dismiss)) { $0.destination = nil }
    await store.finish()
  }

  @Test func aNewLinkWhileADetailIsOpenPresentsTheEditorInItsPlace() async throws {
    let seeded = try await seed()
    let store = makeStore(
      LinkList.State(destination: .detail(detail(seeded.swift))))
    await store.send(.newLinkSubmitted) {
      $0.destination = .editor(LinkEditor.State(mode: .add, draft: LinkDraft()))
      $0.$links.withLock { $0 = [] }
    }
    #expect(store.state.destination?.detail == nil, "one screen presented at a time")
    await store.finish()
  }

  @Test func aFailureOfTheRootPresentsItsAlertInPlaceOfTheDetail() async throws {
    let seeded = try await seed()
    let store = makeStore(
      LinkList.State(destination: .detail(detail(seeded.swift))))
    await store.send(.deleteLinkSubmitted(id(9)))
    await store.receive(.deleteLinkResponse(.failure(.notFound(id(9))))) {
      $0.destination = .alert(
        AlertState { TextState("No link with id '00000000-0000-0000-0000-000000000009' exists.") })
      $0.$links.withLock { $0 = [] }
    }
    await store.send(.destination(.dismiss)) { $0.destination = nil }
    await store.finish()
    #expect(
      try await fixture.linkClient.fetchLinks() == [seeded.rust, seeded.kotlin, seeded.swift])
  }

  @Test func cancellingTheEditorClosesItAndSavesNothing() async throws {
    let store = makeStore(
      LinkList.State(destination: .editor(LinkEditor.State(mode: .add, draft: LinkDraft()))))
    await store.send(.destination(.presented(.editor(.cancelSubmitted))))
    await store.receive(.destination(.dismiss)) { $0.destination = nil }
    await store.finish()
    #expect(try await fixture.linkClient.fetchLinks() == [])
  }

  @Test func editingFromTheDetailPresentsTheEditorOnTheLinkInTheDetailsPlace() async throws {
    let seeded = try await seed()
    let store = makeStore(
      LinkList.State(destination: .detail(detail(seeded.swift))))
    await store.send(.destination(.presented(.detail(.editSubmitted))))
    await store.receive(.destination(.presented(.detail(.delegate(.editLink(seeded.swift)))))) {
      $0.destination = .editor(
        LinkEditor.State(mode: .update(id(1)), draft: LinkDraft(seeded.swift)))
      $0.$links.withLock { $0 = [] }
    }
    await store.finish()
  }

  // MARK: Deleting

  @Test func deleteLinkSubmittedTakesItOffEveryScreenInOneChangeClosesItsDetailAndReloads()
    async throws
  {
    let seeded = try await seed()
    let store = makeStore(
      everyScreenLoaded(seeded, screen: .search, destination: .detail(detail(seeded.kotlin))))
    await store.send(.deleteLinkSubmitted(id(2)))
    await store.receive(.deleteLinkResponse(.success(id(2)))) {
      // NB: one change to the shared links; the screens' own order is left as it was.
      $0.$links.withLock { _ = $0.remove(id: id(2)) }
      $0.destination = nil
    }
    #expect(store.state.all.rows.map(\.title) == ["Rust", "Swift"])
    #expect(store.state.search.rows.map(\.title) == ["Rust", "Swift"])
    #expect(store.state.recent.rows.isEmpty)
    await store.receive(.search(.onAppear)) { $0.search.isSearching = true }
    await store.receive(.search(.searchResponse(.success([seeded.rust, seeded.swift])))) {
      $0.search.isSearching = false
      $0.search.rowIDs = [id(3), id(1)]
    }
    await store.finish()
    #expect(try await fixture.linkClient.fetchLinks().map(\.title) == ["Rust", "Swift"])
  }

  @Test func deletingAMissingLinkShowsTheAlertAndChangesNothing() async throws {
    let seeded = try await seed()
    let store = makeStore(everyScreenLoaded(seeded))
    await store.send(.deleteLinkSubmitted(id(9)))
    await store.receive(.deleteLinkResponse(.failure(.notFound(id(9))))) {
      $0.destination = .alert(
        AlertState { TextState("No link with id '00000000-0000-0000-0000-000000000009' exists.") })
    }
    await store.finish()
    #expect(
      try await fixture.linkClient.fetchLinks() == [seeded.rust, seeded.kotlin, seeded.swift])
  }

  @Test func deletingFromTheDetailDeletesTheLinkAndClosesIt() async throws {
    let seeded = try await seed()
    let store = makeStore(
      LinkList.State(destination: .detail(detail(seeded.swift))))
    await store.send(.destination(.presented(.detail(.deleteSubmitted))))
    await store.receive(.destination(.presented(.detail(.delegate(.deleteLink(id(1)))))))
    await store.receive(.deleteLinkResponse(.success(id(1)))) {
      $0.$links.withLock { $0 = [] }
      $0.destination = nil
    }
    await receiveAllLinksReload(of: [seeded.rust, seeded.kotlin], in: store)
    await store.finish()
  }

  // MARK: Categories

  @Test func selectingACategoryShowsItsLinksOnAllLinks() async throws {
    let seeded = try await seed()
    let store = makeStore(LinkList.State(screen: .recent))
    await store.send(.categories(.categorySelected(id(0)))) {
      $0.categories.selectedCategoryID = id(0)
    }
    await store.receive(.categories(.delegate(.showLinks(in: id(0))))) { $0.screen = .all }
    await store.receive(.all(.categoryFilterChanged(id(0)))) { $0.all.categoryFilter = id(0) }
    await store.receive(
      .all(
        .linksResponse(
          .success(allPage([seeded.rust, seeded.swift]))))
    ) {
      $0.all.show([seeded.rust, seeded.swift].map(LinkSummary.init), names: workNames)
      $0.all.isLastPageLoaded = true
    }
    await store.finish()
  }

  @Test func selectingTheCategoryShownReloadsAllLinks() async throws {
    let seeded = try await seed()
    let store = makeStore(
      LinkList.State(screen: .recent, all: AllLinks.State(categoryFilter: id(0))))
    await store.send(.categories(.categorySelected(id(0)))) {
      $0.categories.selectedCategoryID = id(0)
    }
    await store.receive(.categories(.delegate(.showLinks(in: id(0))))) { $0.screen = .all }
    await receiveAllLinksReload(of: [seeded.rust, seeded.swift], in: store)
    await store.finish()
  }

  @Test func renamingACategoryShowsTheNewNameOnAllLinks() async throws {
    let seeded = try await seed()
    let links = [seeded.rust, seeded.kotlin, seeded.swift]
    var office = seeded.work
    office.name = "Office"
    let store = makeStore(LinkList.State(all: allShowing(links)))
    await store.send(.categories(.renameSubmitted(id(0), name: "Office")))
    await store.receive(.categories(.renameResponse(.success(office))))
    await store.receive(
      .categories(.summariesResponse(.success([CategorySummary(category: office, linkCount: 2)])))
    ) {
      $0.categories.rows = [CategorySummary(category: office, linkCount: 2)]
    }
    await store.receive(.categories(.delegate(.showRenamed(office))))
    await receiveAllLinksReload(of: links, names: [id(0): "Office"], in: store)
    await store.finish()
  }

  @Test func deletingTheFilteredCategoryShowsEveryLinkWithItsLinksUncategorized() async throws {
    let seeded = try await seed()
    let store = makeStore(
      LinkList.State(
        all: allShowing([seeded.rust, seeded.swift], categoryFilter: id(0)),
        categories: Categories.State(selectedCategoryID: id(0))))
    var (rust, swift) = (seeded.rust, seeded.swift)
    rust.categoryID = nil
    swift.categoryID = nil
    await store.send(.categories(.deleteSubmitted(id(0))))
    await store.receive(.categories(.deleteResponse(.success(id(0))))) {
      $0.categories.selectedCategoryID = nil
    }
    await store.receive(.categories(.summariesResponse(.success([]))))
    await store.receive(.categories(.delegate(.removeCategory(id(0)))))
    await store.receive(.all(.categoryFilterChanged(nil))) { $0.all.categoryFilter = nil }
    await store.receive(
      .all(
        .linksResponse(
          .success(allPage([rust, seeded.kotlin, swift], names: [:]))))
    ) {
      $0.all.show([rust, seeded.kotlin, swift].map(LinkSummary.init), names: [:])
      $0.all.isLastPageLoaded = true
    }
    await store.finish()
  }

  @Test func deletingAnotherCategoryReloadsAllLinksAndKeepsTheFilter() async throws {
    let seeded = try await seed()
    let home = try await fixture.seed { categories, _ in try await categories.addCategory("Home") }
    let store = makeStore(
      LinkList.State(
        all: allShowing([seeded.rust, seeded.swift], categoryFilter: id(0))))
    await store.send(.categories(.deleteSubmitted(home.id)))
    await store.receive(.categories(.deleteResponse(.success(home.id))))
    await store.receive(
      .categories(
        .summariesResponse(.success([CategorySummary(category: seeded.work, linkCount: 2)])))
    ) {
      $0.categories.rows = [CategorySummary(category: seeded.work, linkCount: 2)]
    }
    await store.receive(.categories(.delegate(.removeCategory(home.id))))
    await store.receive(.all(.onAppear))
    await store.receive(
      .all(
        .linksResponse(
          .success(allPage([seeded.rust, seeded.swift]))))
    ) {
      $0.all.isLastPageLoaded = true
    }
    await store.finish()
  }

  // MARK: The links the screens share

  @Test func theScreensGivenShareTheLinksTheyWereGivenKeepingThoseReadWhole() async throws {
    let seeded = try await seed()
    let state = everyScreenLoaded(seeded)
    // NB: "All links" read Kotlin as a page does; "Search" and "Recent" read it whole.
    #expect(state.links.map(\.title) == ["Rust", "Kotlin", "Swift"])
    #expect(state.links[id: id(2)] == LoadedLink(seeded.kotlin))
    #expect(state.recent.rows.map(\.title) == ["Kotlin"])
    state.$links.withLock { $0[id: id(2)]?.title = "Kotlin 2" }
    #expect(state.all.rows[id: id(2)]?.title == "Kotlin 2")
    #expect(state.search.rows[id: id(2)]?.title == "Kotlin 2")
    #expect(state.recent.rows[id: id(2)]?.title == "Kotlin 2")
  }

  @Test func aLinkNoScreenShowsAfterALoadIsLetGoOf() async throws {
    let seeded = try await seed()
    let store = makeStore(
      LinkList.State(
        screen: .search, all: allShowing([seeded.rust]),
        search: .showing([seeded.rust, seeded.kotlin, seeded.swift])))
    await store.send(.search(.searchSubmitted("swift"))) {
      $0.search.query = "swift"
      $0.search.isSearching = true
    }
    // NB: Kotlin is shown nowhere now; Rust still is, on "All links".
    await store.receive(.search(.searchResponse(.success([seeded.swift])))) {
      $0.search.isSearching = false
      $0.search.rowIDs = [id(1)]
      $0.$links.withLock { _ = $0.remove(id: id(2)) }
    }
    await store.finish()
  }

  @Test func aLinkShownOnAnotherScreenStaysWhenItsDetailCloses() async throws {
    let seeded = try await seed()
    let store = makeStore(everyScreenLoaded(seeded, destination: .detail(detail(seeded.kotlin))))
    await store.send(.destination(.dismiss)) { $0.destination = nil }
    await store.finish()
  }

  // MARK: Favorites across screens

  @Test(arguments: LinkList.Screen.allCases)
  func aFavoriteToggledOnOneScreenShowsOnEveryScreenInOneChange(_ screen: LinkList.Screen)
    async throws
  {
    let seeded = try await seed()
    var favorite = seeded.kotlin
    favorite.isFavorite = true
    let store = makeStore(everyScreenLoaded(seeded, screen: screen))

    switch screen {
    case .all:
      await store.send(.all(.rows(.element(id: id(2), action: .favoriteSubmitted))))
      await store.receive(.all(.rows(.element(id: id(2), action: .delegate(.setFavorite(true))))))
      await store.receive(.all(.favoriteResponse(.success(favorite)))) {
        $0.$links.withLock { $0[id: id(2)]?.isFavorite = true }
      }
    case .search:
      await store.send(.search(.rows(.element(id: id(2), action: .favoriteSubmitted))))
      await store.receive(
        .search(.rows(.element(id: id(2), action: .delegate(.setFavorite(true))))))
      await store.receive(.search(.favoriteResponse(.success(favorite)))) {
        $0.$links.withLock { $0[id: id(2)]?.isFavorite = true }
      }
    case .recent:
      await store.send(.recent(.rows(.element(id: id(2), action: .favoriteSubmitted))))
      await store.receive(
        .recent(.rows(.element(id: id(2), action: .delegate(.setFavorite(true))))))
      await store.receive(.recent(.favoriteResponse(.success(favorite)))) {
        $0.$links.withLock { $0[id: id(2)]?.isFavorite = true }
      }
    }
    #expect(try await fixture.stored(id(2)).isFavorite)
    #expect(store.state.all.rows[id: id(2)]?.isFavorite == true)
    #expect(store.state.search.rows[id: id(2)]?.isFavorite == true)
    #expect(store.state.recent.rows[id: id(2)]?.isFavorite == true)
    await store.finish()
  }

  @Test func aFavoriteToggledInTheDetailShowsOnEveryScreenInOneChange() async throws {
    let seeded = try await seed()
    var favorite = seeded.kotlin
    favorite.isFavorite = true
    let store = makeStore(everyScreenLoaded(seeded, destination: .detail(detail(seeded.kotlin))))
    await store.send(.destination(.presented(.detail(.favoriteSubmitted))))
    await store.receive(.destination(.presented(.detail(.favoriteResponse(.success(favorite)))))) {
      $0.$links.withLock { $0[id: id(2)]?.isFavorite = true }
    }
    #expect(store.state.all.rows[id: id(2)]?.isFavorite == true)
    #expect(store.state.search.rows[id: id(2)]?.isFavorite == true)
    #expect(store.state.recent.rows[id: id(2)]?.isFavorite == true)
    await store.finish()
  }
}
