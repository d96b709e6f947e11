import LoopTesting
import Testing

/// A child that ticks on the injected clock until it is stopped.
private struct Ticker: Reducer {
  struct State: Equatable, Identifiable {
    var id = 0
    var ticks = 0
  }

  enum Action: Equatable {
    case restartTapped
    case startTapped
    case stopFromAnEffectTapped
    case stopParentTapped
    case stopTapped
    case ticked
  }

  enum CancelID { case timer }

  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .restartTapped:
      return tick().cancellable(id: CancelID.timer, cancelInFlight: true)
    case .startTapped:
      return tick().cancellable(id: CancelID.timer)
    case .stopFromAnEffectTapped:
      return .run { _ in Task.cancel(id: CancelID.timer) }
    case .stopParentTapped:
      return .cancel(id: Dashboard.CancelID.refresh)
    case .stopTapped:
      return .cancel(id: CancelID.timer)
    case .ticked:
      state.ticks += 1
      return .none
    }
  }

  private func tick() -> Effect<Action> {
    .run { send in
      while true {
        try await clock.sleep(for: .seconds(1))
        await send(.ticked)
      }
    }
  }
}

/// Presents two tickers of one type, and refreshes on its own timer.
private struct Dashboard: Reducer {
  struct State: Equatable {
    @Presents var first: Ticker.State? = nil
    @Presents var second: Ticker.State? = nil
    var refreshes = 0
  }

  enum Action: Equatable {
    case first(PresentationAction<Ticker.Action>)
    case refreshed
    case refreshTapped
    case second(PresentationAction<Ticker.Action>)
    case stopTickersTapped
  }

  enum CancelID { case refresh }

  @Dependency(\.continuousClock) var clock

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .first, .second:
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
      case .stopTickersTapped:
        return .cancel(id: Ticker.CancelID.timer)
      }
    }
    .ifLet(\.$first, action: .case(Action.first)) { Ticker() }
    .ifLet(\.$second, action: .case(Action.second)) { Ticker() }
  }
}

/// A list of tickers, each a row.
private struct TickerList: Reducer {
  struct State: Equatable {
    var rows: IdentifiedArrayOf<Ticker.State> = []
  }

  enum Action: Equatable {
    case rows(IdentifiedActionOf<Ticker>)
  }

  var body: some ReducerOf<Self> {
    EmptyReducer()
      .forEach(\.rows, action: .case(Action.rows)) { Ticker() }
  }
}

/// A grandparent of tickers: it presents a dashboard, which presents them.
private struct Home: Reducer {
  struct State: Equatable {
    @Presents var dashboard: Dashboard.State? = nil
  }

  enum Action: Equatable {
    case dashboard(PresentationAction<Dashboard.Action>)
    case stopEverythingTapped
  }

  var body: some ReducerOf<Self> {
    Reduce { _, action in
      switch action {
      case .dashboard:
        return .none
      case .stopEverythingTapped:
        return .merge(.cancel(id: Ticker.CancelID.timer), .cancel(id: Dashboard.CancelID.refresh))
      }
    }
    .ifLet(\.$dashboard, action: .case(Action.dashboard)) { Dashboard() }
  }
}

/// Cancellation ids are scoped to the child that uses them: a child reaches its own effects and
/// its descendants', a parent reaches its children's, and nobody reaches a sibling's or a
/// parent's.
@MainActor
@Suite struct CancellationScopeTests {
  @Test func aChildCancelsItsOwnTimerAndNotItsSiblingsOfTheSameType() async {
    let clock = TestClock()
    let issues = await capturingIssues {
      let store = TestStore(
        initialState: Dashboard.State(first: Ticker.State(), second: Ticker.State())
      ) {
        Dashboard()
      } withDependencies: {
        $0.continuousClock = clock
      }
      await store.send(.first(.presented(.startTapped)))
      await store.send(.second(.presented(.startTapped)))
      await store.send(.first(.presented(.stopTapped)))
      await clock.advance(by: .seconds(1))
      await store.receive(.second(.presented(.ticked))) { $0.second?.ticks = 1 }
      await store.send(.second(.presented(.stopTapped)))
      await clock.advance(by: .seconds(1))
      await store.finish()
    }
    #expect(issues.messages.isEmpty)
  }

