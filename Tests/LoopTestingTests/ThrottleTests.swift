import LoopTesting
import Testing

/// Saves a position at most once a second.
private struct Scroller: Reducer {
  struct State: Equatable {
    var saved = 0
  }

  enum Action: Equatable {
    case saved(Int)
    case scrolled(Int)
    case scrolledInBursts(Int)
  }

  enum CancelID { case save }

  let latest: Bool
  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .saved(let position):
      state.saved = position
      return .none
    case .scrolled(let position):
      return .send(.saved(position))
        .throttle(id: CancelID.save, for: .seconds(1), clock: clock, latest: latest)
    case .scrolledInBursts(let position):
      return .run { send in
        await send(.saved(position))
        await send(.saved(position + 1))
      }
      .throttle(id: CancelID.save, for: .seconds(1), clock: clock, latest: latest)
    }
  }
}

@MainActor
@Suite struct ThrottleTests {
  private func scroller(latest: Bool, clock: TestClock) -> TestStore<
    Scroller.State, Scroller.Action
  > {
    TestStore(initialState: Scroller.State(), clock: clock) { Scroller(latest: latest) }
  }

  @Test func theFirstActionGoesThroughAndTheLatestEndsTheInterval() async {
    let clock = TestClock()
    let issues = await capturingIssues {
      let store = scroller(latest: true, clock: clock)
      await store.send(.scrolled(1))
      await store.receive(.saved(1)) { $0.saved = 1 }
      await store.send(.scrolled(2))
      await clock.advance(by: .milliseconds(250))
      await store.send(.scrolled(3))
      await clock.advance(by: .milliseconds(250))
      await store.send(.scrolled(4))
      await clock.advance(by: .milliseconds(499))
      await store.send(.scrolled(5))
      await clock.advance(by: .milliseconds(1))
      await store.receive(.saved(5)) { $0.saved = 5 }
      await store.finish()
    }
    #expect(issues.messages.isEmpty)
  }

  @Test func withoutLatestTheFirstActionOfTheIntervalEndsIt() async {
    let clock = TestClock()
    let issues = await capturingIssues {
      let store = scroller(latest: false, clock: clock)
      await store.send(.scrolled(1))
      await store.receive(.saved(1)) { $0.saved = 1 }
      await store.send(.scrolled(2))
      await clock.advance(by: .milliseconds(500))
      await store.send(.scrolled(3))
      await clock.advance(by: .milliseconds(500))
      await store.receive(.saved(2)) { $0.saved = 2 }
      await store.finish()
    }
    #expect(issues.messages.isEmpty)
  }

  @Test func anActionAfterTheIntervalGoesThroughAtOnce() async {
    let clock = TestClock()
    let issues = await capturingIssues {
      let store = scroller(latest: true, clock: clock)
      await store.send(.scrolled(1))
      await store.receive(.saved(1)) { $0.saved = 1 }
      await clock.advance(by: .seconds(1))
      await store.send(.scrolled(2))
      await store.receive(.saved(2)) { $0.saved = 2 }
    }
    #expect(issues.messages.isEmpty)
  }

  @Test func theActionsOfARunAreThrottledOneByOne() async {
    let clock = TestClock()
    let issues = await capturingIssues {
      let store = scroller(latest: true, clock: clock)
      await store.send(.scrolledInBursts(10))
      await store.receive(.saved(10)) { $0.saved = 10 }
      await clock.advance(by: .seconds(1))
      await store.receive(.saved(11)) { $0.saved = 11 }
      await store.finish()
    }
    #expect(issues.messages.isEmpty)
  }

  @Test func eachStoreKeepsItsOwnThrottle() async {
    let clock = TestClock()
    let issues = await capturingIssues {
      let first = scroller(latest: true, clock: clock)
      let second = scroller(latest: true, clock: clock)
      await first.send(.scrolled(1))
      await first.receive(.saved(1)) { $0.saved = 1 }
      await second.send(.scrolled(2))
      await second.receive(.saved(2)) { $0.saved = 2 }
    }
    #expect(issues.messages.isEmpty)
  }
}
