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

  // MARK: Rows as each screen shows them

  func allRows(_ links: [Link], category: String? = "Work") -> IdentifiedArrayOf<AllLinks.Row> {
    IdentifiedArray(
      uniqueElements: links.map {
        AllLinks.Row($0, categoryName: $0.categoryID.map { _ in category } ?? nil)
      })
  }

  /// The one page of "All links" the client answers with: `links`' rows, and none after.
  func allPage(_ links: [Link], category: String? = "Work") -> AllLinks.Page {
    AllLinks.Page(rows: Array(allRows(links, category: category)), next: nil)
  }

  /// "All links" reloads after a change: it is shown again, and its one page of `links` arrives.
  func receiveAllLinksReload(
    of links: [Link], category: String? = "Work",
    in store: TestStore<LinkList.State, LinkList.Action>
  ) async {
    await store.receive(.all(.onAppear))
    await store.receive(.all(.linksResponse(.success(allPage(links, category: category))))) {
      $0.all.rows = allRows(links, category: category)
      $0.all.isLastPageLoaded = true
    }
  }

  /// "All links" with every seeded link loaded, newest first, and no page after.
  func allLinksLoaded(_ seeded: Seeded) -> AllLinks.State {
    AllLinks.State(
      rows: allRows([seeded.rust, seeded.kotlin, seeded.swift]), isLastPageLoaded: true)
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

  func searchRows(_ links: [Link]) -> IdentifiedArrayOf<SearchLinks.Row> {
    IdentifiedArray(uniqueElements: links.map { SearchLinks.Row($0, query: "") })
  }

  func recentRows(_ links: [Link]) -> IdentifiedArrayOf<RecentLinks.Row> {
    IdentifiedArray(uniqueElements: links.compactMap(RecentLinks.Row.init))
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
      $0.search.rows = searchRows(newestFirst)
    }
    await store.send(.screenSelected(.recent)) { $0.screen = .recent }
    await store.receive(.recent(.onAppear))
    await store.receive(.recent(.linksResponse(.success([seeded.kotlin])))) {
      $0.recent.rows = recentRows([seeded.kotlin])
    }
    await store.send(.screenSelected(.all)) { $0.screen = .all }
    await store.receive(.all(.onAppear))
    await store.receive(
      .all(.linksResponse(.success(allPage(newestFirst))))
    ) {
      $0.all.rows = allRows(newestFirst)
      $0.all.isLastPageLoaded = true
    }
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
      $0.destination = .detail(LinkDetail.State(linkID: id(1)))
    }
    await store.receive(.destination(.presented(.detail(.onAppear))))
    await store.receive(
      .destination(
        .presented(
          .detail(
            .contentResponse(.success(LinkDetail.Content(link: viewed, comments: [comment]))))))
    ) {
      $0.destination?.detail?.link = viewed
      $0.destination?.detail?.comments = [comment]
    }
    await store.finish()
    #expect(try await fixture.linkClient.fetchRecentLinks().map(\.id) == [id(1), id(2)])
  }

  @Test func openingARowOnAnyScreenShowsItsDetail() async throws {
    let seeded = try await seed()
    let links = [seeded.rust, seeded.kotlin, seeded.swift]
    let store = makeStore(
      LinkList.State(
        all: AllLinks.State(rows: allRows(links)),
        search: SearchLinks.State(rows: searchRows(links)),
        recent: RecentLinks.State(rows: recentRows([seeded.kotlin]))))
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
        $0.destination = .detail(LinkDetail.State(linkID: id(2)))
      }
      await store.receive(.destination(.presented(.detail(.onAppear))))
      await store.receive(
        .destination(
          .presented(
            .detail(.contentResponse(.success(LinkDetail.Content(link: viewed, comments: []))))))
      ) {
        $0.destination?.detail?.link = viewed
      }
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
      $0.destination = .detail(LinkDetail.State(linkID: id(1)))
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
        destination: .detail(LinkDetail.State(linkID: seeded.swift.id, link: seeded.swift))))
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
        destination: .detail(LinkDetail.State(linkID: seeded.swift.id, link: seeded.swift))))
    let (clock, client) = (fixture.clock, fixture.linkClient)
    store.dependencies.linkClient.addComment = { linkID, text in
      try await clock.sleep(for: .seconds(1))
      return try await client.addComment(linkID, text)
    }
    await store.send(.destination(.presented(.detail(.addCommentSubmitted("late")))))
    await store.send(.destination(.dismiss)) { $0.destination = nil }
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
      $0.all.rows = allRows([link, seeded.rust, seeded.kotlin, seeded.swift])
    }
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
      $0.search.rows = searchRows([link, seeded.rust, seeded.kotlin, seeded.swift])
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
  func addLinkSubmittedWithAnInvalidDraftShowsTheErrorAndSavesNothing(
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

  @Test func anAddAfterAFailedOneClearsTheError() async throws {
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

  @Test func updateLinkSubmittedSavesShowsItInTheOpenDetailAndReloadsTheScreen() async throws {
    let seeded = try await seed()
    var updated = seeded.kotlin
    updated.title = "Kotlin Multiplatform"
    updated.categoryID = seeded.work.id
    let draft = LinkDraft(updated)
    let store = makeStore(
      LinkList.State(
        screen: .recent, recent: RecentLinks.State(rows: recentRows([seeded.kotlin])),
        destination: .detail(LinkDetail.State(linkID: id(2), link: seeded.kotlin))))
    await store.send(.updateLinkSubmitted(id(2), draft))
    await store.receive(.updateLinkResponse(.success(SavedLink(link: updated, idPrefixLength: 32))))
    {
      $0.destination?.detail?.link = updated
    }
    await store.receive(.recent(.onAppear))
    await store.receive(.recent(.linksResponse(.success([updated])))) {
      $0.recent.rows = recentRows([updated])
    }
    await store.finish()
  }

  @Test func updateLinkSubmittedForALinkDeletedMeanwhileShowsTheError() async throws {
    let draft = LinkDraft(title: "Swift", url: "https://swift.org")
    let store = makeStore(LinkList.State())
    await store.send(.updateLinkSubmitted(id(5), draft))
    await store.receive(.updateLinkResponse(.failure(.notFound(id(5))))) {
      $0.destination = .alert(
        AlertState { TextState("No link with id '00000000-0000-0000-0000-000000000005' exists.") })
    }
    await store.finish()
  }

  @Test func aSaveAnsweredAfterTheEditorClosedStillReloadsOrShowsItsError() async throws {
    let seeded = try await seed()
    let store = makeStore(LinkList.State(screen: .recent))
    await store.send(.saveLinkResponse(.success(seeded.kotlin)))
    await store.receive(.recent(.onAppear))
    await store.receive(.recent(.linksResponse(.success([seeded.kotlin])))) {
      $0.recent.rows = recentRows([seeded.kotlin])
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
    await store.send(.destination(.presented(.editor(.binding(.set(\.draft, bad)))))) {
      $0.destination?.editor?.draft = bad
    }
    await store.send(.destination(.presented(.editor(.saveSubmitted))))
    await store.receive(.destination(.presented(.editor(.checkResponse(.success(bad)))))) {
      $0.destination?.editor?.isSaving = true
    }
    await store.receive(.destination(.presented(.editor(.delegate(.save(.add, bad))))))
    await store.receive(.saveLinkResponse(.failure(.emptyTitle))) {
      $0.destination?.editor?.isSaving = false
      $0.destination?.editor?.alert = AlertState { TextState("A link needs a title.") }
    }
    await store.send(.destination(.presented(.editor(.alert(.dismiss))))) {
      $0.destination?.editor?.alert = nil
    }
    await store.send(.destination(.presented(.editor(.binding(.set(\.draft, good)))))) {
      $0.destination?.editor?.draft = good
    }
    await store.send(.destination(.presented(.editor(.saveSubmitted))))
    await store.receive(.destination(.presented(.editor(.checkResponse(.success(good)))))) {
      $0.destination?.editor?.isSaving = true
    }
    await store.receive(.destination(.presented(.editor(.delegate(.save(.add, good))))))
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
      $0.destination = .detail(LinkDetail.State(linkID: id(1)))
    }
    #expect(store.state.destination?.editor == nil, "one screen presented at a time")
    await store.receive(.destination(.presented(.detail(.onAppear))))
    await store.send(.destination(.dismiss)) { $0.destination = nil }
    await store.finish()
  }

  @Test func aNewLinkWhileADetailIsOpenPresentsTheEditorInItsPlace() async throws {
    let seeded = try await seed()
    let store = makeStore(
      LinkList.State(destination: .detail(LinkDetail.State(linkID: id(1), link: seeded.swift))))
    await store.send(.newLinkSubmitted) {
      $0.destination = .editor(LinkEditor.State(mode: .add, draft: LinkDraft()))
    }
    #expect(store.state.destination?.detail == nil, "one screen presented at a time")
    await store.finish()
  }

  @Test func aFailureOfTheRootPresentsItsAlertInPlaceOfTheDetail() async throws {
    let seeded = try await seed()
    let store = makeStore(
      LinkList.State(destination: .detail(LinkDetail.State(linkID: id(1), link: seeded.swift))))
    await store.send(.deleteLinkSubmitted(id(9)))
    await store.receive(.deleteLinkResponse(.failure(.notFound(id(9))))) {
      $0.destination = .alert(
        AlertState { TextState("No link with id '00000000-0000-0000-0000-000000000009' exists.") })
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
      LinkList.State(destination: .detail(LinkDetail.State(linkID: id(1), link: seeded.swift))))
    await store.send(.destination(.presented(.detail(.editSubmitted))))
    await store.receive(.destination(.presented(.detail(.delegate(.editLink(seeded.swift)))))) {
      $0.destination = .editor(
        LinkEditor.State(mode: .update(id(1)), draft: LinkDraft(seeded.swift)))
    }
    await store.finish()
  }

  // MARK: Deleting

  @Test func deleteLinkTappedRemovesItEverywhereClosesItsDetailAndReloadsTheScreen() async throws {
    let seeded = try await seed()
    let links = [seeded.rust, seeded.kotlin, seeded.swift]
    let store = makeStore(
      LinkList.State(
        screen: .search, all: AllLinks.State(rows: allRows(links)),
        search: SearchLinks.State(rows: searchRows(links)),
        recent: RecentLinks.State(rows: recentRows([seeded.kotlin])),
        destination: .detail(LinkDetail.State(linkID: id(2), link: seeded.kotlin)), ))
    await store.send(.deleteLinkSubmitted(id(2)))
    await store.receive(.deleteLinkResponse(.success(id(2)))) {
      $0.all.rows.remove(id: id(2))
      $0.search.rows.remove(id: id(2))
      $0.recent.rows.remove(id: id(2))
      $0.destination = nil
    }
    await store.receive(.search(.onAppear)) { $0.search.isSearching = true }
    await store.receive(.search(.searchResponse(.success([seeded.rust, seeded.swift])))) {
      $0.search.isSearching = false
    }
    await store.finish()
    #expect(try await fixture.linkClient.fetchLinks().map(\.title) == ["Rust", "Swift"])
  }

  @Test func deletingAMissingLinkShowsTheErrorAndChangesNothing() async throws {
    let seeded = try await seed()
    let store = makeStore()
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
      LinkList.State(destination: .detail(LinkDetail.State(linkID: id(1), link: seeded.swift))))
    await store.send(.destination(.presented(.detail(.deleteSubmitted))))
    await store.receive(.destination(.presented(.detail(.delegate(.deleteLink(id(1)))))))
    await store.receive(.deleteLinkResponse(.success(id(1)))) { $0.destination = nil }
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
      $0.all.rows = allRows([seeded.rust, seeded.swift])
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
    let store = makeStore(LinkList.State(all: AllLinks.State(rows: allRows(links))))
    await store.send(.categories(.renameSubmitted(id(0), name: "Office")))
    await store.receive(.categories(.renameResponse(.success(office))))
    await store.receive(
      .categories(.summariesResponse(.success([CategorySummary(category: office, linkCount: 2)])))
    ) {
      $0.categories.rows = [CategorySummary(category: office, linkCount: 2)]
    }
    await store.receive(.categories(.delegate(.showRenamed(office))))
    await receiveAllLinksReload(of: links, category: "Office", in: store)
    await store.finish()
  }

  @Test func deletingTheFilteredCategoryShowsEveryLinkWithItsLinksUncategorized() async throws {
    let seeded = try await seed()
    let store = makeStore(
      LinkList.State(
        all: AllLinks.State(
          categoryFilter: id(0), rows: allRows([seeded.rust, seeded.swift])),
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
          .success(allPage([rust, seeded.kotlin, swift]))))
    ) {
      $0.all.rows = allRows([rust, seeded.kotlin, swift])
      $0.all.isLastPageLoaded = true
    }
    await store.finish()
  }

  @Test func deletingAnotherCategoryReloadsAllLinksAndKeepsTheFilter() async throws {
    let seeded = try await seed()
    let home = try await fixture.seed { categories, _ in try await categories.addCategory("Home") }
    let store = makeStore(
      LinkList.State(
        all: AllLinks.State(categoryFilter: id(0), rows: allRows([seeded.rust, seeded.swift]))))
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

  // MARK: Favorites across screens

  @Test(arguments: LinkList.Screen.allCases)
  func aFavoriteToggledOnOneScreenShowsOnTheOthersWhenTheyNextLoad(_ screen: LinkList.Screen)
    async throws
  {
    let seeded = try await seed()
    let links = [seeded.rust, seeded.kotlin, seeded.swift]
    var favorite = seeded.kotlin
    favorite.isFavorite = true
    let store = makeStore(
      LinkList.State(
        screen: screen, all: AllLinks.State(rows: allRows(links)),
        search: SearchLinks.State(rows: searchRows(links)),
        recent: RecentLinks.State(rows: recentRows([seeded.kotlin]))))

    switch screen {
    case .all:
      await store.send(.all(.rows(.element(id: id(2), action: .favoriteSubmitted))))
      await store.receive(.all(.rows(.element(id: id(2), action: .delegate(.setFavorite(true))))))
      await store.receive(.all(.favoriteResponse(.success(favorite)))) {
        $0.all.rows[id: id(2)]?.isFavorite = true
      }
    case .search:
      await store.send(.search(.rows(.element(id: id(2), action: .favoriteSubmitted))))
      await store.receive(
        .search(.rows(.element(id: id(2), action: .delegate(.setFavorite(true))))))
      await store.receive(.search(.favoriteResponse(.success(favorite)))) {
        $0.search.rows[id: id(2)]?.isFavorite = true
      }
    case .recent:
      await store.send(.recent(.rows(.element(id: id(2), action: .favoriteSubmitted))))
      await store.receive(
        .recent(.rows(.element(id: id(2), action: .delegate(.setFavorite(true))))))
      await store.receive(.recent(.favoriteResponse(.success(favorite)))) {
        $0.recent.rows[id: id(2)]?.isFavorite = true
      }
    }
    #expect(try await fixture.stored(id(2)).isFavorite)

    let now = [seeded.rust, favorite, seeded.swift]
    for other in LinkList.Screen.allCases where other != screen {
      await store.send(.screenSelected(other)) { $0.screen = other }
      switch other {
      case .all:
        await store.receive(.all(.onAppear))
        await store.receive(
          .all(.linksResponse(.success(allPage(now))))
        ) {
          $0.all.rows[id: id(2)]?.isFavorite = true
          $0.all.isLastPageLoaded = true
        }
      case .search:
        await store.receive(.search(.onAppear)) { $0.search.isSearching = true }
        await store.receive(.search(.searchResponse(.success(now)))) {
          $0.search.isSearching = false
          $0.search.rows[id: id(2)]?.isFavorite = true
        }
      case .recent:
        await store.receive(.recent(.onAppear))
        await store.receive(.recent(.linksResponse(.success([favorite])))) {
          $0.recent.rows[id: id(2)]?.isFavorite = true
        }
      }
    }
    await store.finish()
  }
}
