import LoopTesting

/// A child that ticks on the injected clock until it is stopped: the feature the cancellation
/// scope tests present, list and stack.
struct Ticker: Reducer {
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

  /// The id of the timer of the parents of tickers (``everySecond(on:send:)``): a ticker asking
  /// to stop it must not reach it.
  enum ParentCancelID { case refresh }

  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .restartTapped:
      return Self.everySecond(on: clock, send: .ticked)
        .cancellable(id: CancelID.timer, cancelInFlight: true)
    case .startTapped:
      return Self.everySecond(on: clock, send: .ticked).cancellable(id: CancelID.timer)
    case .stopFromAnEffectTapped:
      return .run { _ in Task.cancel(id: CancelID.timer) }
    case .stopParentTapped:
      return .cancel(id: ParentCancelID.refresh)
    case .stopTapped:
      return .cancel(id: CancelID.timer)
    case .ticked:
      state.ticks += 1
      return .none
    }
  }

  /// Sends `action` every second on `clock`, until cancelled: a ticker's timer, and its parents'.
  static func everySecond<A: Sendable>(on clock: any Clock<Duration>, send action: A) -> Effect<A> {
    .run { send in
      while true {
        try await clock.sleep(for: .seconds(1))
        await send(action)
      }
    }
  }
}
