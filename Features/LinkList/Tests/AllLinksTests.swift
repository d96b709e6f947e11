import CategoryClient
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

  let rust = AllLinks.Row(
    id: id(3), title: "Rust", url: seededURL(2), isFavorite: false, createdAt: seededDate(2),
    categoryName: "Work")
  let kotlin = AllLinks.Row(
    id: id(2), title: "Kotlin", url: seededURL(1), isFavorite: false, createdAt: seededDate(1),
    categoryName: nil)
  let swift = AllLinks.Row(
    id: id(1), title: "Swift", url: seededURL(0), isFavorite: false, createdAt: seededDate(0),
    categoryName: "Work")

  // MARK: Loading

  @Test func loadRequestedShowsEveryLinkNewestFirstWithItsCategoryName() async throws {
    try await seed()
    let store = makeStore(AllLinks.State(errorMessage: "Old failure."))
    await store.send(.loadRequested)
    await store.receive(.linksResponse(.success([rust, kotlin, swift]))) {
      $0.rows = [rust, kotlin, swift]
      $0.errorMessage = nil
    }
    await store.finish()
  }

  @Test func categoryFilterChangedShowsOnlyThatCategorysLinks() async throws {
    try await seed()
    let store = makeStore()
    await store.send(.categoryFilterChanged(id(0))) { $0.categoryFilter = id(0) }
    await store.receive(.linksResponse(.success([rust, swift]))) { $0.rows = [rust, swift] }
    await store.send(.categoryFilterChanged(nil)) { $0.categoryFilter = nil }
    await store.receive(.linksResponse(.success([rust, kotlin, swift]))) {
      $0.rows = [rust, kotlin, swift]
    }
    await store.finish()
  }

  @Test func choosingTheFilterShownLoadsNothing() async throws {
    try await seed()
    let store = makeStore(AllLinks.State(categoryFilter: id(0), rows: [rust, swift]))
    await store.send(.categoryFilterChanged(id(0)))
    await store.finish()
  }

  @Test func categoryFilterChangedToAMissingCategoryShowsTheErrorAndKeepsTheRows() async throws {
    try await seed()
    let store = makeStore(AllLinks.State(rows: [kotlin]))
    await store.send(.categoryFilterChanged(id(9))) { $0.categoryFilter = id(9) }
    await store.receive(.linksResponse(.failure(.categoryNotFound(id(9))))) {
      $0.errorMessage = "No category with id '00000000-0000-0000-0000-000000000009' exists."
    }
    await store.finish()
  }

  @Test func aFailedLoadShowsTheErrorAndKeepsTheRows() async {
    let store = makeStore(AllLinks.State(rows: [kotlin]))
    store.dependencies.linkClient = .failing(.storageFailed("Disk full."))
    await store.send(.loadRequested)
    await store.receive(.linksResponse(.failure(.storageFailed("Disk full.")))) {
      $0.errorMessage = "The links could not be read or saved: Disk full."
    }
    await store.finish()
  }

  @Test func aLoadAfterAFailedOneShowsTheLinksAndClearsTheError() async throws {
    try await seed()
    let store = makeStore()
    store.dependencies.linkClient = .failing(.storageFailed("Disk full."))
    await store.send(.loadRequested)
    await store.receive(.linksResponse(.failure(.storageFailed("Disk full.")))) {
      $0.errorMessage = "The links could not be read or saved: Disk full."
    }
    store.dependencies.linkClient = fixture.linkClient
    await store.send(.loadRequested)
    await store.receive(.linksResponse(.success([rust, kotlin, swift]))) {
      $0.rows = [rust, kotlin, swift]
      $0.errorMessage = nil
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
    store.dependencies.linkClient.fetchLinksInCategory = { categoryID in
      try await answers.answer { try await client.fetchLinksInCategory(categoryID) }
    }
    store.dependencies.linkClient.fetchLinks = {
      try await answers.answer { try await client.fetchLinks() }
    }
    await store.send(.categoryFilterChanged(id(0))) { $0.categoryFilter = id(0) }
    await answers.waitForRead(0)
    await store.send(.categoryFilterChanged(nil)) { $0.categoryFilter = nil }
    await answers.clock.advance(by: .seconds(1))
    await store.receive(.linksResponse(.success([rust, kotlin, swift]))) {
      $0.rows = [rust, kotlin, swift]
    }
    await answers.clock.advance(by: .seconds(1))
    await store.finish()
  }

  // MARK: Rows

  @Test func openingARowAsksTheParentToOpenTheLink() async throws {
    let store = makeStore(AllLinks.State(rows: [kotlin]))
    await store.send(.rows(.element(id: id(2), action: .openTapped)))
    await store.receive(.rows(.element(id: id(2), action: .delegate(.open))))
    await store.receive(.delegate(.openLink(id(2))))
    await store.finish()
  }

  @Test func togglingARowsFavoriteSavesItThenShowsIt() async throws {
    var saved = try await seed()[1]
    saved.isFavorite = true
    let store = makeStore(AllLinks.State(rows: [rust, kotlin, swift]))
    await store.send(.rows(.element(id: id(2), action: .favoriteTapped)))
    await store.receive(.rows(.element(id: id(2), action: .delegate(.setFavorite(true)))))
    await store.receive(.favoriteResponse(.success(saved))) {
      $0.rows[id: id(2)]?.isFavorite = true
    }
    await store.finish()
    #expect(try await fixture.stored(id(2)).isFavorite)
    await store.send(.rows(.element(id: id(2), action: .favoriteTapped)))
    await store.receive(.rows(.element(id: id(2), action: .delegate(.setFavorite(false)))))
    saved.isFavorite = false
    await store.receive(.favoriteResponse(.success(saved))) {
      $0.rows[id: id(2)]?.isFavorite = false
    }
    await store.finish()
    #expect(try await !fixture.stored(id(2)).isFavorite)
  }

  @Test func togglingTheFavoriteOfALinkDeletedMeanwhileShowsTheError() async throws {
    try await seed()
    try await fixture.linkClient.deleteLink(id(2))
    let store = makeStore(AllLinks.State(rows: [kotlin]))
    await store.send(.rows(.element(id: id(2), action: .favoriteTapped)))
    await store.receive(.rows(.element(id: id(2), action: .delegate(.setFavorite(true)))))
    await store.receive(.favoriteResponse(.failure(.notFound(id(2))))) {
      $0.errorMessage = "No link with id '00000000-0000-0000-0000-000000000002' exists."
    }
    await store.finish()
  }

  @Test func aFavoriteSavedAfterAFailedOneClearsTheError() async throws {
    var saved = try await seed()[0]
    saved.isFavorite = true
    try await fixture.linkClient.deleteLink(id(2))
    let store = makeStore(AllLinks.State(rows: [kotlin, swift]))
    await store.send(.rows(.element(id: id(2), action: .favoriteTapped)))
    await store.receive(.rows(.element(id: id(2), action: .delegate(.setFavorite(true)))))
    await store.receive(.favoriteResponse(.failure(.notFound(id(2))))) {
      $0.errorMessage = "No link with id '00000000-0000-0000-0000-000000000002' exists."
    }
    await store.send(.rows(.element(id: id(1), action: .favoriteTapped)))
    await store.receive(.rows(.element(id: id(1), action: .delegate(.setFavorite(true)))))
    await store.receive(.favoriteResponse(.success(saved))) {
      $0.errorMessage = nil
      $0.rows[id: id(1)]?.isFavorite = true
    }
    await store.finish()
  }

  @Test func delegateActionsAreForTheParentAndChangeNothing() async {
    let store = makeStore()
    await store.send(.delegate(.openLink(id(1))))
    await store.finish()
  }
}
