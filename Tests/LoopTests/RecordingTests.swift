import Foundation
import TestSupport
import Testing

@testable import Loop

@MainActor
@Suite struct RecordingTests {
  static let start = Date(timeIntervalSince1970: 1_742_000_400.25)

  @Test func aStoreRecordsEachActionWithTheChangeItMadeAndTheValuesDrawn() {
    let recorder = Recorder()
    let store = Store(initialState: Journal.State()) {
      Journal()
    } withDependencies: {
      $0.date = recorder.recording(.constant(Self.start))
      $0.uuid = recorder.recording(.incrementing)
    }
    store.record(into: recorder)
    recorder.record(.input("add milk"))
    store.send(.added("milk"))
    store.send(.countTapped)
    #expect(
      Recording(entries: recorder.takeEntries()).text == """
        loop-recording 1
        initial
        | Journal.State(
        |   entries: [],
        |   count: 0
        | )
        input add milk
        value uuid 00000000-0000-0000-0000-000000000000
        value date 2025-03-15T01:00:00.250Z 1742000400.25
        send Journal.Action.added("milk")
        state
        |   Journal.State(
        |     entries: [
        | +     Journal.Entry(
        | +       id: UUID(00000000-0000-0000-0000-000000000000),
        | +       text: "milk",
        | +       createdAt: Date(2025-03-15T01:00:00.250Z)
        | +     )
        |     ],
        |     count: 0
        |   )
        send Journal.Action.countTapped
        receive Journal.Action.counted(1)
        state
        |   Journal.State(
        |     … (1 unchanged)
        | −   count: 0
        | +   count: 1
        |   )

        """)
  }

  @Test func aStoreStopsRecordingWhenGivenNil() {
    let recorder = Recorder()
    let store = Store(initialState: Journal.State()) { Journal() }
    store.record(into: recorder)
    store.send(.counted(2))
    store.record(into: nil)
    store.send(.counted(3))
    let steps = recorder.takeEntries().filter {
      if case .step = $0 { true } else { false }
    }
    #expect(steps.count == 1)
    #expect(recorder.takeEntries().isEmpty)
  }

  @Test func aRecordingReadsBackFromItsText() throws {
    let recording = Recording(entries: [
      .initialState("Journal.State(\n  count: 0\n)"),
      .input("add \"milk\" | tea"),
      .value(name: "file", "line one\n| line two\n"),
      .value(name: "empty", ""),
      .step(action: "Journal.Action.countTapped", isReceived: false, change: nil),
      .step(
        action: "Journal.Action.counted(\n  1\n)", isReceived: true,
        change: "  A(\n−   x\n+   y\n  )"),
    ])
    #expect(try Recording(text: recording.text) == recording)
  }

  @Test func recordedDatesAndUUIDsAreHandedOutAgainExactly() {
    let recorder = Recorder()
    let date = recorder.recording(
      DateGenerator { Date(timeIntervalSince1970: 1_742_000_400.123_456_7) })
    let uuid = recorder.recording(UUIDGenerator.live)
    let drawn = (date.now, uuid())
    let values = RecordedValues(Recording(entries: recorder.takeEntries()))
    #expect(values.date.now == drawn.0)
    #expect(values.uuid() == drawn.1)
    #expect(values.overdrawn.isEmpty)
  }

  @Test func askingForMoreValuesThanRecordedIsKept() {
    let values = RecordedValues(Recording(entries: [.value(name: "date", "x 0")]))
    _ = values.date.now
    _ = values.date.now
    #expect(values.next("clock") == nil)
    #expect(values.overdrawn == ["date", "clock"])
  }

  @Test(arguments: [
    ("hello\n", RecordingError.notARecording),
    ("loop-recording x\n", .notARecording),
    ("loop-recording 2\ninput a\n", .newerVersion(2)),
    ("loop-recording 1\ninput a\nsend Journ", .truncated(line: 3)),
    ("loop-recording 1\ninput a\nstate\n", .malformed(line: 3, "state")),
    ("loop-recording 1\nvalue\n", .malformed(line: 2, "value")),
  ])
  func aTextThatIsNotARecordingFails(text: String, error: RecordingError) {
    #expect(throws: error) { try Recording(text: text) }
  }

  @Test func readingErrorsAreOneSentenceEach() {
    #expect(
      RecordingError.notARecording.description
        == "is not a Loop recording: it does not start with 'loop-recording 1'")
    #expect(
      RecordingError.newerVersion(2).description
        == "was recorded by a newer Loop (format 2; this one reads up to 1)")
    #expect(
      RecordingError.truncated(line: 3).description
        == "ends in the middle of line 3: it was cut off while being written")
    #expect(
      RecordingError.malformed(line: 3, "state").description
        == "has a line that starts no entry, line 3: 'state'")
  }
}
