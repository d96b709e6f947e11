import Loop
import Testing

@testable import LoopCLI

/// The clock of a replay that records again: it hands out the recorded readings, writes each
/// into the new recording as it was, and sleeping draws none of them.
@Suite struct RecordedClockTests {
  /// Two recorded readings, handed out once each.
  static func values() -> RecordedValues {
    RecordedValues(
      Recording(entries: [.value(name: "clock", "5000"), .value(name: "clock", "9000")]))
  }

  @Test func aReplayRecordingAgainWritesEachReadingAsItWas() {
    let recorder = Recorder()
    let clock = RecordedClock(recording: RecordedClock(replaying: Self.values()), recorder)
    #expect(clock.now.offset == .nanoseconds(5000))
    #expect(clock.now.offset == .nanoseconds(9000))
    #expect(
      recorder.takeEntries().map(\.text) == [
        Recording.Entry.value(name: "clock", "5000").text,
        Recording.Entry.value(name: "clock", "9000").text,
      ])
  }

  /// A recording's sleep reads the clock once (the deadline), and that reading is recorded; a
  /// replay that records again must draw and record just that one, and no other.
  @Test func sleepingInAReplayThatRecordsAgainRecordsTheOneReadingItDraws() async throws {
    let recorder = Recorder()
    let clock = RecordedClock(recording: RecordedClock(replaying: Self.values()), recorder)
    try await clock.sleep(for: .seconds(1))
    #expect(clock.now.offset == .nanoseconds(9000))
    #expect(
      recorder.takeEntries().map(\.text) == [
        Recording.Entry.value(name: "clock", "5000").text,
        Recording.Entry.value(name: "clock", "9000").text,
      ])
  }
}
