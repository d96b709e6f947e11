import Synchronization

/// A latch effects wait on, so a test decides when an effect goes on, without sleeping.
public final class Gate: Sendable {
  private let state = Mutex<(isOpen: Bool, waiters: [CheckedContinuation<Void, Never>])>(
    (false, []))

  /// Creates a closed gate.
  public init() {}

  /// Waits until the gate is open.
  public func wait() async {
    await withCheckedContinuation { continuation in
      let resumeNow = state.withLock { state in
        if state.isOpen { return true }
        state.waiters.append(continuation)
        return false
      }
      if resumeNow { continuation.resume() }
    }
  }

  /// Opens the gate, letting every waiter go on.
  public func open() {
    let waiters = state.withLock { state in
      state.isOpen = true
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
  }
}
