import Foundation
import LoopTesting
import Testing

/// Runs `body` with every reported issue captured, so a test can check the exact messages.
@MainActor
func capturingIssues(_ body: () async -> Void) async -> IssueCollector {
  let issues = IssueCollector()
  await withIssueReporter(issues) { await body() }
  return issues
}

extension TestStore {
  /// A test store whose `continuousClock` is `clock`: the stories a test clock drives.
  convenience init<R: Reducer>(
    initialState: State, clock: TestClock, @ReducerBuilder<State, Action> reducer: () -> R,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) where R.State == State, R.Action == Action {
    self.init(
      initialState: initialState, reducer: reducer,
      withDependencies: { $0.continuousClock = clock }, fileID: fileID, filePath: filePath,
      line: line, column: column)
  }
}

/// What a `send` or `receive` closure that changes nothing reports, whatever the state holds
/// (plain values or shared ones).
let closureChangedNothing = """
  Expected state to change, but no change occurred.

  The closure made no observable change to the state.

  To fix, remove the closure if the action is not expected to change the state.
  """

@MainActor
@Suite struct TestStoreTests {
  // MARK: Passing stories

  @Test func aCorrectStoryPassesSilently() async {
    let issues = await capturingIssues {
      let store = TestStore(initialState: Counter.State()) {
        Counter()
      } withDependencies: {
        $0.numberFact.fetch = { "\($0) is a good number" }
      }
      await store.send(.incrementTapped) { $0.count = 1 }
      await store.send(.factButtonTapped) { $0.isLoading = true }
      await store.receive(.factResponse("1 is a good number")) {
        $0.isLoading = false
        $0.fact = "1 is a good number"
      }
      await store.send(.noop)
      await store.finish()
    }
    #expect(issues.messages.isEmpty)
    #expect(issues.knownIssues.isEmpty)
  }

  @Test func anEffectThatSendsSeveralActionsIsReceivedInOrder() async {
    let issues = await capturingIssues {
      let store = TestStore(initialState: Counter.State()) { Counter() }
      await store.send(.sendSeveral)
      await store.receive(.step(1)) { $0.count = 1 }
      await store.receive(.step(2)) { $0.count = 3 }
      await store.receive(.step(3)) { $0.count = 6 }
    }
    #expect(issues.messages.isEmpty)
  }

  @Test func aDebouncedSearchDrivenByATestClock() async {
    let clock = TestClock()
    let issues = await capturingIssues {
      let store = TestStore(initialState: Search.State(), clock: clock) { Search() }
      await store.send(.queryChanged("s")) { $0.query = "s" }
      await clock.advance(by: .milliseconds(200))
      await store.send(.queryChanged("sw")) { $0.query = "sw" }
      await clock.advance(by: .milliseconds(200))
      await store.send(.queryChanged("swi")) { $0.query = "swi" }
      await clock.advance(by: .milliseconds(300))
      await store.receive(.searchResponse(["swift", "swiftly"])) {
        $0.results = ["swift", "swiftly"]
      }
      await store.finish()
    }
    #expect(issues.messages.isEmpty)
  }

  @Test func aLongLivingEffectCancelledBeforeFinishPasses() async {
    let clock = TestClock()
    let issues = await capturingIssues {
      let store = TestStore(initialState: Counter.State(), clock: clock) { Counter() }
      await store.send(.timerStarted)
      await clock.advance(by: .seconds(2))
      await store.receive(.timerTicked) { $0.count = 1 }
      await store.receive(.timerTicked) { $0.count = 2 }
      await store.send(.timerStopped)
      await clock.advance(by: .seconds(5))
      await store.finish()
    }
    #expect(issues.messages.isEmpty)
  }

  @Test func aCancelledTaskStopsItsEffect() async {
    let clock = TestClock()
    let issues = await capturingIssues {
      let store = TestStore(initialState: Counter.State(), clock: clock) { Counter() }
      let timer = await store.send(.timerStarted)
      await clock.advance(by: .seconds(1))
      await store.receive(.timerTicked) { $0.count = 1 }
      await timer.cancel()
      #expect(timer.isCompleted)
      await clock.advance(by: .seconds(3))
      await store.finish()
    }
    #expect(issues.messages.isEmpty)
  }

