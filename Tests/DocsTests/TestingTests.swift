import Foundation
import LoopTesting
import Testing

// The code of Sources/LoopTesting/LoopTesting.docc/Testing.md.

// snippet: song-search-feature
/// Searches the songs once the typing stops.
struct SongSearch: Reducer {
  struct State: Equatable {
    var query = ""
    var results: [String] = []
  }

  enum Action: Equatable {
    case queryChanged(String)
    case resultsResponse([String])
  }

  enum CancelID { case search }

  @Dependency(\.continuousClock) var clock

  let songs = ["Blue in Green", "Freddie Freeloader", "So What"]

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .queryChanged(let query):
      state.query = query
      let songs = self.songs
      return .debounce(id: CancelID.search, for: .milliseconds(300), clock: clock) { send in
        await send(.resultsResponse(songs.filter { $0.lowercased().contains(query) }))
      }
    case .resultsResponse(let results):
      state.results = results
      return .none
    }
  }
}
// snippet: end

// snippet: lookup-feature
/// Looks a song up; its answer carries an error, so its actions are not `Equatable`.
struct Lookup: Reducer {
  struct State: Equatable {
    var found: String?
  }

  enum Action {
    case lookUp(Int)
    case answered(Result<String, any Error>)
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .lookUp(let number):
      return .run { send in await send(.answered(.success("Track \(number)"))) }
    case .answered(let result):
      state.found = try? result.get()
      return .none
    }
  }
}
// snippet: end

/// A test store of `SongSearch` on `clock`, for the tests whose setup no article shows.
@MainActor
func songSearchStore(
  clock: any Clock<Duration> = TestClock()
) -> TestStore<SongSearch.State, SongSearch.Action> {
  TestStore(initialState: SongSearch.State()) {
    SongSearch()
  } withDependencies: {
    $0.continuousClock = clock
  }
}

/// The issues `body` reports, collected instead of failing the test.
@MainActor
func reportedIssues(of body: () async -> Void) async -> IssueCollector {
  let collector = IssueCollector()
  await withIssueReporter(collector) { await body() }
  return collector
}

@Suite struct TestingTests {
  // snippet: song-search-test
  @MainActor @Test func searchingWaitsUntilTheTypingStops() async {
    let clock = TestClock()
    let store = TestStore(initialState: SongSearch.State()) {
      SongSearch()
    } withDependencies: {
      $0.continuousClock = clock
    }

    await store.send(.queryChanged("s")) { $0.query = "s" }
    await clock.advance(by: .milliseconds(200))
    await store.send(.queryChanged("so")) { $0.query = "so" }
    await clock.advance(by: .milliseconds(300))
    await store.receive(.resultsResponse(["So What"])) { $0.results = ["So What"] }
    await store.finish()
  }
  // snippet: end

  @MainActor @Test func aNonExhaustiveTestChecksOnlyWhatItStates() async {
    // snippet: song-search-non-exhaustive
    let store = TestStore(initialState: SongSearch.State()) {
      SongSearch()
    } withDependencies: {
      $0.continuousClock = ImmediateClock()
    }
    store.exhaustivity = .off

    await store.send(.queryChanged("blue"))
    await store.receive(.resultsResponse(["Blue in Green"]))
    #expect(store.state.results == ["Blue in Green"])
    // snippet: end
  }

  @MainActor @Test func skippedAssertionsCanBeShownAsKnownIssues() async {
    let issues = await reportedIssues {
      let store = songSearchStore()
      // snippet: song-search-show-skipped
      store.exhaustivity = .off(showSkippedAssertions: true)
      await store.send(.queryChanged("so"))
      await store.skipInFlightEffects()
      // snippet: end
    }
    #expect(issues.messages.isEmpty)
    #expect(
      issues.knownIssues == [
        // snippet: song-search-skipped-message
        """
        A state change was not asserted.

            SongSearch.State(
          −   query: "",
          +   query: "so",
              results: []
            )

        (Expected: −, Actual: +)
        """
        // snippet: end
      ])
  }

  @MainActor @Test func aStepCanBeCheckedLessStrictly() async {
    let clock = TestClock()
    let store = songSearchStore(clock: clock)
    // snippet: song-search-with-exhaustivity
    await store.withExhaustivity(.off) {
      await store.send(.queryChanged("free"))
      await clock.advance(by: .milliseconds(300))
      await store.receive(.resultsResponse(["Freddie Freeloader"]))
    }
    store.assert {
      $0.query = "free"
      $0.results = ["Freddie Freeloader"]
    }
    // snippet: end
  }

  @MainActor @Test func actionsThatAreNotEquatableAreReceivedByCase() async {
    // snippet: lookup-test
    let store = TestStore(initialState: Lookup.State()) { Lookup() }
    await store.send(.lookUp(7))
    await store.receive(.case(Lookup.Action.answered)) { $0.found = "Track 7" }
    // snippet: end
  }

  @MainActor @Test func aPredicateReceivesAnActionThatIsNotEquatable() async {
    let store = TestStore(initialState: Lookup.State()) { Lookup() }
    await store.send(.lookUp(1))
    // snippet: lookup-predicate
    let isSuccess: (Lookup.Action) -> Bool = {
      if case .answered(.success) = $0 { true } else { false }
    }
    await store.receive(isSuccess) { $0.found = "Track 1" }
    // snippet: end
  }

  @MainActor @Test func aTaskOfOneSendIsAwaitedOrCancelled() async {
    let store = songSearchStore()
    // snippet: song-search-task
    let task = await store.send(.queryChanged("blue")) { $0.query = "blue" }
    await task.cancel()
    #expect(task.isCompleted)
    // snippet: end
  }

  // MARK: - Failures, word for word

  @MainActor @Test func aWrongStateIsADiff() async {
    let issues = await reportedIssues {
      let store = songSearchStore()
      // snippet: song-search-wrong-state
      await store.send(.queryChanged("so")) { $0.query = "s" }
      // snippet: end
      await store.skipInFlightEffects()
    }
    #expect(
      issues.messages == [
        // snippet: song-search-wrong-state-message
        """
        A state change does not match expectation.

            SongSearch.State(
          −   query: "s",
          +   query: "so",
              results: []
            )

        (Expected: −, Actual: +)
        """
        // snippet: end
      ])
  }

  @MainActor @Test func anActionNotReceivedIsAFailure() async {
    let issues = await reportedIssues {
      let store = songSearchStore(clock: ImmediateClock())
      await store.send(.queryChanged("so")) { $0.query = "so" }
      await store.finish()
    }
    #expect(
      issues.messages == [
        // snippet: song-search-unreceived-message
        """
        The store received 1 unexpected action.

        Unhandled actions:
          • SongSearch.Action.resultsResponse(
              [
                "So What"
              ]
            )

        To fix, assert each with 'receive' before the end of the test, or call 'skipReceivedActions()'.
        """
        // snippet: end
      ])
  }

  @MainActor @Test func anEffectStillRunningIsAFailure() async {
    let issues = await reportedIssues {
      let store = songSearchStore()
      await store.send(.queryChanged("so")) { $0.query = "so" }
      await store.finish(timeout: .milliseconds(10))
    }
    #expect(
      issues.messages == [
        // snippet: song-search-running-message
        """
        An effect returned for this action is still running. It must complete before the end of the test.

            SongSearch.Action.queryChanged("so")

        To fix, make the effect finish (advance a 'TestClock', finish a stream), cancel it with an action that returns '.cancel(id:)', or call 'skipInFlightEffects()'.
        """
        // snippet: end
      ])
  }
}
