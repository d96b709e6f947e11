import Foundation
import LinkClient
import LinkList
import LoopTesting
import Synchronization
import TestSupport
import Testing

/// The queries a client was asked to search, in order.
final class QueryLog: Sendable {
  private let queries = Mutex<[String]>([])
  var all: [String] { queries.withLock { $0 } }
  func append(_ query: String) { queries.withLock { $0.append(query) } }
}

@MainActor
@Suite struct SearchLinksTests {
  let fixture = Fixture()

  func makeStore(_ state: SearchLinks.State = SearchLinks.State()) -> TestStore<
    SearchLinks.State, SearchLinks.Action
  > {
    TestStore(initialState: state) {
      SearchLinks()
    } withDependencies: {
      fixture.prepare(&$0)
    }
  }

  /// Links "Swift Testing" (0), "Kotlin" (1), "SWIFT concurrency" (2), a minute apart.
  @discardableResult
  func seed() async throws -> [Link] {
    try await fixture.seedLinks(["Swift Testing", "Kotlin", "SWIFT concurrency"])
  }

  /// The links the query "swift" finds, newest first, as ``seed()`` stores them.
  let swiftLinks = [
    Link(id: id(2), title: "SWIFT concurrency", url: seededURL(2), createdAt: seededDate(2)),
    Link(id: id(0), title: "Swift Testing", url: seededURL(0), createdAt: seededDate(0)),
  ]

  /// The links' rows for the query "swift": newest first, matched at the start.
  var swiftRows: [SearchLinks.Row] {
    [
      SearchLinks.Row(
        id: id(2), title: "SWIFT concurrency", url: seededURL(2), isFavorite: false,
        createdAt: seededDate(2), matchedRange: 0..<5),
      SearchLinks.Row(
        id: id(0), title: "Swift Testing", url: seededURL(0), isFavorite: false,
        createdAt: seededDate(0), matchedRange: 0..<5),
    ]
  }

  /// Makes the store's client wait a second on the test clock before each search, and log it.
  func slowSearches(_ store: TestStore<SearchLinks.State, SearchLinks.Action>) -> QueryLog {
    let log = QueryLog()
    let (clock, client) = (fixture.clock, fixture.linkClient)
    store.dependencies.linkClient.searchLinks = { query in
      log.append(query)
      try await clock.sleep(for: .seconds(1))
      return try await client.searchLinks(query)
    }
    return log
  }

  // MARK: Typing

  @Test func aTypedQueryIsSearchedOnceItSettles() async throws {
    let links = try await seed()
    let store = makeStore()
    await store.send(.queryChanged("sw")) {
      $0.query = "sw"
      $0.isSearching = true
    }
    await fixture.clock.advance(by: .milliseconds(200))
    await store.send(.queryChanged("swift")) { $0.query = "swift" }
    await fixture.clock.advance(by: .milliseconds(299))
    await fixture.clock.advance(by: .milliseconds(1))
    await store.receive(.searchResponse(.success([links[2], links[0]]))) {
      $0.isSearching = false
      $0.show([links[2], links[0]])
    }
    #expect(store.state.rows.elements == swiftRows)
    await store.finish()
  }

  @Test func aKeystrokeThatLeavesTheQueryAsItWasSearchesNothing() async throws {
    try await seed()
    let store = makeStore(
      .showing(swiftLinks, query: "swift"))
    let log = slowSearches(store)
    await store.send(.queryChanged("swift"))
    await fixture.clock.advance(by: SearchLinks.debounce)
    await store.finish()
    #expect(log.all == [])
  }

