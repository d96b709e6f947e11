import Foundation
import LoopTesting
import TestSupport
import Testing

@MainActor
@Suite struct ReplayTests {
  /// What the recorded session did.
  static func session(_ store: Store<Journal.State, Journal.Action>) async {
    await store.send(.added("milk")).finish()
    await store.send(.added("tea")).finish()
    await store.send(.countTapped).finish()
  }

  /// A recording of ``session(_:)``, made with a fixed date and counting ids.
  static func recorded() async -> Recording {
    let recorder = Recorder()
    let store = Store(initialState: Journal.State()) {
      Journal()
    } withDependencies: {
      $0.date = recorder.recording(.constant(Date(timeIntervalSince1970: 1_742_000_400)))
      $0.uuid = recorder.recording(.incrementing)
    }
    store.record(into: recorder)
    await session(store)
    return Recording(entries: recorder.takeEntries())
  }

  /// A store made as the recorded one was, with the recorded values.
  static func replayStore(
    _ values: RecordedValues, countScale: Int = 1, initialState: Journal.State = Journal.State()
  ) -> Store<Journal.State, Journal.Action> {
    Store(initialState: initialState) {
      Journal(countScale: countScale)
    } withDependencies: {
      $0.date = values.date
      $0.uuid = values.uuid
    }
  }

  /// Replays `recording` on a store made with its values, driven by `inputs` (the recorded
  /// session by default), and returns what the replay reported.
  static func replaying(
    _ recording: Recording, countScale: Int = 1, initialState: Journal.State = Journal.State(),
    inputs: ((Store<Journal.State, Journal.Action>, RecordedValues) async -> Void)? = nil
  ) async -> (identical: Bool, issues: IssueCollector) {
    let values = RecordedValues(recording)
    let store = replayStore(values, countScale: countScale, initialState: initialState)
    let issues = IssueCollector()
    let identical = await withIssueReporter(issues) {
      await replay(recording, on: store, values: values) {
        if let inputs { await inputs(store, values) } else { await session(store) }
      }
    }
    return (identical, issues)
  }

  @Test func replayingTheSameInputsWithTheRecordedValuesIsIdentical() async {
    let recording = await Self.recorded()
    let (identical, issues) = await Self.replaying(recording)
    #expect(identical)
    #expect(issues.messages.isEmpty)
  }

