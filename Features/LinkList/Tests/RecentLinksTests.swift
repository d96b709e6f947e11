import Foundation
import LinkClient
import LinkList
import LoopTesting
import TestSupport
import Testing

@MainActor
@Suite struct RecentLinksTests {
  let fixture = Fixture()

  func makeStore(_ state: RecentLinks.State = RecentLinks.State()) -> TestStore<
    RecentLinks.State, RecentLinks.Action
  > {
    TestStore(initialState: state) {
      RecentLinks()
    } withDependencies: {
      fixture.prepare(&$0)
    }
  }

  /// Links L0 to L7 (ids 0 to 7); L7 never viewed, the others viewed in the order
  /// L3, L0, L1, L2, L4, L5, L6, ten seconds apart.
  func seed() async throws -> [Link] {
    try await fixture.seedLinks((0..<8).map { "L\($0)" })
    return try await fixture.seed { _, links in
      var viewed: [Link] = []
      for number in [3, 0, 1, 2, 4, 5, 6] as [UInt64] {
        self.fixture.advance(by: 10)
        viewed.append(try await links.markViewed(id(number)))
      }
      return viewed
    }
  }

  /// "A" (id 1), viewed at the start.
  let viewedA = Link(
    id: id(1), title: "A", url: seededURL(1), createdAt: Fixture.start,
    lastViewedDate: Fixture.start)

  @Test func onAppearShowsTheSixMostRecentlyViewedLinks() async throws {
    let viewed = try await seed()
    let recent = Array(viewed.reversed().prefix(6))
    let store = makeStore(RecentLinks.State())
    await store.send(.onAppear)
    await store.receive(.linksResponse(.success(recent))) {
      $0.show(recent)
    }
    await store.finish()
    #expect(store.state.rows.map(\.title) == ["L6", "L5", "L4", "L2", "L1", "L0"])
    #expect(store.state.rows.first?.lastViewedDate == Fixture.start.addingTimeInterval(480 + 70))
    #expect(store.state.rows.map(\.url) == [6, 5, 4, 2, 1, 0].map(seededURL))
  }

  @Test func aLinkNeverViewedHasNoRow() {
    let link = Link(id: id(1), title: "A", url: URL(fileURLWithPath: "/"), createdAt: .distantPast)
    #expect(RecentLinks.Row(LoadedLink(link)) == nil)
  }

  @Test func aFailedLoadShowsTheAlertAndKeepsTheRows() async {
    let store = makeStore(.showing([viewedA]))
    store.dependencies.linkClient = .failing(.storageFailed("Disk full."))
    await store.send(.onAppear)
    await store.receive(.linksResponse(.failure(.storageFailed("Disk full.")))) {
      $0.alert = AlertState { TextState("The links could not be read or saved: Disk full.") }
    }
    await store.finish()
  }

  @Test func aLoadAfterAFailedOneShowsTheLinksUnderTheAlert() async throws {
    let viewed = try await seed()
    let recent = Array(viewed.reversed().prefix(6))
    let store = makeStore()
    store.dependencies.linkClient = .failing(.storageFailed("Disk full."))
    await store.send(.onAppear)
    await store.receive(.linksResponse(.failure(.storageFailed("Disk full.")))) {
      $0.alert = AlertState { TextState("The links could not be read or saved: Disk full.") }
    }
    store.dependencies.linkClient = fixture.linkClient
    await store.send(.onAppear)
    await store.receive(.linksResponse(.success(recent))) {
      $0.show(recent)
    }
    await store.finish()
  }

  @Test func aReloadWhileALoadIsInFlightShowsOnlyTheReloadsLinks() async throws {
    let viewed = try await seed()
    // NB: the first load reads before L7 is viewed but answers last: a stale answer arriving
    // after the new one.
    let answers = HeldAnswers(answeringAt: .seconds(2), .seconds(1))
    let client = fixture.linkClient
    let store = makeStore()
    store.dependencies.linkClient.fetchRecentLinks = { limit in
      try await answers.answer { try await client.fetchRecentLinks(limit: limit) }
    }
    await store.send(.onAppear)
    await answers.waitForRead(0)
    fixture.advance(by: 10)
    let l7 = try await fixture.seed { _, links in try await links.markViewed(id(7)) }
    await store.send(.onAppear)
    await answers.clock.advance(by: .seconds(1))
    let recent = [l7] + viewed.reversed().prefix(5)
    await store.receive(.linksResponse(.success(recent))) {
      $0.show(recent)
    }
    await answers.clock.advance(by: .seconds(1))
    await store.finish()
    #expect(store.state.rows.map(\.title) == ["L7", "L6", "L5", "L4", "L2", "L1"])
  }

  @Test func openingARowAsksTheParentToOpenTheLink() async {
    let store = makeStore(.showing([viewedA]))
    await store.send(.rows(.element(id: id(1), action: .selected)))
    await store.receive(.rows(.element(id: id(1), action: .delegate(.open))))
    await store.receive(.delegate(.openLink(id(1))))
    await store.finish()
  }

  @Test func togglingARowsFavoriteSavesItThenShowsIt() async throws {
    let viewed = try await seed()
    var saved = viewed[6]
    saved.isFavorite = true
    let store = makeStore(.showing(viewed))
    await store.send(.rows(.element(id: id(6), action: .favoriteSubmitted)))
    await store.receive(.rows(.element(id: id(6), action: .delegate(.setFavorite(true)))))
    await store.receive(.favoriteResponse(.success(saved))) {
      $0.$links.withLock { $0[id: id(6)]?.isFavorite = true }
    }
    #expect(store.state.rows[id: id(6)]?.isFavorite == true)
    await store.finish()
    #expect(try await fixture.stored(id(6)).isFavorite)
  }

  @Test func togglingTheFavoriteOfALinkDeletedMeanwhileShowsTheAlert() async {
    var favorite = viewedA
    favorite.isFavorite = true
    let store = makeStore(.showing([favorite]))
    await store.send(.rows(.element(id: id(1), action: .favoriteSubmitted)))
    await store.receive(.rows(.element(id: id(1), action: .delegate(.setFavorite(false)))))
    await store.receive(.favoriteResponse(.failure(.notFound(id(1))))) {
      $0.alert = AlertState {
        TextState("No link with id '00000000-0000-0000-0000-000000000001' exists.")
      }
    }
    await store.finish()
  }

  @Test func aFavoriteSavedAfterAFailedOneShowsUnderTheAlert() async throws {
    let viewed = try await seed()
    var saved = viewed[6]
    saved.isFavorite = true
    try await fixture.linkClient.deleteLink(id(5))
    let store = makeStore(.showing(viewed))
    await store.send(.rows(.element(id: id(5), action: .favoriteSubmitted)))
    await store.receive(.rows(.element(id: id(5), action: .delegate(.setFavorite(true)))))
    await store.receive(.favoriteResponse(.failure(.notFound(id(5))))) {
      $0.alert = AlertState {
        TextState("No link with id '00000000-0000-0000-0000-000000000005' exists.")
      }
    }
    await store.send(.rows(.element(id: id(6), action: .favoriteSubmitted)))
    await store.receive(.rows(.element(id: id(6), action: .delegate(.setFavorite(true)))))
    await store.receive(.favoriteResponse(.success(saved))) {
      $0.$links.withLock { $0[id: id(6)]?.isFavorite = true }
    }
    await store.finish()
  }

  @Test func delegateActionsAreForTheParentAndChangeNothing() async {
    let store = makeStore()
    await store.send(.delegate(.openLink(id(1))))
    await store.finish()
  }
}
