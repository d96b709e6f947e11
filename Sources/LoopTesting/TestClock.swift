import Synchronization

/// A clock whose time moves only when the test moves it, so tests of debounces, timers and
/// timeouts run instantly and deterministically.
///
/// ```swift
/// let clock = TestClock()
/// let store = TestStore(initialState: Search.State()) { Search() } withDependencies: {
///   $0.continuousClock = clock
/// }
/// await store.send(.queryChanged("sw")) { $0.query = "sw" }
/// await clock.advance(by: .milliseconds(300))
/// await store.receive(.searchResponse(["swift"])) { $0.results = ["swift"] }
/// ```
public final class TestClock: Clock, Sendable {
  /// A point in the test clock's time: an offset from when the clock was created.
  public struct Instant: InstantProtocol, CustomStringConvertible {
    /// The time since the clock started.
    public let offset: Duration

    /// Creates an instant at `offset` from the clock's start.
    public init(offset: Duration = .zero) {
      self.offset = offset
    }

    /// The instant `duration` later.
    ///
    /// - Parameter duration: The time to add.
    /// - Returns: The later instant.
    public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }

    /// The time from this instant to `other`.
    ///
    /// - Parameter other: The other instant.
    /// - Returns: The duration between them.
    public func duration(to other: Instant) -> Duration { other.offset - offset }

