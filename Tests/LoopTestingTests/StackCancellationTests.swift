import LoopTesting
import Testing

/// A screen of a stack that ticks on the injected clock until it is stopped.
private struct Stopwatch: Reducer {
  struct State: Equatable {
    var ticks = 0
  }

  enum Action: Equatable {
    case startTapped
    case stopParentTapped
    case stopTapped
    case ticked
  }

  enum CancelID { case timer }

  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .startTapped:
      return .run { send in
        while true {
          try await clock.sleep(for: .seconds(1))
          await send(.ticked)
        }
      }
      .cancellable(id: CancelID.timer)
    case .stopParentTapped:
      return .cancel(id: Stopwatches.CancelID.refresh)
    case .stopTapped:
      return .cancel(id: CancelID.timer)
    case .ticked:
      state.ticks += 1
      return .none
    }
  }
}

/// A stack of timers, with a timer of its own.
private struct Stopwatches: Reducer {
  struct State: Equatable {
    var path = StackState<Stopwatch.State>()
    var refreshes = 0
  }

  enum Action: Equatable {
    case path(StackActionOf<Stopwatch>)
    case refreshed
    case refreshTapped
    case stopStopwatchesTapped
  }

  enum CancelID { case refresh }

  @Dependency(\.continuousClock) var clock

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .path:
        return .none
      case .refreshed:
        state.refreshes += 1
        return .none
      case .refreshTapped:
        return .run { send in
          while true {
            try await clock.sleep(for: .seconds(1))
            await send(.refreshed)
          }
        }
        .cancellable(id: CancelID.refresh)
      case .stopStopwatchesTapped:
        return .cancel(id: Stopwatch.CancelID.timer)
      }
    }
    .forEach(\.path, action: .case(Action.path)) { Stopwatch() }
  }
}

@MainActor
@Suite struct StackCancellationTests {
  let clock = TestClock()

  private func makeStore() -> TestStore<Stopwatches.State, Stopwatches.Action> {
    TestStore(
      initialState: Stopwatches.State(path: StackState([Stopwatch.State(), Stopwatch.State()]))
    ) {
      Stopwatches()
    } withDependencies: {
      $0.continuousClock = clock
    }
  }

  @Test func anElementsCancelReachesOnlyItsOwnEffects() async {
    let issues = await capturingIssues {
      let store = makeStore()
      await store.send(.path(.element(id: 0, action: .startTapped)))
      await store.send(.path(.element(id: 1, action: .startTapped)))
      await store.send(.path(.element(id: 0, action: .stopTapped)))
      await clock.advance(by: .seconds(1))
      await store.receive(.path(.element(id: 1, action: .ticked))) { $0.path[id: 1]?.ticks = 1 }
      await store.send(.path(.element(id: 1, action: .stopTapped)))
    }
    #expect(issues.messages.isEmpty)
  }

  @Test func anElementCannotCancelItsParentsEffects() async {
    let issues = await capturingIssues {
      let store = makeStore()
      await store.send(.refreshTapped)
      await store.send(.path(.element(id: 0, action: .stopParentTapped)))
      await clock.advance(by: .seconds(1))
      await store.receive(.refreshed) { $0.refreshes = 1 }
      await store.skipInFlightEffects()
    }
    #expect(issues.messages.isEmpty)
  }

  @Test func aParentsCancelReachesItsElementsEffects() async {
    let issues = await capturingIssues {
      let store = makeStore()
      await store.send(.path(.element(id: 0, action: .startTapped)))
      await store.send(.path(.element(id: 1, action: .startTapped)))
      await store.send(.stopStopwatchesTapped)
      await clock.advance(by: .seconds(1))
    }
    #expect(issues.messages.isEmpty)
  }

  @Test func aTestMayEndRightAfterAPopCancelledAnElementsEffects() async {
    let issues = await capturingIssues {
      let store = makeStore()
      await store.send(.path(.element(id: 1, action: .startTapped)))
      await store.send(.path(.popFrom(id: 1))) { $0.path.removeLast() }
    }
    #expect(issues.messages.isEmpty)
  }
}
