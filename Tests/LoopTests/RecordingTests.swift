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

// MARK: - Shared state

/// A counter whose count is shared: its state before and after an action hold one reference.
struct SharedTally: Reducer {
  struct State: Equatable {
    @Shared var count: Int
    var reads = 0

    init(count: Int = 0) {
      self._count = Shared(value: count)
    }
  }

  enum Action: Equatable {
    case incrementTapped
    case readTapped
  }

  let step: Int

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .incrementTapped:
      state.$count.withLock { $0 += step }
    case .readTapped:
      state.reads += 1
    }
    return .none
  }
}

extension RecordingTests {
  /// A recording of an increment then a read, by one.
  static func sharedTallyRecording() -> Recording {
    let recorder = Recorder()
    let store = Store(initialState: SharedTally.State()) { SharedTally(step: 1) }
    store.record(into: recorder)
    store.send(.incrementTapped)
    store.send(.readTapped)
    store.record(into: nil)
    return Recording(entries: recorder.takeEntries())
  }

  @Test func aChangeToSharedStateIsRecordedWithTheActionThatMadeIt() {
    #expect(
      Self.sharedTallyRecording().text == """
        loop-recording 1
        initial
        | SharedTally.State(
        |   count: 0,
        |   reads: 0
        | )
        send SharedTally.Action.incrementTapped
        state
        |   SharedTally.State(
        | −   count: 0,
        | +   count: 1,
        |     reads: 0
        |   )
        send SharedTally.Action.readTapped
        state
        |   SharedTally.State(
        |     count: 1,
        | −   reads: 0
        | +   reads: 1
        |   )

        """)
  }

  @Test func aReplayMatchesTheRecordedChangesToSharedState() {
    let store = Store(initialState: SharedTally.State()) { SharedTally(step: 1) }
    let replayer = Replayer(Self.sharedTallyRecording(), store: store, values: nil)
    store.send(.incrementTapped)
    store.send(.readTapped)
    #expect(replayer.finish() == nil)
  }

  @Test func aReplayWhoseSharedStateChangesOtherwiseDiverges() {
    let store = Store(initialState: SharedTally.State()) { SharedTally(step: 2) }
    let replayer = Replayer(Self.sharedTallyRecording(), store: store, values: nil)
    store.send(.incrementTapped)
    store.send(.readTapped)
    #expect(
      replayer.finish() == """
        The replay diverged from the recording at step 1, after SharedTally.Action.incrementTapped: \
        the state does not match.

            SharedTally.State(
          −   count: 1,
          +   count: 2,
              reads: 0
            )

        (Recorded: −, Replayed: +)

        To fix, find what changed since the recording was made; if the change is meant, record \
        the session again.
        """)
  }
}
