import LoopTesting
import Testing

/// TCA's "Timers" case study, moved to Loop unchanged: a button starts and stops a timer that
/// counts seconds on the `continuousClock` dependency.
private struct Timers: Reducer {
  struct State: Equatable {
    var isTimerActive = false
    var secondsElapsed = 0
  }

  enum Action: Equatable {
    case onDisappear
    case timerTicked
    case toggleTimerButtonTapped
  }

  @Dependency(\.continuousClock) var clock

  private enum CancelID { case timer }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .onDisappear:
      return .cancel(id: CancelID.timer)
    case .timerTicked:
      state.secondsElapsed += 1
      return .none
    case .toggleTimerButtonTapped:
      state.isTimerActive.toggle()
      return .run { [isTimerActive = state.isTimerActive] send in
        guard isTimerActive else { return }
        for await _ in self.clock.timer(interval: .seconds(1)) {
          await send(.timerTicked)
        }
      }
      .cancellable(id: CancelID.timer, cancelInFlight: true)
    }
  }
}

/// The same timer, stopped by cancelling its id rather than by replacing it.
private struct CancellingTimer: Reducer {
  typealias State = Timers.State
  typealias Action = Timers.Action

  @Dependency(\.continuousClock) var clock

  private enum CancelID { case timer }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .onDisappear:
      return .cancel(id: CancelID.timer)
    case .timerTicked:
      state.secondsElapsed += 1
      return .none
    case .toggleTimerButtonTapped:
      state.isTimerActive.toggle()
      guard state.isTimerActive else { return .cancel(id: CancelID.timer) }
      return .run { send in
        for await _ in self.clock.timer(interval: .seconds(1)) {
          await send(.timerTicked)
        }
      }
      .cancellable(id: CancelID.timer, cancelInFlight: true)
    }
  }
}

/// A timer over `clock.timer(interval:)`, replaced and cancelled in flight (issue 43, point 3).
@MainActor
@Suite struct TimersCaseStudyTests {
  /// TCA's own test of the case study.
  @Test func basics() async {
    let clock = TestClock()
    let store = TestStore(initialState: Timers.State()) {
      Timers()
    } withDependencies: {
      $0.continuousClock = clock
    }

    await store.send(.toggleTimerButtonTapped) {
      $0.isTimerActive = true
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.timerTicked) {
      $0.secondsElapsed = 1
    }
    await clock.advance(by: .seconds(5))
    await store.receive(.timerTicked) {
      $0.secondsElapsed = 2
    }
    await store.receive(.timerTicked) {
      $0.secondsElapsed = 3
    }
    await store.receive(.timerTicked) {
      $0.secondsElapsed = 4
    }
    await store.receive(.timerTicked) {
      $0.secondsElapsed = 5
    }
    await store.receive(.timerTicked) {
      $0.secondsElapsed = 6
    }
    await store.send(.toggleTimerButtonTapped) {
      $0.isTimerActive = false
    }
  }

  @Test func aTimerReplacedInFlightOnOffOnOffLeavesNoEffectRunning() async {
    await toggleOnOffOnOff { Timers() }
  }

  @Test func aTimerCancelledByIdOnOffOnOffLeavesNoEffectRunning() async {
    await toggleOnOffOnOff { CancellingTimer() }
  }

  /// Toggles the timer on, lets it tick, off, on, lets it tick, off: the test ends with no
  /// effect running.
  private func toggleOnOffOnOff<R: Reducer>(_ reducer: () -> R) async
  where R.State == Timers.State, R.Action == Timers.Action {
    let clock = TestClock()
    let store = TestStore(initialState: Timers.State(), reducer: reducer) {
      $0.continuousClock = clock
    }

    await store.send(.toggleTimerButtonTapped) { $0.isTimerActive = true }
    await clock.advance(by: .seconds(1))
    await store.receive(.timerTicked) { $0.secondsElapsed = 1 }
    await store.send(.toggleTimerButtonTapped) { $0.isTimerActive = false }
    await store.send(.toggleTimerButtonTapped) { $0.isTimerActive = true }
    await clock.advance(by: .seconds(1))
    await store.receive(.timerTicked) { $0.secondsElapsed = 2 }
    await store.send(.toggleTimerButtonTapped) { $0.isTimerActive = false }
  }

  @Test func aTimerStoppedBeforeItTicksLeavesNoEffectRunning() async {
    let clock = TestClock()
    let store = TestStore(initialState: Timers.State()) {
      Timers()
    } withDependencies: {
      $0.continuousClock = clock
    }

    await store.send(.toggleTimerButtonTapped) { $0.isTimerActive = true }
    await store.send(.toggleTimerButtonTapped) { $0.isTimerActive = false }
    await store.send(.toggleTimerButtonTapped) { $0.isTimerActive = true }
    await store.send(.toggleTimerButtonTapped) { $0.isTimerActive = false }
  }

  @Test func theTimerStopsWhenTheScreenDisappears() async {
    let clock = TestClock()
    let store = TestStore(initialState: Timers.State()) {
      Timers()
    } withDependencies: {
      $0.continuousClock = clock
    }

    await store.send(.toggleTimerButtonTapped) { $0.isTimerActive = true }
    await clock.advance(by: .seconds(1))
    await store.receive(.timerTicked) { $0.secondsElapsed = 1 }
    await store.send(.onDisappear)
    await clock.advance(by: .seconds(5))
  }
}
