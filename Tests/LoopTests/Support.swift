import Loop
import Synchronization

/// A latch effects wait on, so tests control when an effect proceeds without sleeping.
final class Gate: Sendable {
  private let state = Mutex<(isOpen: Bool, waiters: [CheckedContinuation<Void, Never>])>(
    (false, []))

  func wait() async {
    await withCheckedContinuation { continuation in
      let resumeNow = state.withLock { state in
        if state.isOpen { return true }
        state.waiters.append(continuation)
        return false
      }
      if resumeNow { continuation.resume() }
    }
  }

  func open() {
    let waiters = state.withLock { state in
      state.isOpen = true
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
  }
}

/// Records values from any task, in order.
final class Log<Value: Sendable>: Sendable {
  private let storage = Mutex<[Value]>([])

  func append(_ value: Value) { storage.withLock { $0.append(value) } }
  var values: [Value] { storage.withLock { $0 } }
}

/// Suspends until the task is cancelled.
func waitForCancellation() async {
  while !Task.isCancelled {
    try? await Task.sleep(for: .seconds(3600))
  }
}

/// A presented child: it edits a text, closes itself with `dismiss`, and runs an effect until it
/// is cancelled.
struct Note: Reducer {
  struct State: Equatable, Identifiable {
    var id = 1
    var text = ""
  }

  enum Action: Equatable {
    case closeTapped, finished, longTask
    case textChanged(String)
  }

  @Dependency(\.dismiss) var dismiss

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .closeTapped:
      return .run { _ in await dismiss() }
    case .finished:
      state.text = "finished"
      return .none
    case .longTask:
      return .run { send in
        await waitForCancellation()
        await send(.finished)
      }
    case .textChanged(let text):
      state.text = text
      return .none
    }
  }
}
