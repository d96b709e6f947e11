import Categories
import CategoryClient
import DraftEditor
import Foundation
import LinkClient
import LinkList
import LoopTesting
import TestSupport
import Testing

/// The navigation stack of the links: a category's links, then a link opened from them.
extension LinkListTests {
  typealias Path = LinkList.Path

  /// The category "Work" pushed with its links (Rust, Swift), and Swift opened above it.
  func workThenSwift(_ seeded: Seeded) -> StackState<Path.State> {
    StackState([
      .category(allShowing([seeded.rust, seeded.swift], categoryFilter: id(0))),
      .detail(detail(seeded.swift)),
    ])
  }

  @Test func openingACategoryPushesItsLinksAndLoadsThem() async throws {
    let seeded = try await seed()
    let store = makeStore()
    await store.send(.categorySelected(id(0))) {
      $0.path.append(.category(AllLinks.State(categoryFilter: id(0), links: $0.$links)))
    }
    await store.receive(.path(.element(id: 0, action: .category(.onAppear))))
    let page = allPage([seeded.rust, seeded.swift])
    await store.receive(.path(.element(id: 0, action: .category(.linksResponse(.success(page)))))) {
      $0.path[id: 0]?.modifyCategory {
        $0.show([seeded.rust, seeded.swift].map(LinkSummary.init), names: workNames)
        $0.isLastPageLoaded = true
      }
    }
    #expect(store.state.path[id: 0]?.category?.rows.map(\.title) == ["Rust", "Swift"])
    await store.finish()
  }

  @Test func openingALinkFromACategoryPushesItsDetailAboveIt() async throws {
    let seeded = try await seed()
    fixture.advance(by: 60)
    var viewed = seeded.swift
    viewed.lastViewedDate = fixture.date
    let category = allShowing([seeded.rust, seeded.swift], categoryFilter: id(0))
    let store = makeStore(LinkList.State(path: StackState([.category(category)])))
    await store.send(
      .path(.element(id: 0, action: .category(.rows(.element(id: id(1), action: .selected))))))
    await store.receive(
      .path(
        .element(id: 0, action: .category(.rows(.element(id: id(1), action: .delegate(.open)))))))
    await store.receive(.path(.element(id: 0, action: .category(.delegate(.openLink(id(1))))))) {
      $0.path.append(.detail(LinkDetail.State(linkID: id(1), links: $0.$links)))
    }
    await store.receive(.path(.element(id: 1, action: .detail(.onAppear))))
    let content = LinkDetail.Content(link: viewed, comments: [])
    await store.receive(
      .path(.element(id: 1, action: .detail(.contentResponse(.success(content)))))
    ) {
      $0.$links.withLock { $0.show(viewed) }
    }
    #expect(store.state.path[id: 1]?.detail?.link == viewed)
    await store.finish()
    #expect(store.state.path.ids == [0, 1])
  }

  @Test func poppingTheCategoryPopsTheLinkOpenedAboveIt() async throws {
    let seeded = try await seed()
    let store = makeStore(LinkList.State(path: workThenSwift(seeded)))
    // NB: no screen shows Rust or Swift any more: they are let go of.
    await store.send(.path(.popFrom(id: 0))) {
      $0.path = StackState()
      $0.$links.withLock { $0 = [] }
    }
    await store.finish()
  }

  @Test func aPushedLinkKeepsItsLinkWhileScreensAbovePushAndLoad() async throws {
    let seeded = try await seed()
    let store = makeStore(LinkList.State(path: StackState([.detail(detail(seeded.kotlin))])))
    await store.send(.categorySelected(id(0))) {
      $0.path.append(.category(AllLinks.State(categoryFilter: id(0), links: $0.$links)))
    }
    await store.receive(.path(.element(id: 1, action: .category(.onAppear))))
    let page = allPage([seeded.rust, seeded.swift])
    await store.receive(.path(.element(id: 1, action: .category(.linksResponse(.success(page)))))) {
      $0.path[id: 1]?.modifyCategory {
        $0.show([seeded.rust, seeded.swift].map(LinkSummary.init), names: workNames)
        $0.isLastPageLoaded = true
      }
    }
    #expect(store.state.path[id: 0]?.detail?.link == seeded.kotlin)
    await store.finish()
  }

