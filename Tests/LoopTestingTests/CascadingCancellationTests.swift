import LoopTesting
import Testing

/// An action whose effect sends one whose effects (a long wait, and one that sends the next)
/// all start: TCA's `StoreTests.testCascadingTaskCancellation`, with the waits on a clock.
private struct Cascade: Reducer {
  enum Action: Equatable {
    case response
    case response1
    case response2
    case task
    case woke
  }

  /// The clock the long waits sleep on; `nil` waits with `Task.never()`, as TCA's test does.
  let clock: TestClock?

  func reduce(into state: inout Int, action: Action) -> Effect<Action> {
    switch action {
    case .task:
      return .run { send in await send(.response) }
    case .response:
      return .merge(wait(), .run { send in await send(.response1) })
    case .response1:
      return .merge(wait(), .run { send in await send(.response2) })
    case .response2:
      return wait()
    case .woke:
      state += 1
      return .none
    }
  }

  /// Waits until cancelled, or until the clock runs, then sends `.woke`.
  private func wait() -> Effect<Action> {
    guard let clock else { return .run { _ in try await Task.never() } }
    return .run { send in
      try await clock.sleep(for: .seconds(60))
      await send(.woke)
    }
  }
}

/// A child whose effect tells its parent it finished; the parent removes it and starts work of
/// its own: TCA's `StoreTests.testChildParentEffectCancellation`.
private struct Child: Reducer {
  struct State: Equatable {}

  enum Action: Equatable {
    case didFinish
    case task
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .task:
      return .run { send in await send(.didFinish) }
    case .didFinish:
      return .none
    }
  }
}

private struct Parent: Reducer {
  struct State: Equatable {
    var count = 0
    var child: Child.State?
  }

  enum Action: Equatable {
    case child(Child.Action)
    case delay
  }

  @Dependency(\.continuousClock) var clock

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .child(.didFinish):
        state.child = nil
        return .run { send in
          try await self.clock.sleep(for: .seconds(1))
          await send(.delay)
        }
      case .child:
        return .none
      case .delay:
        state.count += 1
        return .none
      }
    }
    .ifLet(\.child, action: .case(Action.child)) { Child() }
  }
}

/// Cancelling the task of a `send` reaches every effect that the action's effects started,
/// through the actions they sent, but never effects a parent started (issue 43, point 8).
@MainActor
@Suite struct CascadingCancellationTests {
  /// TCA's own test: the test ends with nothing running.
  @Test func cascadingTaskCancellation() async {
    let issues = await capturingIssues {
      let store = TestStore(initialState: 0) { Cascade(clock: nil) }
      let task = await store.send(.task)
      await store.receive(.response)
      await store.receive(.response1)
      await store.receive(.response2)
      await task.cancel()
    }
    #expect(issues.messages.isEmpty)
  }

  /// TCA's `testTaskCancellationEmpty`.
  @Test func taskCancellationEmpty() async {
    let issues = await capturingIssues {
      let store = TestStore(initialState: 0) { Cascade(clock: nil) }
      await store.send(.response2).cancel()
    }
    #expect(issues.messages.isEmpty)
  }

  @Test func cancellingAStoreTaskCancelsTheEffectsOfTheActionsItsEffectsSent() async {
    let clock = TestClock()
    let store = Store(initialState: 0) { Cascade(clock: clock) }
    let task = store.send(.task)
    task.cancel()
    await clock.run()
    #expect(store.state == 0)
  }

  @Test func finishingACancelledStoreTaskReturnsWithItsCascadeCancelled() async {
    let clock = TestClock()
    let store = Store(initialState: 0) { Cascade(clock: clock) }
    let task = store.send(.task)
    task.cancel()
    await task.finish()
    await clock.run()
    #expect(task.isCancelled)
    #expect(store.state == 0)
  }

  @Test func cancellingAStoreTaskWhileItsEffectStillRunsCancelsWhatItsActionsStarted() async {
    let clock = TestClock()
    let store = Store(initialState: 0) {
      Reduce<Int, Cascade.Action> { state, action in
        guard action == .task else {
          return Cascade(clock: clock).reduce(into: &state, action: action)
        }
        return .run { send in
          try await clock.sleep(for: .seconds(1))
          await send(.response2)
          try await Task.never()
        }
      }
    }
    let task = store.send(.task)
    await clock.advance(by: .seconds(1))
    // NB: the effect, still running, has sent `.response2`, whose 60-second wait has started.
    for _ in 0..<10 { await Task.yield() }
    task.cancel()
    await task.finish()
    await clock.run()
    #expect(store.state == 0)
  }

  @Test func cancellingAConcatenationsStoreTaskCancelsWhatItsStepsActionsStarted() async {
    let clock = TestClock()
    let store = Store(initialState: 0) {
      Reduce<Int, Cascade.Action> { state, action in
        guard action == .task else {
          return Cascade(clock: clock).reduce(into: &state, action: action)
        }
        return .concatenate(
          .run { _ in try await clock.sleep(for: .seconds(1)) },
          .run { send in await send(.response2) })
      }
    }
    let task = store.send(.task)
    await clock.advance(by: .seconds(1))
    // NB: the second step has sent `.response2`, whose 60-second wait has started.
    for _ in 0..<10 { await Task.yield() }
    task.cancel()
    await clock.run()
    #expect(store.state == 0)
  }

  @Test func anEffectCancelledByIDLeavesTheEffectsOfTheActionsItSent() async {
    let clock = TestClock()
    let store = Store(initialState: 0) {
      Reduce<Int, Cascade.Action> { state, action in
        switch action {
        case .task:
          return .run { send in
            await send(.response2)
            try await Task.never()
          }
          .cancellable(id: "task")
        case .response:
          return .cancel(id: "task")
        default:
          return Cascade(clock: clock).reduce(into: &state, action: action)
        }
      }
    }
    store.send(.task)
    store.send(.response)
    await clock.run()
    #expect(store.state == 1)
  }

  /// TCA's `testChildParentEffectCancellation`, whose last check TCA marks as a known issue:
  /// here it holds.
  @Test func childParentEffectCancellation() async {
    let clock = TestClock()
    let store = Store(initialState: Parent.State(child: Child.State())) {
      Parent()
    } withDependencies: {
      $0.continuousClock = clock
    }
    let childTask = store.send(.child(.task))
    #expect(store.state.child == nil)
    childTask.cancel()
    await clock.advance(by: .seconds(1))
    #expect(store.state.count == 1)
  }

  @Test func cancellingAChildsTaskInATestStoreLeavesItsParentsEffect() async {
    let clock = TestClock()
    let store = TestStore(initialState: Parent.State(child: Child.State())) {
      Parent()
    } withDependencies: {
      $0.continuousClock = clock
    }
    let childTask = await store.send(.child(.task))
    await store.receive(.child(.didFinish)) { $0.child = nil }
    await childTask.cancel()
    await clock.advance(by: .seconds(1))
    await store.receive(.delay) { $0.count = 1 }
  }

  @Test func cancellingAScopedChildStoresTaskLeavesItsParentsEffect() async {
    let clock = TestClock()
    let store = Store(initialState: Parent.State(child: Child.State())) {
      Parent()
    } withDependencies: {
      $0.continuousClock = clock
    }
    let childStore = store.scope(state: \.child, action: .case(Parent.Action.child))
    let childTask = childStore.send(.task)
    childTask.cancel()
    await clock.advance(by: .seconds(1))
    #expect(store.state.count == 1)
  }
}