  @Test func aNewerQueryCancelsTheSearchInFlight() async throws {
    let links = try await seed()
    let store = makeStore()
    let log = slowSearches(store)
    await store.send(.queryChanged("kotlin")) {
      $0.query = "kotlin"
      $0.isSearching = true
    }
    await fixture.clock.advance(by: SearchLinks.debounce)
    #expect(log.all == ["kotlin"])
    await store.send(.queryChanged("swift")) { $0.query = "swift" }
    await fixture.clock.advance(by: SearchLinks.debounce)
    await fixture.clock.advance(by: .seconds(1))
    await store.receive(.searchResponse(.success([links[2], links[0]]))) {
      $0.isSearching = false
      $0.show([links[2], links[0]])
    }
    await store.finish()
    #expect(log.all == ["kotlin", "swift"])
  }

  @Test func aSubmittedQueryIsSearchedAtOnceAndCancelsATypedOne() async throws {
    let links = try await seed()
    let store = makeStore()
    let log = slowSearches(store)
    await store.send(.queryChanged("kotlin")) {
      $0.query = "kotlin"
      $0.isSearching = true
    }
    await store.send(.searchSubmitted("swift")) { $0.query = "swift" }
    await fixture.clock.advance(by: .seconds(1))
    await store.receive(.searchResponse(.success([links[2], links[0]]))) {
      $0.isSearching = false
      $0.show([links[2], links[0]])
    }
    await fixture.clock.advance(by: .seconds(5))
    await store.finish()
    #expect(log.all == ["swift"])
  }