  @Test func poppingAPushedLinkCancelsItsLoading() async throws {
    _ = try await seed()
    let (clock, client) = (fixture.clock, fixture.linkClient)
    let store = makeStore(
      LinkList.State(path: StackState([.category(AllLinks.State(categoryFilter: id(0)))])))
    store.dependencies.linkClient.markViewed = { id in
      try await clock.sleep(for: .seconds(1))
      return try await client.markViewed(id)
    }
    await store.send(.path(.element(id: 0, action: .category(.delegate(.openLink(id(1))))))) {
      $0.path.append(.detail(LinkDetail.State(linkID: id(1), links: $0.$links)))
    }
    await store.receive(.path(.element(id: 1, action: .detail(.onAppear))))
    await store.send(.path(.popFrom(id: 1))) { $0.path.removeLast() }
    // The answer would have arrived for a screen that is gone: it never does.
    await fixture.clock.advance(by: .seconds(1))
    await store.finish()
    #expect(try await fixture.linkClient.fetchRecentLinks().map(\.id) == [id(2)])
  }

  @Test func deletingAPushedLinkPopsItAndTakesItsRowOffTheCategoryInOneChange() async throws {
    let seeded = try await seed()
    let store = makeStore(LinkList.State(path: workThenSwift(seeded)))
    await store.send(.path(.element(id: 1, action: .detail(.deleteSubmitted))))
    await store.receive(.path(.element(id: 1, action: .detail(.delegate(.deleteLink(id(1)))))))
    await store.receive(.deleteLinkResponse(.success(id(1)))) {
      $0.$links.withLock { _ = $0.remove(id: id(1)) }
      $0.path.removeLast()
    }
    #expect(store.state.path[id: 0]?.category?.rows.map(\.title) == ["Rust"])
    await receiveAllLinksReload(of: [seeded.rust, seeded.kotlin], in: store)
    await store.finish()
  }

  @Test func deletingALinkPopsOnlyTheScreensFromItsFirstDetailUp() async throws {
    let seeded = try await seed()
    let store = makeStore(
      LinkList.State(
        path: StackState([
          .detail(detail(seeded.kotlin)),
          .category(allShowing([seeded.rust], categoryFilter: id(0))),
        ])))
    await store.send(.deleteLinkSubmitted(id(3)))
    await store.receive(.deleteLinkResponse(.success(id(3)))) {
      $0.$links.withLock { _ = $0.remove(id: id(3)) }
    }
    #expect(store.state.path[id: 1]?.category?.rows == [])
    await receiveAllLinksReload(of: [seeded.kotlin, seeded.swift], in: store)
    await store.send(.deleteLinkSubmitted(id(2)))
    await store.receive(.deleteLinkResponse(.success(id(2)))) {
      $0.$links.withLock { _ = $0.remove(id: id(2)) }
      $0.path = StackState()
    }
    #expect(store.state.all.rows.map(\.title) == ["Swift"])
    await store.receive(.all(.onAppear))
    await store.receive(
      .all(.linksResponse(.success(allPage([seeded.swift]))))
    ) {
      $0.all.rowIDs = [id(1)]
    }
    await store.finish()
  }

  @Test func editingFromAPushedLinkOpensTheEditorOnIt() async throws {
    let seeded = try await seed()
    let store = makeStore(LinkList.State(path: workThenSwift(seeded)))
    await store.send(.path(.element(id: 1, action: .detail(.editSubmitted))))
    await store.receive(
      .path(.element(id: 1, action: .detail(.delegate(.editLink(seeded.swift)))))
    ) {
      $0.destination = .editor(
        LinkEditor.State(mode: .update(id(1)), draft: LinkDraft(seeded.swift)))
    }
    await store.finish()
  }

  @Test func aSavedLinkShowsOnItsPushedScreensInOneChangeAndTheCategoriesReload() async throws {
    let seeded = try await seed()
    var updated = seeded.swift
    updated.title = "Swift 6"
    let draft = LinkDraft(updated)
    let store = makeStore(LinkList.State(screen: .recent, path: workThenSwift(seeded)))
    await store.send(.updateLinkSubmitted(id(1), draft))
    await store.receive(.updateLinkResponse(.success(SavedLink(link: updated, idPrefixLength: 32))))
    {
      $0.$links.withLock { $0[id: id(1)] = LoadedLink(updated) }
    }
    #expect(store.state.path[id: 1]?.detail?.link == updated)
    #expect(store.state.path[id: 0]?.category?.rows.map(\.title) == ["Rust", "Swift 6"])
    await store.receive(.recent(.onAppear))
    await store.receive(.path(.element(id: 0, action: .category(.onAppear))))
    await store.receive(.recent(.linksResponse(.success([seeded.kotlin])))) {
      $0.recent.show([seeded.kotlin])
    }
    let page = allPage([seeded.rust, updated])
    await store.receive(.path(.element(id: 0, action: .category(.linksResponse(.success(page)))))) {
      $0.path[id: 0]?.modifyCategory { $0.isLastPageLoaded = true }
    }
    await store.finish()
  }

