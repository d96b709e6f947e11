extension Clock where Duration == Swift.Duration {
  /// A sequence that ticks every `interval` on this clock, for as long as it is iterated.
  ///
  /// ```swift
  /// case .startSubmitted:
  ///   return .run { send in
  ///     for await _ in clock.timer(interval: .seconds(1)) {
  ///       await send(.ticked)
  ///     }
  ///   }
  ///   .cancellable(id: CancelID.timer)
  /// ```
  ///
  /// Each tick comes `interval` after the previous one's deadline (not after the loop's body
  /// finished), so ticks do not drift. On a `TestClock` they come as the test advances it. The
  /// sequence ends when the iterating task is cancelled. It is a method of every clock,
  /// `any Clock<Duration>` (the `continuousClock` dependency) included.
  ///
  /// - Parameters:
  ///   - interval: The time between ticks.
  ///   - tolerance: The leeway each sleep allows the clock.
  /// - Returns: The sequence; each element is the clock's reading at the tick.
  public func timer(interval: Duration, tolerance: Duration? = nil) -> ClockTimer {
    ClockTimer(clock: self, interval: interval, tolerance: tolerance)
  }
}

/// The ticks of a clock, every interval: what `Clock.timer(interval:tolerance:)` returns.
///
/// NB: not generic over the clock, so that `timer(interval:)` can be called on the
/// `any Clock<Duration>` of the `continuousClock` dependency.
public struct ClockTimer: AsyncSequence, Sendable {
  /// The clock's reading at a tick.
  public typealias Element = any InstantProtocol<Duration>

  let clock: any Clock<Duration>
  let interval: Duration
  let tolerance: Duration?

  /// Starts ticking: the first tick comes `interval` from now.
  public func makeAsyncIterator() -> Iterator {
    Iterator(clock: clock, interval: interval, tolerance: tolerance)
  }

  /// Waits for each tick in turn.
  public struct Iterator: AsyncIteratorProtocol {
    let clock: any Clock<Duration>
    let interval: Duration
    let tolerance: Duration?
    /// The last tick's deadline, as the clock's own instant.
    var deadline: (any InstantProtocol<Duration>)?

    /// Waits for the next tick and returns the clock's reading then; `nil` once the task is
    /// cancelled.
    public mutating func next() async -> Element? {
      guard
        let (next, now) = await Self.tick(
          on: clock, after: deadline, interval: interval, tolerance: tolerance)
      else { return nil }
      deadline = next
      return now
    }

    /// Sleeps until `interval` after `deadline` (after now, for the first tick).
    ///
    /// - Returns: The new deadline and the clock's reading after the sleep; `nil` when the sleep
    ///   was cancelled.
    private static func tick<C: Clock<Duration>>(
      on clock: C, after deadline: (any InstantProtocol<Duration>)?, interval: Duration,
      tolerance: Duration?
    ) async -> (C.Instant, C.Instant)? {
      let next = ((deadline as? C.Instant) ?? clock.now).advanced(by: interval)
      do {
        try await clock.sleep(until: next, tolerance: tolerance)
      } catch {
        return nil
      }
      return (next, clock.now)
    }
  }
}
