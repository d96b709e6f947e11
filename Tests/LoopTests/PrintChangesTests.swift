import Loop
import Synchronization
import Testing

private struct Counter: Reducer {
  struct State: Equatable {
    var count = 0
    var label = "counter"
  }
  enum Action: Equatable { case increment, noop }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    if action == .increment { state.count += 1 }
    return .none
  }
}

@MainActor
@Suite struct PrintChangesTests {
  @Test func printsTheActionAndTheStateDiff() {
    let output = Mutex<[String]>([])
    let store = Store(initialState: Counter.State()) {
      Counter()._printChanges { text in output.withLock { $0.append(text) } }
    }
    store.send(.increment)
    store.send(.noop)
    #expect(
      output.withLock { $0 } == [
        """
        received action:
          Counter.Action.increment
            Counter.State(
          −   count: 0,
          +   count: 1,
              label: "counter"
            )

          (Before: −, After: +)
        """,
        """
        received action:
          Counter.Action.noop
          (No state changes)
        """,
      ])
  }

  @Test func printsNothingWhileDisabled() {
    let output = Mutex<[String]>([])
    let isEnabled = Mutex(false)
    let store = Store(initialState: Counter.State()) {
      Counter()._printChanges(when: { isEnabled.withLock { $0 } }) { text in
        output.withLock { $0.append(text) }
      }
    }
    store.send(.increment)
    isEnabled.withLock { $0 = true }
    store.send(.increment)
    #expect(output.withLock { $0.count } == 1)
    #expect(store.state.count == 2)
  }
}
