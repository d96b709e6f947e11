import Foundation
import LoopTesting
import Testing

// The code of Sources/LoopTesting/LoopTesting.docc/ExploringAReducer.md.

// snippet: mixtape-feature
/// A playlist that keeps its songs and how many it holds.
struct Mixtape: Reducer {
  struct State: Equatable {
    var songs: [String] = []
    var count = 0
  }

  enum Action: Equatable {
    case addSubmitted(String)
    case clearSubmitted
    case removeSubmitted(String)
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .addSubmitted(let song):
      state.songs.append(song)
      state.count += 1
    case .clearSubmitted:
      state.songs = []  // the count stays behind: the bug the exploration finds
    case .removeSubmitted(let song):
      guard let index = state.songs.firstIndex(of: song) else { break }
      state.songs.remove(at: index)
      state.count -= 1
    }
    return .none
  }
}
// snippet: end

// snippet: mixtape-generator
extension Mixtape {
  /// What a listener does: adds a song (most often), removes one it holds, clears the list.
  static var actions: ActionGenerator<State, Action> {
    ActionGenerator(
      .case(weight: 3) { random, _ in .addSubmitted(random.string(length: 1...6)) },
      .element(of: \.songs) { song, _ in .removeSubmitted(song) },
      .always(.clearSubmitted)
    )
  }

  /// The contract: the count is the number of songs.
  static func isCounted(_ state: State) -> Bool {
    state.count == state.songs.count
  }
}
// snippet: end

@MainActor @Suite struct ExploringAReducerTests {
  @Test func theExplorationFindsTheForgottenCount() async {
    let issues = IssueCollector()
    await withIssueReporter(issues) { await exploration() }
    #expect(issues.messages == [failure])
  }

  func exploration() async {
    // snippet: mixtape-exploration
    await TestStore.explore(
      initialState: { Mixtape.State() },
      reducer: { Mixtape() },
      actions: Mixtape.actions,
      seed: 7,
      invariantName: "Mixtape.isCounted",
      invariant: Mixtape.isCounted
    )
    // snippet: end
  }

  let failure =
    // snippet: mixtape-failure
    """
    Exploration failed in run 1 after 2 steps (shrunk from 6):

        The invariant does not hold after step 2.

    Replay the exploration with seed: 7

    The shortest sequence found, as a test:

    @MainActor @Test func exploredFailure() async {
      let clock = TestClock()
      let store = TestStore(initialState: DocsTests.Mixtape.State(songs: [], count: 0)) {
        DocsTests.Mixtape()
      } withDependencies: {
        $0.continuousClock = clock
      }
      await store.send(.addSubmitted("a")) {
        $0.songs = ["a"]
        $0.count = 1
      }
      await store.send(.clearSubmitted) {
        $0.songs = []
      }
      #expect(Mixtape.isCounted(store.state))
    }
    """
  // snippet: end

  @Test func theRegressionTestFailsUntilTheReducerIsFixed() async {
    let issues = IssueCollector()
    await withIssueReporter(issues) { await clearingEmptiesTheCountToo() }
    #expect(issues.messages.count == 1)
    #expect(issues.messages.first?.hasPrefix("A state change does not match expectation.") == true)
  }

  // NB: not a `@Test` here, where the playlist keeps its bug to be found.
  // snippet: mixtape-regression
  func clearingEmptiesTheCountToo() async {
    let store = TestStore(initialState: Mixtape.State()) { Mixtape() }
    await store.send(.addSubmitted("a")) {
      $0.songs = ["a"]
      $0.count = 1
    }
    await store.send(.clearSubmitted) {
      $0.songs = []
      $0.count = 0
    }
  }
  // snippet: end
}
