import Foundation
import Loop

/// The clock of a recorded session: it records each reading of another clock, or hands the
/// recorded readings out again in a replay, as `clock` values (nanoseconds since the recording
/// started).
///
/// Imports report how long they took, and that duration is part of the state; so a replay must
/// read the clock as the recording did. Sleeping is not recorded: a recording sleeps on the
/// clock it wraps, a replay not at all.
struct RecordedClock: Clock {
  /// A moment: how long after the recording started.
  typealias Instant = OffsetInstant

  private enum Mode: Sendable {
    /// Records readings of `elapsed` (the time since the recording started on the wrapped
    /// clock), and sleeps with `sleep`.
    case recording(
      Recorder, elapsed: @Sendable () -> Duration, sleep: @Sendable (Duration) async throws -> Void)
    /// Hands out the recorded readings, recording each again into `recorder` when a replay
    /// records (`loop replay FILE --record NEW`).
    case replaying(RecordedValues, recordingInto: Recorder?)
  }

  private let mode: Mode

  /// A clock that records each reading, and sleeps on `base`; on a replaying clock, one that
  /// records the replayed readings as they were (reading a start would draw one of them).
  init(recording base: some Clock<Duration>, _ recorder: Recorder) {
    if let replayed = base as? RecordedClock, case .replaying(let values, _) = replayed.mode {
      mode = .replaying(values, recordingInto: recorder)
      return
    }
    let start = base.now
    mode = .recording(
      recorder, elapsed: { start.duration(to: base.now) },
      sleep: { try await base.sleep(for: $0) })
  }

  /// A clock that hands out the recorded readings, and never sleeps.
  init(replaying values: RecordedValues) {
    mode = .replaying(values, recordingInto: nil)
  }

  var now: Instant {
    switch mode {
    case .recording(let recorder, let elapsed, _):
      let components = elapsed().components
      let nanoseconds = components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000
      recorder.record(.value(name: "clock", "\(nanoseconds)"))
      return Instant(offset: .nanoseconds(nanoseconds))
    case .replaying(let values, let recorder):
      let reading = values.next("clock") ?? "0"
      recorder?.record(.value(name: "clock", reading))
      return Instant(offset: .nanoseconds(Int64(reading) ?? 0))
    }
  }

  var minimumResolution: Duration { .nanoseconds(1) }

  func sleep(until deadline: Instant, tolerance: Duration?) async throws {
    switch mode {
    case .recording(_, let elapsed, let sleep):
      let remaining = deadline.offset - elapsed()
      if remaining > .zero { try await sleep(remaining) }
    case .replaying:
      // NB: a replay never waits, and reads no recorded value to decide it.
      try Task.checkCancellation()
      await Task.yield()
    }
  }
}
