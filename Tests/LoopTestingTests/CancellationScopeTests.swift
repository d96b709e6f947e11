import LoopTesting
import Testing

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
        return Ticker.everySecond(on: clock, send: .refreshed)
          .cancellable(id: Ticker.ParentCancelID.refresh)
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
        return .merge(
          .cancel(id: Ticker.CancelID.timer), .cancel(id: Ticker.ParentCancelID.refresh))
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
  let clock = TestClock()

  /// A store of a dashboard presenting both tickers (or the first only), on the suite's clock.
  private func makeDashboard(withSecond: Bool = true) -> TestStore<
    Dashboard.State, Dashboard.Action
  > {
    TestStore(
      initialState: Dashboard.State(
        first: Ticker.State(), second: withSecond ? Ticker.State() : nil), clock: clock
    ) { Dashboard() }
  }

  @Test func aChildCancelsItsOwnTimerAndNotItsSiblingsOfTheSameType() async {
    let issues = await capturingIssues {
      let store = makeDashboard()
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
    let issues = await capturingIssues {
      let store = makeDashboard()
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
    let issues = await capturingIssues {
      let store = makeDashboard(withSecond: false)
      let refresh = await store.send(.refreshTapped)
      await store.send(.first(.presented(.stopParentTapped)))
      await clock.advance(by: .seconds(1))
      await store.receive(.refreshed) { $0.refreshes = 1 }
      await refresh.cancel()
    }
    #expect(issues.messages.isEmpty)
  }

  @Test func aParentsCancelReachesEveryChildsEffects() async {
    let issues = await capturingIssues {
      let store = makeDashboard()
      await store.send(.first(.presented(.startTapped)))
      await store.send(.second(.presented(.startTapped)))
      await store.send(.stopTickersTapped)
      await clock.advance(by: .seconds(1))
      await store.finish()
    }
    #expect(issues.messages.isEmpty)
  }

  @Test func aGrandparentsCancelReachesItsGrandchildrensEffects() async {
    let issues = await capturingIssues {
      let store = TestStore(
        initialState: Home.State(dashboard: Dashboard.State(first: Ticker.State())), clock: clock
      ) { Home() }
      await store.send(.dashboard(.presented(.refreshTapped)))
      await store.send(.dashboard(.presented(.first(.presented(.startTapped)))))
      await store.send(.stopEverythingTapped)
      await clock.advance(by: .seconds(1))
      await store.finish()
    }
    #expect(issues.messages.isEmpty)
  }

  @Test func aRowCancelsItsOwnTimerAndNotTheOtherRows() async {
    let issues = await capturingIssues {
      let store = TestStore(
        initialState: TickerList.State(rows: [Ticker.State(id: 1), Ticker.State(id: 2)]),
        clock: clock
      ) { TickerList() }
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
    let issues = await capturingIssues {
      let store = makeDashboard()
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
    let line = #line + 1
    withIssueReporter(issues) { Task.cancel(id: Ticker.CancelID.timer) }
    #expect(
      issues.messages == [
        """
        'Task.cancel(id:)' was called at 'LoopTestingTests/CancellationScopeTests.swift:\(line)' \
        outside an effect.

        It cancels the effects of the feature whose effect calls it; here there is none, so \
        nothing was cancelled.

        To fix, call it inside an 'Effect.run', or return 'Effect.cancel(id:)' from the reducer.
        """
      ])
  }
}
