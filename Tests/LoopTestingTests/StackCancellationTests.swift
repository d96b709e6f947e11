import LoopTesting
import Testing

/// A stack of tickers, with a timer of its own.
private struct TickerStack: Reducer {
  struct State: Equatable {
    var path = StackState<Ticker.State>()
    var refreshes = 0
  }

  enum Action: Equatable {
    case path(StackActionOf<Ticker>)
    case refreshed
    case refreshTapped
    case stopTickersTapped
  }

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
        return Ticker.everySecond(on: clock, send: .refreshed)
          .cancellable(id: Ticker.ParentCancelID.refresh)
      case .stopTickersTapped:
        return .cancel(id: Ticker.CancelID.timer)
      }
    }
    .forEach(\.path, action: .case(Action.path)) { Ticker() }
  }
}

@MainActor
@Suite struct StackCancellationTests {
  let clock = TestClock()

  private func makeStore() -> TestStore<TickerStack.State, TickerStack.Action> {
    TestStore(
      initialState: TickerStack.State(path: StackState([Ticker.State(), Ticker.State()])),
      clock: clock
    ) { TickerStack() }
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
      await store.send(.stopTickersTapped)
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
