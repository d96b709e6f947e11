/// Waiting for effects while the main actor is too busy to run them.
///
/// A `TestStore`'s timeout is meant for the effects' own progress. The main actor runs them, and
/// while a whole suite runs in parallel each of their steps can queue behind hundreds of other
/// tests' work for longer than the timeout. So a wait that reaches its deadline first asks how
/// long a turn on the main actor (and on the global executor) takes: while turns take more than
/// ``threshold``, the effects have not had their time, and the wait goes on (up to ``patience``
/// timeouts, or ``shortestPatience`` if longer, in all); on idle executors it ends at the
/// deadline as before. A passing test never waits for any of this.
@MainActor
enum BusyMainActor {
  /// How many timeouts a wait may last in all while the main actor stays busy.
  static let patience = 30

  /// How long a wait may last in all while the main actor stays busy, however short its
  /// timeout: a whole suite running in parallel beside other builds has kept an effect from both
  /// executors for over a minute (seen: a 100 ms receive failing at its 60 s limit).
  static let shortestPatience: Duration = .seconds(180)

  /// A turn on the main actor longer than this means it is busy.
  static let threshold: Duration = .milliseconds(10)

  /// How much longer to wait, at most, each time the main actor was found busy.
  static let step: Duration = .milliseconds(250)

  /// Whether a turn on the main actor, or on the global concurrent executor, now takes longer
  /// than ``threshold``: the longest of three yields and three trips to the global executor and
  /// back, each waiting behind the jobs queued before it.
  ///
  /// NB: effects leave the main actor for their heavy work (a client's `@concurrent` endpoint), and
  /// in a parallel run other tests' blocking work can hold every thread of the global executor:
  /// the effects have not had their time then either, however idle the main actor is.
  static func isBusy() async -> Bool {
    var longest = Duration.zero
    for _ in 0..<3 {
      var start = ContinuousClock.now
      await Task.yield()
      longest = max(longest, ContinuousClock.now - start)
      start = ContinuousClock.now
      await turnOnTheGlobalExecutor()
      longest = max(longest, ContinuousClock.now - start)
    }
    return longest > threshold
  }

  /// Runs nothing on the global concurrent executor: awaiting it takes a turn there.
  @concurrent nonisolated private static func turnOnTheGlobalExecutor() async {}

  /// Waits until `isDone` holds, or the deadline `timeout` from now passes while the main actor
  /// is not busy.
  ///
  /// - Parameters:
  ///   - timeout: How long the work may take on an idle main actor.
  ///   - isDone: Whether the wait is over; checked before each wait.
  ///   - wait: Waits until the given deadline, or until `isDone` may have changed.
  static func wait(
    timeout: Duration, until isDone: () -> Bool,
    waitingUntil wait: (ContinuousClock.Instant) async -> Void
  ) async {
    let start = ContinuousClock.now
    let limit = start.advanced(by: max(timeout * patience, shortestPatience))
    var deadline = start.advanced(by: timeout)
    while !isDone() {
      if ContinuousClock.now >= deadline {
        // NB: a zero timeout asks for what has already arrived: nothing to wait longer for.
        guard timeout > .zero, ContinuousClock.now < limit, await isBusy() else { return }
        deadline = min(limit, ContinuousClock.now.advanced(by: min(timeout, step)))
        continue
      }
      await wait(deadline)
    }
  }
}
