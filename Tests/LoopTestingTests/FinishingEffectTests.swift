import LoopTesting
import TestSupport
import Testing

/// A feature that listens to a stream until it ends.
private struct Listener: Reducer {
  struct State: Equatable {
    var count = 0
  }

  enum Action: Equatable {
    case failed
    case got
    case startTapped
  }

  let stream: AsyncThrowingStream<Int, any Error>

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .failed:
      return .none
    case .got:
      state.count += 1
      return .none
    case .startTapped:
      return .run { send in
        for try await _ in stream { await send(.got) }
      } catch: { _, send in
        await send(.failed)
      }
      .cancellable(id: 1)
    }
  }
}

/// Effects that have just finished when a test ends: a receive lets them wind down.
@MainActor
@Suite struct FinishingEffectTests {
  @Test func anEffectWhoseThrowingStreamJustFinishedIsNotStillRunning() async {
    let (stream, continuation) = AsyncThrowingStream<Int, any Error>.makeStream()
    let issues = await capturingIssues {
      let store = TestStore(initialState: Listener.State()) { Listener(stream: stream) }
      await store.send(.startTapped)
      continuation.yield(1)
      continuation.finish()
      await store.receive(.got) { $0.count = 1 }
    }
    #expect(issues.messages.isEmpty)
  }
}