  @Test func aChangedReducerFailsAtTheFirstStepThatDiffersAtTheLineOfTheReplay() async throws {
    let recording = await Self.recorded()
    let values = RecordedValues(recording)
    let store = Self.replayStore(values, countScale: 2)
    let issues = IssueCollector()
    let line = #line + 2
    let identical = await withIssueReporter(issues) {
      await replay(recording, on: store, values: values) { await Self.session(store) }
    }
    #expect(!identical)
    #expect(
      issues.messages == [
        """
        The replay diverged from the recording at step 4: it processed another action.

          − receive Journal.Action.counted(2)
          + receive Journal.Action.counted(4)

        (Recorded: −, Replayed: +)

        To fix, find what changed since the recording was made; if the change is meant, \
        record the session again.
        """
      ])
    #expect(issues.locations.map(\.line) == [line])
  }

  @Test func anEditedStateLineFailsNamingThatStepWithADiff() async throws {
    let recorded = await Self.recorded()
    let text = recorded.text.replacingOccurrences(of: "| +   count: 2", with: "| +   count: 3")
    #expect(text != recorded.text)
    let recording = try Recording(text: text)
    let (_, issues) = await Self.replaying(recording)
    #expect(
      issues.messages == [
        """
        The replay diverged from the recording at step 4, after Journal.Action.counted(2): \
        the state does not match.

            Journal.State(
            … (9 lines)
                  createdAt: Date(2025-03-15T01:00:00.000Z)
                )
              ],
          −   count: 3
          +   count: 2
            )

        (Recorded: −, Replayed: +)

        To fix, find what changed since the recording was made; if the change is meant, \
        record the session again.
        """
      ])
  }

  @Test func aRecordingEditedWhereItCannotBeRebuiltShowsTheTwoChangesAgainstEachOther()
    async throws
  {
    let recorded = await Self.recorded()
    // NB: the change of step 2 no longer fits the state before it, so the recorded state after
    // it cannot be rebuilt: the two changes' views of it are compared instead.
    let text = recorded.text.replacingOccurrences(
      of: "|       … (1 unchanged)\n| +     Journal.Entry(",
      with: "|       … (5 unchanged)\n| +     Journal.Entry(")
    #expect(text != recorded.text)
    let (_, issues) = await Self.replaying(try Recording(text: text))
    #expect(
      issues.messages.first?.hasPrefix(
        """
        The replay diverged from the recording at step 2, after Journal.Action.added("tea"): \
        the state does not match.

            Journal.State(
              entries: [
          −     … (5 unchanged)
          +     … (1 unchanged)
        """) == true)
  }

  @Test func aReplayThatStopsEarlyFails() async {
    let recording = await Self.recorded()
    let (_, issues) = await Self.replaying(recording) { store, _ in
      await store.send(.added("milk")).finish()
    }
    #expect(
      issues.messages == [
        """
        The replay stopped at step 2 of 4: the recording goes on, the replay processed no more \
        actions.

        Next recorded action:

            Journal.Action.added("tea")

        To fix, find what changed since the recording was made; if the change is meant, \
        record the session again.
        """
      ])
  }

  @Test func aReplayThatGoesPastTheRecordingFails() async {
    let recording = await Self.recorded()
    let (_, issues) = await Self.replaying(recording) { store, _ in
      await Self.session(store)
      await store.send(.counted(7)).finish()
    }
    #expect(
      issues.messages.first?.hasPrefix(
        """
        The replay went past the recording's last step (4): it processed another action.

            Journal.Action.counted(7)
        """) == true)
  }

  @Test func aReplayAskingForMoreValuesThanRecordedFails() async {
    let recording = await Self.recorded()
    let (_, issues) = await Self.replaying(recording) { store, values in
      await Self.session(store)
      _ = values.uuid()
    }
    #expect(
      issues.messages.first?.hasPrefix(
        "The replay asked for more 'uuid' values than the recording has, after its last step.")
        == true)
  }

  @Test func aReplayFromAnotherInitialStateFails() async {
    let recording = await Self.recorded()
    let values = RecordedValues(recording)
    let store = Self.replayStore(values, initialState: Journal.State(count: 5))
    let issues = IssueCollector()
    await withIssueReporter(issues) {
      await replay(recording, on: store, values: values) { await Self.session(store) }
    }
    #expect(
      issues.messages.first?.hasPrefix(
        """
        The replay starts from another state than the recording.

            Journal.State(
              entries: [],
          −   count: 0
          +   count: 5
            )
        """) == true)
  }

  @Test func aDivergenceNamesTheInputItHappenedIn() async {
    let recorder = Recorder()
    let store = Store(initialState: Journal.State()) {
      Journal()
    } withDependencies: {
      $0.date = recorder.recording(.live)
      $0.uuid = recorder.recording(.live)
    }
    store.record(into: recorder)
    recorder.record(.input("count"))
    await store.send(.countTapped).finish()
    let recording = Recording(entries: recorder.takeEntries())
    let values = RecordedValues(recording)
    let replayed = Self.replayStore(values)
    let issues = IssueCollector()
    await withIssueReporter(issues) {
      await replay(recording, on: replayed, values: values) {
        await replayed.send(.added("milk")).finish()
      }
    }
    #expect(
      issues.messages.first?.hasPrefix(
        "The replay diverged from the recording at step 1, during input 1 ('count'): it "
          + "processed another action.") == true)
  }
}