  @Test func aSavedLinkLeavesTheOtherPushedLinksAsTheyAre() async throws {
    let seeded = try await seed()
    var updated = seeded.swift
    updated.title = "Swift 6"
    let kotlin = Path.State.detail(detail(seeded.kotlin))
    let store = makeStore(
      LinkList.State(
        screen: .recent,
        destination: .editor(
          LinkEditor.State(mode: .update(id(1)), draft: LinkDraft(), isSaving: true)),
        path: StackState([kotlin]))
    )
    await store.send(.saveLinkResponse(.success(updated))) {
      $0.destination = nil
    }
    await store.receive(.recent(.onAppear))
    await store.receive(.recent(.linksResponse(.success([seeded.kotlin])))) {
      $0.recent.rowIDs = [id(2)]
    }
    await store.finish()
  }

  @Test func renamingACategoryRenamesItOnItsPushedScreensOnly() async throws {
    let seeded = try await seed()
    let home = try await fixture.seed { categories, _ in try await categories.addCategory("Home") }
    var office = seeded.work
    office.name = "Office"
    let store = makeStore(
      LinkList.State(
        path: StackState([
          .category(allShowing([seeded.rust], categoryFilter: id(0))),
          .category(AllLinks.State(categoryFilter: home.id)),
          .detail(detail(seeded.rust)),
        ])))
    await store.send(.categories(.renameSubmitted(id(0), name: "Office")))
    await store.receive(.categories(.renameResponse(.success(office))))
    await store.receive(
      .categories(
        .summariesResponse(
          .success([
            CategorySummary(category: home, linkCount: 0),
            CategorySummary(category: office, linkCount: 2),
          ])))
    ) {
      $0.categories.rows = [
        CategorySummary(category: home, linkCount: 0),
        CategorySummary(category: office, linkCount: 2),
      ]
    }
    await store.receive(.categories(.delegate(.showRenamed(office)))) {
      $0.path[id: 0]?.modifyCategory { $0.categoryNames[id(0)] = "Office" }
    }
    #expect(store.state.path[id: 0]?.category?.rows.first?.categoryName == "Office")
    await receiveAllLinksReload(
      of: [seeded.rust, seeded.kotlin, seeded.swift], names: [id(0): "Office", home.id: "Home"],
      in: store)
    await store.finish()
  }

  @Test func deletingACategoryPopsItsFirstPushedScreenAndThoseAbove() async throws {
    let seeded = try await seed()
    let home = try await fixture.seed { categories, _ in try await categories.addCategory("Home") }
    let homeScreen = Path.State.category(AllLinks.State(categoryFilter: home.id))
    let store = makeStore(
      LinkList.State(path: StackState([homeScreen]) + workThenSwift(seeded)))
    await store.send(.categories(.deleteSubmitted(id(0))))
    await store.receive(.categories(.deleteResponse(.success(id(0)))))
    await store.receive(
      .categories(.summariesResponse(.success([CategorySummary(category: home, linkCount: 0)])))
    ) {
      $0.categories.rows = [CategorySummary(category: home, linkCount: 0)]
    }
    await store.receive(.categories(.delegate(.removeCategory(id(0))))) {
      $0.path.pop(from: 1)
      $0.$links.withLock { $0 = [] }
    }
    #expect(store.state.path.ids == [0])
    var (rust, swift) = (seeded.rust, seeded.swift)
    rust.categoryID = nil
    swift.categoryID = nil
    await receiveAllLinksReload(
      of: [rust, seeded.kotlin, swift], names: [home.id: "Home"], in: store)
    await store.finish()
  }

  @Test func aPushedScreensFailureShowsInItsOwnAlertAndChangesNothingElse() async throws {
    let seeded = try await seed()
    let store = makeStore(
      LinkList.State(
        path: StackState([
          .category(AllLinks.State(categoryFilter: id(0))),
          .detail(detail(seeded.swift)),
        ])))
    await store.send(.path(.element(id: 1, action: .detail(.addCommentSubmitted(" ")))))
    await store.receive(
      .path(.element(id: 1, action: .detail(.addCommentResponse(.failure(.emptyComment)))))
    ) {
      $0.path[id: 1]?.modifyDetail {
        $0.alert = AlertState { TextState("A comment cannot be empty.") }
      }
    }
    await store.send(.path(.element(id: 1, action: .detail(.alert(.dismiss))))) {
      $0.path[id: 1]?.modifyDetail { $0.alert = nil }
    }
    await store.finish()
    #expect(try await fixture.linkClient.fetchComments(id(1)) == [])
  }

  @Test func aScreensStateReadsItsOwnCaseOnly() {
    let category = AllLinks.State(categoryFilter: id(0))
    let detail = LinkDetail.State(linkID: id(1))
    #expect(Path.State.category(category).category == category)
    #expect(Path.State.category(category).detail == nil)
    #expect(Path.State.detail(detail).detail == detail)
    #expect(Path.State.detail(detail).category == nil)
  }
}