    /// Whether `lhs` comes before `rhs`.
    public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }

    /// The offset, such as `0.3 seconds`.
    public var description: String { "\(offset)" }
  }

  private struct Sleeper {
    let id: Int
    let deadline: Instant
    let continuation: CheckedContinuation<Void, any Error>
  }

  /// `activity` counts sleeps and cancellations, `wakes` the sleeps that returned after a resume.
  private let state = Mutex<
    (now: Instant, sleepers: [Sleeper], nextID: Int, activity: Int, wakes: Int)
  >((Instant(), [], 0, 0, 0))

  /// Creates a clock at time zero.
  public init() {}

  /// The current time.
  public var now: Instant { state.withLock { $0.now } }

  /// The smallest step: none.
  public var minimumResolution: Duration { .zero }

  /// Suspends until the clock has been advanced to `deadline`, or throws `CancellationError` when
  /// the task is cancelled first.
  ///
  /// A deadline that has already passed (a zero-length sleep) still waits, for the next
  /// ``advance(by:)`` or ``run()``, as the test clock TCA users know does: a test decides when
  /// even an immediate timer fires.
  ///
  /// - Parameters:
  ///   - deadline: When to wake.
  ///   - tolerance: Ignored.
  /// - Throws: `CancellationError` when cancelled.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    let id = state.withLock { state in
      defer { state.nextID += 1 }
      return state.nextID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        state.withLock { state in
          state.activity += 1
          state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
        }
      }
    } onCancel: {
      let sleeper = state.withLock { state -> Sleeper? in
        state.activity += 1
        guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
        return state.sleepers.remove(at: index)
      }
      sleeper?.continuation.resume(throwing: CancellationError())
    }
    state.withLock { $0.wakes += 1 }
  }

  /// Moves time forward by `duration`, waking each sleeper whose deadline passes, in deadline
  /// order, and letting the woken work run before moving on.
  ///
  /// - Parameter duration: How far to move.
  public func advance(by duration: Duration = .zero) async {
    await advance(to: now.advanced(by: duration))
  }

  /// Moves time forward to `deadline`, waking sleepers in deadline order.
  ///
  /// - Parameter deadline: The new time.
  public func advance(to deadline: Instant) async {
    await settle()
    while let sleeper = nextSleeper(until: deadline) {
      await wake(sleeper)
    }
    state.withLock { $0.now = max($0.now, deadline) }
    await settle()
  }

  /// Runs the clock until no sleeper is left.
  public func run() async {
    await settle()
    while let sleeper = nextSleeper(until: nil) {
      await wake(sleeper)
    }
  }

  /// Runs the clock until no sleeper is left, failing the test when sleepers are still left
  /// after `timeout` of real time: TCA's `TestClock.run(timeout:)`.
  ///
  /// ```swift
  /// await store.send(.startSubmitted)
  /// await clock.run(timeout: .seconds(1))
  /// ```
  ///
  /// Where ``run()`` never returns while an effect keeps sleeping (a timer that is never
  /// cancelled), this stops and reports it.
  ///
  /// - Parameters:
  ///   - timeout: How long, in real time, the sleepers may take to finish.
  ///   - fileID: The file of the call, for the failure.
  ///   - filePath: The file path of the call.
  ///   - line: The line of the call.
  ///   - column: The column of the call.
  public func run(
    timeout: Duration,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let start = ContinuousClock.now
    await settle()
    while let sleeper = nextSleeper(until: nil) {
      await wake(sleeper)
      guard ContinuousClock.now - start < timeout else {
        guard state.withLock({ !$0.sleepers.isEmpty }) else { return }
        IssueReporting.current.reportIssue(
          """
          Expected all sleeps to finish, but some are still sleeping after \(timeout).

          An effect keeps sleeping on the clock (a timer that is never cancelled, say), or the \
          work left takes longer than the timeout. To fix, cancel the effect, advance the clock \
          by a duration ('advance(by:)') instead, or give 'run' a longer timeout.
          """,
          at: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column))
        return
      }
    }
  }

  /// Wakes the earliest sleeper, moving time to its deadline, and lets its work run: how an
  /// exploration advances time exactly as far as its effects need.
  ///
  /// - Returns: `false` when nothing sleeps on the clock.
  func wakeNextSleeper() async -> Bool {
    await settle()
    guard let sleeper = nextSleeper(until: nil) else { return false }
    await wake(sleeper)
    return true
  }

  /// Takes the earliest sleeper due by `deadline` (any, when `nil`), moving time to its deadline.
  private func nextSleeper(until deadline: Instant?) -> Sleeper? {
    state.withLock { state in
      guard
        let index = state.sleepers.indices.min(by: {
          (state.sleepers[$0].deadline, state.sleepers[$0].id)
            < (state.sleepers[$1].deadline, state.sleepers[$1].id)
        }),
        deadline.map({ state.sleepers[index].deadline <= $0 }) ?? true
      else { return nil }
      let sleeper = state.sleepers.remove(at: index)
      state.now = max(state.now, sleeper.deadline)
      return sleeper
    }
  }

  /// Resumes `sleeper` and lets its task run until it suspends again.
  ///
  /// NB: sleepers due at the same instant wake in the order they slept, and their tasks send in
  /// that order only if each has resumed before the next is woken: on a loaded machine (the thread
  /// sanitizer, a parallel run) a woken task can wait longer for a thread than `settle` watches
  /// for, so this first waits until its sleep has returned (up to five seconds).
  private func wake(_ sleeper: Sleeper) async {
    let wakes = state.withLock { $0.wakes }
    sleeper.continuation.resume()
    let start = ContinuousClock.now
    while state.withLock({ $0.wakes }) == wakes, ContinuousClock.now - start < .seconds(5) {
      await yieldToEveryone()
    }
    await settle()
  }

  /// Lets effects that are ready run until they suspend again.
  ///
  /// NB: effects run on the global executor and send through the main actor; nothing says when
  /// they have reached their next suspension. So this lets both run (a hop through the main actor
  /// drains the actions queued before it, a detached yield gives the pool a turn) until the clock
  /// has seen no new sleep or cancellation for eight rounds in a row (four let an effect started
  /// just before an advance miss its turn under the thread sanitizer, in a parallel run).
  private func settle() async {
    var quietRounds = 0
    var lastActivity = state.withLock { $0.activity }
    var rounds = 0
    while quietRounds < 8, rounds < 500 {
      await yieldToEveryone()
      let activity = state.withLock { $0.activity }
      quietRounds = activity == lastActivity ? quietRounds + 1 : 0
      lastActivity = activity
      rounds += 1
    }
  }

  /// One turn for the main actor, the global executor and the current task's executor.
  private func yieldToEveryone() async {
    await MainActor.run {}
    await Task.detached(priority: .low) { await Task.yield() }.value
    await Task.yield()
  }
}

/// A clock that never waits: sleeping returns at once (unless the task is cancelled), and time
/// jumps forward by the slept duration.
public final class ImmediateClock: Clock, Sendable {
  private let current = Mutex(TestClock.Instant())

  /// Creates a clock at time zero.
  public init() {}

  /// The current time.
  public var now: TestClock.Instant { current.withLock { $0 } }

  /// The smallest step: none.
  public var minimumResolution: Duration { .zero }

  /// Returns at once, moving time to `deadline`.
  ///
  /// - Parameters:
  ///   - deadline: The instant to move to.
  ///   - tolerance: Ignored.
  /// - Throws: `CancellationError` when the task is cancelled.
  public func sleep(until deadline: TestClock.Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    current.withLock { $0 = max($0, deadline) }
    await Task.yield()
  }
}