  @Test func aChildsCancelInFlightLeavesItsSiblingsTimerRunning() async {
    let clock = TestClock()
    let issues = await capturingIssues {
      let store = TestStore(
        initialState: Dashboard.State(first: Ticker.State(), second: Ticker.State())
      ) {
        Dashboard()
      } withDependencies: {
        $0.continuousClock = clock
      }
      await store.send(.first(.presented(.startTapped)))
      await store.send(.second(.presented(.restartTapped)))
      await clock.advance(by: .seconds(1))
      await store.receive(.first(.presented(.ticked))) { $0.first?.ticks = 1 }
      await store.receive(.second(.presented(.ticked))) { $0.second?.ticks = 1 }
      await store.send(.stopTickersTapped)
      await store.finish()
    }
    #expect(issues.messages.isEmpty)
  }

  @Test func aChildCannotCancelItsParentsEffect() async {
    let clock = TestClock()
    let issues = await capturingIssues {
      let store = TestStore(initialState: Dashboard.State(first: Ticker.State())) {
        Dashboard()
      } withDependencies: {
        $0.continuousClock = clock
      }
      let refresh = await store.send(.refreshTapped)
      await store.send(.first(.presented(.stopParentTapped)))
      await clock.advance(by: .seconds(1))
      await store.receive(.refreshed) { $0.refreshes = 1 }
      await refresh.cancel()
    }
    #expect(issues.messages.isEmpty)
  }

  @Test func aParentsCancelReachesEveryChildsEffects() async {
    let clock = TestClock()
    let issues = await capturingIssues {
      let store = TestStore(
        initialState: Dashboard.State(first: Ticker.State(), second: Ticker.State())
      ) {
        Dashboard()
      } withDependencies: {
        $0.continuousClock = clock
      }
      await store.send(.first(.presented(.startTapped)))
      await store.send(.second(.presented(.startTapped)))
      await store.send(.stopTickersTapped)
      await clock.advance(by: .seconds(1))
      await store.finish()
    }
    #expect(issues.messages.isEmpty)
  }

  @Test func aGrandparentsCancelReachesItsGrandchildrensEffects() async {
    let clock = TestClock()
    let issues = await capturingIssues {
      let store = TestStore(
        initialState: Home.State(dashboard: Dashboard.State(first: Ticker.State()))
      ) {
        Home()
      } withDependencies: {
        $0.continuousClock = clock
      }
      await store.send(.dashboard(.presented(.refreshTapped)))
      await store.send(.dashboard(.presented(.first(.presented(.startTapped)))))
      await store.send(.stopEverythingTapped)
      await clock.advance(by: .seconds(1))
      await store.finish()
    }
    #expect(issues.messages.isEmpty)
  }

  @Test func aRowCancelsItsOwnTimerAndNotTheOtherRows() async {
    let clock = TestClock()
    let issues = await capturingIssues {
      let store = TestStore(
        initialState: TickerList.State(rows: [Ticker.State(id: 1), Ticker.State(id: 2)])
      ) {
        TickerList()
      } withDependencies: {
        $0.continuousClock = clock
      }
      await store.send(.rows(.element(id: 1, action: .startTapped)))
      await store.send(.rows(.element(id: 2, action: .startTapped)))
      await store.send(.rows(.element(id: 1, action: .stopTapped)))
      await clock.advance(by: .seconds(1))
      await store.receive(.rows(.element(id: 2, action: .ticked))) { $0.rows[id: 2]?.ticks = 1 }
      await store.send(.rows(.element(id: 2, action: .stopTapped)))
      await store.finish()
    }
    #expect(issues.messages.isEmpty)
  }

  @Test func taskCancelInsideAChildsEffectStopsItsTimerAndNotItsSiblings() async {
    let clock = TestClock()
    let issues = await capturingIssues {
      let store = TestStore(
        initialState: Dashboard.State(first: Ticker.State(), second: Ticker.State())
      ) {
        Dashboard()
      } withDependencies: {
        $0.continuousClock = clock
      }
      await store.send(.first(.presented(.startTapped)))
      await store.send(.second(.presented(.startTapped)))
      await store.send(.first(.presented(.stopFromAnEffectTapped)))
      await clock.advance(by: .seconds(1))
      await store.receive(.second(.presented(.ticked))) { $0.second?.ticks = 1 }
      await store.send(.stopTickersTapped)
      await store.finish()
    }
    #expect(issues.messages.isEmpty)
  }

  @Test func taskCancelOutsideAnEffectCancelsNothingAndSaysWhere() {
    let issues = IssueCollector()
    withIssueReporter(issues) { Task.cancel(id: Ticker.CancelID.timer) }
    #expect(
      issues.messages == [
        """
        'Task.cancel(id:)' was called at 'LoopTestingTests/CancellationScopeTests.swift:284' \
        outside an effect.

        It cancels the effects of the feature whose effect calls it; here there is none, so \
        nothing was cancelled.

        To fix, call it inside an 'Effect.run', or return 'Effect.cancel(id:)' from the reducer.
        """
      ])
  }
}
