import Foundation
import LoopTesting
import Testing

// The code of Sources/Loop/Loop.docc/GettingStarted.md, without the imports that open its files:
// ArticlePackageTests builds the article's own package as printed, imports and manifest
// included; here the same code compiles beside the other articles' snippets, which build on it.

// snippet: bookshelf-client
/// Where the reading list keeps its titles.
struct Bookshelf: Sendable {
  var add: @Sendable (_ title: String) async throws -> Void
  var titles: @Sendable () async throws -> [String]
}
// snippet: end

// snippet: bookshelf-key
extension Bookshelf: DependencyKey {
  static let liveValue: Bookshelf = {
    let shelf = Shelf()
    return Bookshelf(add: { await shelf.add($0) }, titles: { await shelf.titles })
  }()

  static let testValue = Bookshelf(
    add: unimplemented("Bookshelf.add"),
    titles: unimplemented("Bookshelf.titles"))
}

extension DependencyValues {
  var bookshelf: Bookshelf {
    get { self[Bookshelf.self] }
    set { self[Bookshelf.self] = newValue }
  }
}

/// Titles kept in memory for as long as the app runs.
actor Shelf {
  var titles: [String] = []
  func add(_ title: String) { titles.append(title) }
}
// snippet: end

// snippet: reading-list-feature
struct ReadingList: Reducer {
  struct State: Equatable {
    var draft = ""
    var isLoading = false
    var titles: [String] = []
  }

  enum Action: Equatable {
    case addSubmitted
    case draftChanged(String)
    case onAppear
    case titlesResponse([String])
  }

  @Dependency(\.bookshelf) var bookshelf

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .addSubmitted:
        let title = state.draft.trimmingCharacters(in: .whitespaces)
        guard !title.isEmpty else { return .none }
        state.draft = ""
        state.titles.append(title)
        return .run { _ in try await bookshelf.add(title) }
      case .draftChanged(let draft):
        state.draft = draft
        return .none
      case .onAppear:
        state.isLoading = true
        return .run { send in
          await send(.titlesResponse(try await bookshelf.titles()))
        }
      case .titlesResponse(let titles):
        state.isLoading = false
        state.titles = titles
        return .none
      }
    }
  }
}
// snippet: end

// snippet: reading-list-run
/// Runs the reading list: the app's one store, created and used on the main actor.
@MainActor
func runReadingList() {
  let store = Store(initialState: ReadingList.State()) { ReadingList() }
  store.send(.draftChanged("Dune"))
  store.send(.addSubmitted)
  // store.state.titles == ["Dune"]
}
// snippet: end

@Suite struct GettingStartedTests {
  @MainActor @Test func theAppsStoreRunsTheReducerBeforeSendReturns() async {
    // NB: what `runReadingList` does, with the shelf it saves to watched; a test process
    // resolves dependencies to their test values, the app live ones.
    let shelf = Shelf()
    let store = Store(initialState: ReadingList.State()) {
      ReadingList()
    } withDependencies: {
      $0.bookshelf.add = { await shelf.add($0) }
    }
    store.send(.draftChanged("Dune"))
    let saving = store.send(.addSubmitted)
    #expect(store.state.titles == ["Dune"])
    await saving.finish()
    #expect(await shelf.titles == ["Dune"])
  }

  // snippet: reading-list-test
  @MainActor @Test func loadingThenAddingATitle() async {
    let shelf = Shelf()
    let store = TestStore(initialState: ReadingList.State()) {
      ReadingList()
    } withDependencies: {
      $0.bookshelf.add = { await shelf.add($0) }
      $0.bookshelf.titles = { ["Dune"] }
    }

    await store.send(.onAppear) { $0.isLoading = true }
    await store.receive(.titlesResponse(["Dune"])) {
      $0.isLoading = false
      $0.titles = ["Dune"]
    }
    await store.send(.draftChanged("Emma")) { $0.draft = "Emma" }
    await store.send(.addSubmitted) {
      $0.draft = ""
      $0.titles = ["Dune", "Emma"]
    }
    await store.finish()
    #expect(await shelf.titles == ["Emma"])
  }
  // snippet: end
}
