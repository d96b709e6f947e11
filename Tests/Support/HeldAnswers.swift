import LoopTesting
import Synchronization

/// A client endpoint whose answers are held back on a test clock, so that a test decides their
/// order: the `n`th call reads at once, then answers when the clock reaches `answerTimes[n]`.
///
/// With a later time for the first call than for the second, the first call's answer (read
/// before whatever the test changes next) arrives after the second's: the stale answer a screen
/// must never show.
public final class HeldAnswers: Sendable {
  /// The clock the answers wait on; only the test moves it.
  public let clock = TestClock()
  private let answerTimes: [Duration]
  private let state = Mutex<(reads: Int, waiters: [(read: Int, CheckedContinuation<Void, Never>)])>(
    (0, []))

  /// Holds the calls' answers until these times, from the clock's start, in call order.
  public init(answeringAt answerTimes: Duration...) {
    self.answerTimes = answerTimes
  }

  /// Reads now, then holds the answer until this call's time.
  public func answer<Value>(_ read: () async throws -> Value) async throws -> Value {
    let value = try await read()
    let (call, done) = state.withLock { state in
      let call = state.reads
      state.reads += 1
      let done = state.waiters.filter { $0.read <= call }.map(\.1)
      state.waiters.removeAll { $0.read <= call }
      return (call, done)
    }
    for waiter in done { waiter.resume() }
    precondition(call < answerTimes.count, "HeldAnswers: call \(call) has no answer time")
    try await clock.sleep(until: TestClock.Instant(offset: answerTimes[call]))
    return value
  }

  /// Waits until call `number` (from 0) has read, so the test can change what a later call
  /// reads.
  public func waitForRead(_ number: Int) async {
    await withCheckedContinuation { continuation in
      let isDone = state.withLock { state in
        guard state.reads <= number else { return true }
        state.waiters.append((number, continuation))
        return false
      }
      if isDone { continuation.resume() }
    }
  }
}