  @Test func receiveTakesACasePathAndAnEquatablePayload() async {
    let issues = await capturingIssues {
      let store = TestStore(initialState: Loader.State()) { Loader() }
      await store.send(.load)
      await store.receive(.case(Loader.Action.loaded), .success(42)) { $0.value = 42 }
    }
    #expect(issues.messages.isEmpty)
  }

  @Test func receivingACasePathWithAnotherPayloadShowsBoth() async {
    let issues = await capturingIssues {
      let store = TestStore(initialState: Loader.State()) { Loader() }
      await store.send(.load)
      await store.receive(.case(Loader.Action.loaded), .success(7)) { $0.value = 42 }
    }
    #expect(
      issues.messages == [
        """
        Received unexpected action.

          − Loader.Action.loaded(.success(7))
          + Loader.Action.loaded(.success(42))

        (Expected: −, Received: +)

        To fix, expect the action the effect sent, or change the effect.
        """
      ])
  }

  @Test func receiveTakesAPredicateOrACasePathForNonEquatableActions() async {
    let issues = await capturingIssues {
      let store = TestStore(initialState: Loader.State()) { Loader() }
      await store.send(.load)
      await store.receive({ if case .loaded(.success(42)) = $0 { true } else { false } }) {
        $0.value = 42
      }
      await store.send(.load)
      await store.receive(.case(Loader.Action.loaded))
    }
    #expect(issues.messages.isEmpty)
  }

  @Test func dependenciesCanChangeBetweenSteps() async {
    let issues = await capturingIssues {
      let store = TestStore(initialState: Counter.State()) {
        Counter()
      } withDependencies: {
        $0.numberFact.fetch = { _ in "first" }
      }
      await store.send(.factButtonTapped) { $0.isLoading = true }
      await store.receive(.factResponse("first")) {
        $0.isLoading = false
        $0.fact = "first"
      }
      store.dependencies.numberFact.fetch = { _ in "second" }
      await store.send(.factButtonTapped) { $0.isLoading = true }
      await store.receive(.factResponse("second")) {
        $0.isLoading = false
        $0.fact = "second"
      }
    }
    #expect(issues.messages.isEmpty)
  }

  // MARK: Failures

  @Test func aStateMismatchShowsTheDiff() async {
    var line = 0
    let issues = await capturingIssues {
      let store = TestStore(initialState: Counter.State()) { Counter() }
      line = #line + 1
      await store.send(.incrementTapped) { $0.count = 2 }
    }
    #expect(
      issues.messages == [
        """
        A state change does not match expectation.

            Counter.State(
          −   count: 2,
          +   count: 1,
              fact: nil,
              isLoading: false
            )

        (Expected: −, Actual: +)
        """
      ])
    #expect(issues.locations.map(\.line) == [line])
    #expect(issues.locations.first?.fileID == "LoopTestingTests/TestStoreTests.swift")
  }

  @Test func anUnexpectedChangeFails() async {
    let issues = await capturingIssues {
      let store = TestStore(initialState: Counter.State()) { Counter() }
      await store.send(.incrementTapped)
    }
    #expect(
      issues.messages == [
        """
        State was not expected to change, but a change occurred.

            Counter.State(
          −   count: 0,
          +   count: 1,
              fact: nil,
              isLoading: false
            )

        (Expected: −, Actual: +)

        To fix, pass a closure that describes the change to 'send' or 'receive'.
        """
      ])
  }

  @Test func aClosureThatChangesNothingFails() async {
    let issues = await capturingIssues {
      let store = TestStore(initialState: Counter.State()) { Counter() }
      await store.send(.noop) { $0.count = 0 }
    }
    #expect(issues.messages == [closureChangedNothing])
  }

  @Test func sendingWithUnhandledReceivedActionsFails() async {
    let issues = await capturingIssues {
      let store = TestStore(initialState: Counter.State()) { Counter() }
      await store.send(.sendSeveral).finish()
      await store.send(.noop)
      await store.receive(.step(1)) { $0.count = 1 }
      await store.receive(.step(2)) { $0.count = 3 }
      await store.receive(.step(3)) { $0.count = 6 }
    }
    #expect(
      issues.messages == [
        """
        Must handle 3 received actions before sending an action.

        Unhandled actions:
          • Counter.Action.step(1)
          • Counter.Action.step(2)
          • Counter.Action.step(3)

        To fix, assert each with 'receive' before sending, or call 'skipReceivedActions()'.
        """
      ])
  }

  @Test func finishFailsOnUnhandledReceivedActions() async {
    var line = 0
    let issues = await capturingIssues {
      let store = TestStore(initialState: Counter.State()) { Counter() }
      await store.send(.sendSeveral)
      await store.receive(.step(1)) { $0.count = 1 }
      await store.receive(.step(2)) { $0.count = 3 }
      line = #line + 1
      await store.finish()
    }
    #expect(
      issues.messages == [
        """
        The store received 1 unexpected action.

        Unhandled actions:
          • Counter.Action.step(3)

        To fix, assert each with 'receive' before the end of the test, or call \
        'skipReceivedActions()'.
        """
      ])
    #expect(issues.locations.map(\.line) == [line])
  }

  @Test func finishFailsOnAnEffectStillRunningAtTheLineThatStartedIt() async {
    var line = 0
    let issues = await capturingIssues {
      let store = TestStore(initialState: Counter.State()) {
        Counter()
      } withDependencies: {
        $0.continuousClock = TestClock()
      }
      line = #line + 1
      await store.send(.timerStarted)
      await store.finish(timeout: .milliseconds(10))
    }
    #expect(
      issues.messages == [
        """
        An effect returned for this action is still running. It must complete before the end \
        of the test.

            Counter.Action.timerStarted

        To fix, make the effect finish (advance a 'TestClock', finish a stream), cancel it with \
        an action that returns '.cancel(id:)', or call 'skipInFlightEffects()'.
        """
      ])
    #expect(issues.locations.map(\.line) == [line])
  }

  @Test func theEndOfTheTestFailsOnUnfinishedWork() async {
    var storeLine = 0
    var sendLine = 0
    let issues = await capturingIssues {
      storeLine = #line + 1
      let store = TestStore(initialState: Counter.State()) {
        Counter()
      } withDependencies: {
        $0.continuousClock = TestClock()
      }
      await store.send(.sendSeveral).finish()
      sendLine = #line + 1
      await store.send(.timerStarted)
    }
    #expect(issues.messages.count == 3)
    #expect(issues.messages.first?.hasPrefix("Must handle 3 received actions") == true)
    #expect(issues.messages.dropFirst().first?.hasPrefix("The store received 3") == true)
    #expect(
      issues.messages.last?.hasPrefix("An effect returned for this action is still running.")
        == true)
    #expect(issues.locations.dropFirst().first?.line == storeLine)
    #expect(issues.locations.last?.line == sendLine)
  }

  @Test func theEndOfTheTestReportsUnhandledActionsAtTheStore() async {
    var storeLine = 0
    let issues = await capturingIssues {
      storeLine = #line + 1
      let store = TestStore(initialState: Counter.State()) { Counter() }
      await store.send(.sendSeveral).finish()
    }
    #expect(issues.messages.first?.hasPrefix("The store received 3 unexpected actions.") == true)
    #expect(issues.locations.map(\.line) == [storeLine])
  }

  @Test func receiveTimesOutListingTheEffectsInFlight() async {
    let issues = await capturingIssues {
      let store = TestStore(initialState: Counter.State()) {
        Counter()
      } withDependencies: {
        $0.continuousClock = TestClock()
      }
      await store.send(.timerStarted)
      await store.receive(.timerTicked, timeout: .milliseconds(20))
      await store.skipInFlightEffects()
    }
    let message = issues.messages.first ?? ""
    #expect(issues.messages.count == 1)
    #expect(
      message.hasPrefix(
        """
        Expected to receive an action, but received none after 0.02 seconds.

        Expected:
            Counter.Action.timerTicked

        Effects still running, by the action that started them:
          • Counter.Action.timerStarted (LoopTestingTests/TestStoreTests.swift:
        """))
    #expect(
      message.hasSuffix(
        "To fix, advance the 'TestClock' the effect waits on, or pass a longer 'timeout'."))
  }

  @Test func receiveWaitsPastItsTimeoutWhileTheMainActorIsTooBusyToRunTheEffect() async {
    // Other work takes the main actor in 50 ms turns (as a parallel test run does), and the
    // effect needs eight turns of its own: about 0.4 s, four times the timeout.
    let load = Task { @MainActor in
      for _ in 0..<12 {
        let end = ContinuousClock.now.advanced(by: .milliseconds(50))
        while ContinuousClock.now < end {}
        await Task.yield()
      }
    }
    let issues = await capturingIssues {
      let store = TestStore(initialState: Counter.State()) {
        Counter()
      } withDependencies: {
        $0.numberFact.fetch = { number in
          for _ in 0..<8 { await MainActor.run {} }
          return "\(number) took its time"
        }
      }
      store.timeout = .milliseconds(100)
      await store.send(.factButtonTapped) { $0.isLoading = true }
      await store.receive(.factResponse("0 took its time")) {
        $0.isLoading = false
        $0.fact = "0 took its time"
      }
    }
    await load.value
    #expect(issues.messages.isEmpty)
  }

  @Test func receiveFailsAtOnceWhenNoEffectIsRunning() async {
    let issues = await capturingIssues {
      let store = TestStore(initialState: Counter.State()) { Counter() }
      // NB: a timeout this long would hang the suite if `receive` waited for it.
      await store.receive(.timerTicked, timeout: .seconds(600))
    }
    #expect(
      issues.messages == [
        """
        Expected to receive an action, but received none.

        Expected:
            Counter.Action.timerTicked

        No effect is running, so no action can arrive.

        To fix, check that the action you sent returns an effect that sends this action.
        """
      ])
  }

  @Test func receivingADifferentActionShowsBoth() async {
    let issues = await capturingIssues {
      let store = TestStore(initialState: Counter.State()) {
        Counter()
      } withDependencies: {
        $0.numberFact.fetch = { _ in "zero" }
      }
      await store.send(.factButtonTapped) { $0.isLoading = true }
      await store.receive(.factResponse("one")) {
        $0.isLoading = false
        $0.fact = "zero"
      }
    }
    #expect(
      issues.messages == [
        """
        Received unexpected action.

          − Counter.Action.factResponse("one")
          + Counter.Action.factResponse("zero")

        (Expected: −, Received: +)

        To fix, expect the action the effect sent, or change the effect.
        """
      ])
  }

  @Test func aPredicateThatDoesNotMatchFails() async {
    let issues = await capturingIssues {
      let store = TestStore(initialState: Loader.State()) { Loader() }
      await store.send(.load)
      await store.receive({ if case .fail = $0 { true } else { false } }) { $0.value = 42 }
    }
    #expect(
      issues.messages == [
        """
        Received unexpected action.

            Loader.Action.loaded(.success(42))

        It does not match the predicate passed to 'receive'.
        """
      ])
  }

  @Test func anAssertionThatThrowsFailsWithTheError() async {
    struct Oops: Error {}
    let issues = await capturingIssues {
      let store = TestStore(initialState: Counter.State()) { Counter() }
      await store.send(.incrementTapped) { _ in throw Oops() }
    }
    #expect(
      issues.messages == [
        """
        The assertion closure threw an error.

            Oops()

        To fix, do not throw from the closure passed to 'send', 'receive' or 'assert'.
        """
      ])
  }

  @Test func anEffectsUncaughtErrorFailsWithTheError() async {
    let issues = await capturingIssues {
      let store = TestStore(initialState: Loader.State()) { Loader() }
      await store.send(.fail).finish()
    }
    #expect(issues.messages.count == 1)
    #expect(
      issues.messages.first?.contains("threw an unhandled error:\n\n    Failure()") == true)
  }

  @Test func anUnimplementedDependencyFailsNamingTheEndpoint() async {
    let issues = await capturingIssues {
      let store = TestStore(initialState: Counter.State()) { Counter() }
      await store.send(.factButtonTapped) { $0.isLoading = true }
      await store.finish()
    }
    #expect(issues.messages.count == 2)
    #expect(
      issues.messages.first?.hasPrefix("Unimplemented: 'NumberFactClient.fetch' was called.")
        == true)
  }

  @Test func aTaskThatDoesNotFinishInTimeFails() async {
    let issues = await capturingIssues {
      let store = TestStore(initialState: Counter.State()) {
        Counter()
      } withDependencies: {
        $0.continuousClock = TestClock()
      }
      let task = await store.send(.timerStarted)
      await task.finish(timeout: .milliseconds(10))
      await task.cancel()
    }
    #expect(
      issues.messages == [
        """
        Expected the task to finish, but it is still running after 0.01 seconds.

        To fix, make its effects finish (advance a 'TestClock'), or cancel the task.
        """
      ])
  }

  // MARK: Exhaustivity

  @Test func nonExhaustiveChecksOnlyWhatIsStated() async {
    let issues = await capturingIssues {
      let store = TestStore(initialState: Counter.State()) {
        Counter()
      } withDependencies: {
        $0.numberFact.fetch = { "fact \($0)" }
      }
      store.exhaustivity = .off
      await store.send(.incrementTapped)
      await store.send(.factButtonTapped)
      await store.receive(.factResponse("fact 1")) { $0.fact = "fact 1" }
      await store.send(.sendSeveral)
      await store.receive(.step(3)) { $0.count = 7 }
    }
    #expect(issues.messages.isEmpty)
    #expect(issues.knownIssues.isEmpty)
  }

  @Test func nonExhaustiveStillFailsOnAWrongStatement() async {
    let issues = await capturingIssues {
      let store = TestStore(initialState: Counter.State()) { Counter() }
      store.exhaustivity = .off
      await store.send(.incrementTapped) { $0.count = 5 }
    }
    #expect(issues.messages.first?.hasPrefix("A state change does not match expectation.") == true)
    #expect(issues.messages.first?.contains("−   count: 5,\n  +   count: 1,") == true)
  }

  @Test func showSkippedAssertionsReportsThemAsKnownIssues() async {
    let issues = await capturingIssues {
      let store = TestStore(initialState: Counter.State()) { Counter() }
      store.exhaustivity = .off(showSkippedAssertions: true)
      await store.send(.incrementTapped)
      await store.send(.sendSeveral)
      await store.receive(.step(3)) { $0.count = 7 }
    }
    #expect(issues.messages.isEmpty)
    #expect(
      issues.knownIssues == [
        """
        A state change was not asserted.

            Counter.State(
          −   count: 0,
          +   count: 1,
              fact: nil,
              isLoading: false
            )

        (Expected: −, Actual: +)
        """,
        """
        Skipped receiving 2 actions.

          • Counter.Action.step(1)
          • Counter.Action.step(2)
        """,
      ])
  }

  @Test func skipReceivedActionsThenAssertTheState() async {
    let issues = await capturingIssues {
      let store = TestStore(initialState: Counter.State()) { Counter() }
      await store.send(.sendSeveral).finish()
      store.skipReceivedActions()
      store.assert { $0.count = 6 }
      await store.send(.incrementTapped) { $0.count = 7 }
    }
    #expect(issues.messages.isEmpty)
  }

  @Test func assertFailsWhenTheStateDiffers() async {
    let issues = await capturingIssues {
      let store = TestStore(initialState: Counter.State()) { Counter() }
      await store.send(.sendSeveral).finish()
      store.skipReceivedActions()
      store.assert { $0.count = 5 }
    }
    #expect(issues.messages.first?.contains("−   count: 5,\n  +   count: 6,") == true)
  }

  @Test func assertUnderOffPassesIgnoringTheChangesItDoesNotState() async {
    let issues = await capturingIssues {
      let store = TestStore(initialState: Counter.State()) {
        Counter()
      } withDependencies: {
        $0.numberFact.fetch = { "fact \($0)" }
      }
      store.exhaustivity = .off
      await store.send(.factButtonTapped).finish()
      // The response also set `isLoading` back to false, which this does not state.
      store.assert { $0.fact = "fact 0" }
    }
    #expect(issues.messages.isEmpty)
  }

  @Test func assertUnderOffFailsWhenAStatedChangeIsWrong() async {
    let issues = await capturingIssues {
      let store = TestStore(initialState: Counter.State()) {
        Counter()
      } withDependencies: {
        $0.numberFact.fetch = { "fact \($0)" }
      }
      store.exhaustivity = .off
      await store.send(.factButtonTapped).finish()
      store.assert { $0.fact = "wrong" }
    }
    #expect(
      issues.messages == [
        """
        A state change does not match expectation.

            Counter.State(
              count: 0,
          −   fact: "wrong",
          +   fact: "fact 0",
              isLoading: false
            )

        (Expected: −, Actual: +)
        """
      ])
  }

  @Test func assertUnderOffShowsTheChangesItSkippedWhenAsked() async {
    let issues = await capturingIssues {
      let store = TestStore(initialState: Counter.State()) {
        Counter()
      } withDependencies: {
        $0.numberFact.fetch = { "fact \($0)" }
      }
      store.exhaustivity = .off(showSkippedAssertions: true)
      await store.send(.factButtonTapped) { $0.isLoading = true }.finish()
      store.assert { $0.fact = "fact 0" }
      store.skipReceivedActions()
    }
    #expect(issues.messages.isEmpty)
    #expect(
      issues.knownIssues == [
        """
        A state change was not asserted.

            Counter.State(
              count: 0,
              fact: "fact 0",
          −   isLoading: true
          +   isLoading: false
            )

        (Expected: −, Actual: +)
        """,
        """
        Skipped receiving 1 action.

          • Counter.Action.factResponse("fact 0")
        """,
      ])
  }

  @Test func withExhaustivityAppliesOnlyInsideItsOperation() async {
    let issues = await capturingIssues {
      let store = TestStore(initialState: Counter.State()) { Counter() }
      await store.withExhaustivity(.off) {
        await store.send(.incrementTapped)
        #expect(store.exhaustivity == .off)
      }
      #expect(store.exhaustivity == .on)
      await store.send(.incrementTapped)
    }
    #expect(
      issues.messages == [
        """
        State was not expected to change, but a change occurred.

            Counter.State(
          −   count: 1,
          +   count: 2,
              fact: nil,
              isLoading: false
            )

        (Expected: −, Actual: +)

        To fix, pass a closure that describes the change to 'send' or 'receive'.
        """
      ])
  }

  @Test func withExhaustivityAroundAnAssert() async {
    let issues = await capturingIssues {
      let store = TestStore(initialState: Counter.State()) {
        Counter()
      } withDependencies: {
        $0.numberFact.fetch = { "fact \($0)" }
      }
      await store.send(.factButtonTapped) { $0.isLoading = true }.finish()
      store.withExhaustivity(.off) { store.assert { $0.fact = "fact 0" } }
      store.skipReceivedActions()
    }
    #expect(issues.messages.isEmpty)
  }

  @Test func skipInFlightEffectsLetsTheTestEnd() async {
    let issues = await capturingIssues {
      let store = TestStore(initialState: Counter.State()) {
        Counter()
      } withDependencies: {
        $0.continuousClock = TestClock()
      }
      await store.send(.timerStarted)
      await store.skipInFlightEffects()
      await store.finish()
    }
    #expect(issues.messages.isEmpty)
  }

  // MARK: Scale

  @Test func aChangedRowAmongTenThousandShowsOnlyThatRow() async {
    let rows = IdentifiedArray(
      uniqueElements: (0..<10_000).map { Table.Row(id: $0, title: "Row \($0)") })
    let issues = await capturingIssues {
      let store = TestStore(initialState: Table.State(rows: rows)) { Table() }
      await store.send(.favoriteTapped(5_000)) { $0.rows[id: 5_000]?.views = 1 }
    }
    #expect(
      issues.messages == [
        """
        A state change does not match expectation.

            Table.State(
              rows: [
                … (5,000 unchanged)
                Table.Row(
                  id: 5000,
                  title: "Row 5000",
          −       isFavorite: false,
          +       isFavorite: true,
          −       views: 1
          +       views: 0
                ),
                … (4,999 unchanged)
              ]
            )

        (Expected: −, Actual: +)
        """
      ])
  }
}