  @Test func aBlankQueryListsEveryLinkWithNoMatch() async throws {
    let links = try await seed()
    let store = makeStore(
      .showing(swiftLinks, query: "swift"))
    await store.send(.searchSubmitted("  ")) {
      $0.query = "  "
      $0.isSearching = true
    }
    await store.receive(.searchResponse(.success([links[2], links[1], links[0]]))) {
      $0.isSearching = false
      $0.show([links[2], links[1], links[0]])
    }
    #expect(
      store.state.rows == [
        SearchLinks.Row(
          id: id(2), title: "SWIFT concurrency", url: seededURL(2), isFavorite: false,
          createdAt: seededDate(2), matchedRange: nil),
        SearchLinks.Row(
          id: id(1), title: "Kotlin", url: seededURL(1), isFavorite: false,
          createdAt: seededDate(1), matchedRange: nil),
        SearchLinks.Row(
          id: id(0), title: "Swift Testing", url: seededURL(0), isFavorite: false,
          createdAt: seededDate(0), matchedRange: nil),
      ])
    await store.finish()
  }

  @Test func onAppearSearchesTheCurrentQueryAgainNow() async throws {
    var links = try await seed()
    _ = try await fixture.linkClient.setFavorite(id(0), true)
    links[0].isFavorite = true
    let store = makeStore(
      .showing(swiftLinks, query: "swift"))
    await store.send(.onAppear) { $0.isSearching = true }
    await store.receive(.searchResponse(.success([links[2], links[0]]))) {
      $0.isSearching = false
      $0.$links.withLock { $0[id: id(0)]?.isFavorite = true }
    }
    await store.finish()
  }

  @Test func aFailedSearchShowsTheAlertAndKeepsTheRows() async throws {
    let store = makeStore(
      .showing(swiftLinks, query: "swift"))
    store.dependencies.linkClient = .failing(.storageFailed("Disk full."))
    await store.send(.searchSubmitted("kotlin")) {
      $0.query = "kotlin"
      $0.isSearching = true
    }
    await store.receive(.searchResponse(.failure(.storageFailed("Disk full.")))) {
      $0.isSearching = false
      $0.alert = AlertState { TextState("The links could not be read or saved: Disk full.") }
    }
    await store.finish()
  }

  @Test func aSearchAfterAFailedOneShowsTheLinksUnderTheAlert() async throws {
    let links = try await seed()
    let store = makeStore()
    store.dependencies.linkClient = .failing(.storageFailed("Disk full."))
    await store.send(.searchSubmitted("swift")) {
      $0.query = "swift"
      $0.isSearching = true
    }
    await store.receive(.searchResponse(.failure(.storageFailed("Disk full.")))) {
      $0.isSearching = false
      $0.alert = AlertState { TextState("The links could not be read or saved: Disk full.") }
    }
    store.dependencies.linkClient = fixture.linkClient
    await store.send(.onAppear) { $0.isSearching = true }
    await store.receive(.searchResponse(.success([links[2], links[0]]))) {
      $0.isSearching = false
      $0.show([links[2], links[0]])
    }
    await store.finish()
  }

  // MARK: Rows

  @Test func theMatchedRangeIsWhereTheQueryIsInTheTitleIgnoringCase() {
    let link = Link(
      id: id(1), title: "Die Straße von Swift",
      url: URL(fileURLWithPath: "/"), createdAt: Fixture.start)
    let loaded = LoadedLink(link)
    #expect(SearchLinks.Row(loaded, query: "swift")?.matchedRange == 15..<20)
    #expect(SearchLinks.Row(loaded, query: " STRASSE ")?.matchedRange == 4..<10)
    #expect(SearchLinks.Row(loaded, query: "kotlin")?.matchedRange == nil)
    #expect(SearchLinks.Row(loaded, query: "")?.matchedRange == nil)
  }

  @Test func openingARowAsksTheParentToOpenTheLink() async {
    let store = makeStore(.showing(swiftLinks))
    await store.send(.rows(.element(id: id(0), action: .selected)))
    await store.receive(.rows(.element(id: id(0), action: .delegate(.open))))
    await store.receive(.delegate(.openLink(id(0))))
    await store.finish()
  }

  @Test func togglingARowsFavoriteSavesItThenShowsIt() async throws {
    var saved = try await seed()[2]
    saved.isFavorite = true
    let store = makeStore(
      .showing(swiftLinks, query: "swift"))
    await store.send(.rows(.element(id: id(2), action: .favoriteSubmitted)))
    await store.receive(.rows(.element(id: id(2), action: .delegate(.setFavorite(true)))))
    await store.receive(.favoriteResponse(.success(saved))) {
      $0.$links.withLock { $0[id: id(2)]?.isFavorite = true }
    }
    #expect(store.state.rows[id: id(2)]?.isFavorite == true)
    await store.finish()
    #expect(try await fixture.stored(id(2)).isFavorite)
  }

  @Test func togglingTheFavoriteOfALinkDeletedMeanwhileShowsTheAlert() async throws {
    let store = makeStore(.showing(swiftLinks))
    await store.send(.rows(.element(id: id(0), action: .favoriteSubmitted)))
    await store.receive(.rows(.element(id: id(0), action: .delegate(.setFavorite(true)))))
    await store.receive(.favoriteResponse(.failure(.notFound(id(0))))) {
      $0.alert = AlertState {
        TextState("No link with id '00000000-0000-0000-0000-000000000000' exists.")
      }
    }
    await store.finish()
  }

  @Test func aFavoriteSavedAfterAFailedOneShowsUnderTheAlert() async throws {
    var saved = try await seed()[2]
    saved.isFavorite = true
    try await fixture.linkClient.deleteLink(id(0))
    let store = makeStore(
      .showing(swiftLinks, query: "swift"))
    await store.send(.rows(.element(id: id(0), action: .favoriteSubmitted)))
    await store.receive(.rows(.element(id: id(0), action: .delegate(.setFavorite(true)))))
    await store.receive(.favoriteResponse(.failure(.notFound(id(0))))) {
      $0.alert = AlertState {
        TextState("No link with id '00000000-0000-0000-0000-000000000000' exists.")
      }
    }
    await store.send(.rows(.element(id: id(2), action: .favoriteSubmitted)))
    await store.receive(.rows(.element(id: id(2), action: .delegate(.setFavorite(true)))))
    await store.receive(.favoriteResponse(.success(saved))) {
      $0.$links.withLock { $0[id: id(2)]?.isFavorite = true }
    }
    await store.finish()
  }

  @Test func delegateActionsAreForTheParentAndChangeNothing() async {
    let store = makeStore()
    await store.send(.delegate(.openLink(id(1))))
    await store.finish()
  }
}
