import Loop

/// Replays a recording on `store` and checks every step: each action the store processes must
/// be the next recorded one, and the state after it the recorded state.
///
/// The store must be made the way the recorded one was, with the recorded dependency values
/// injected, and not sent anything yet; `reissuingInputs` then does what the recorded session
/// did (sends the same actions, or runs the recorded inputs). The first divergence is reported
/// like a `TestStore` failure, at the line of the call: the step, the action and the diff of the
/// state.
///
/// ```swift
/// let recording = try Recording(text: text)
/// let values = RecordedValues(recording)
/// let store = Store(initialState: Counter.State()) { Counter() } withDependencies: {
///   $0.date = values.date
/// }
/// await replay(recording, on: store, values: values) {
///   await store.send(.incrementSubmitted).finish()
/// }
/// ```
///
/// - Parameters:
///   - recording: The recording.
///   - store: A root store made with the recorded values.
///   - values: The recorded values the store's dependencies hand out, so that asking for more
///     than were recorded counts as a divergence.
///   - fileID: The file of the call.
///   - filePath: The file path of the call.
///   - line: The line of the call.
///   - column: The column of the call.
///   - reissuingInputs: Drives the store as the recorded session did, and returns when its
///     effects have finished.
/// - Returns: Whether the replay matched the recording.
@MainActor
@discardableResult
public func replay<State, Action>(
  _ recording: Recording,
  on store: Store<State, Action>,
  values: RecordedValues? = nil,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column,
  reissuingInputs: () async -> Void
) async -> Bool {
  let replayer = Replayer(recording, store: store, values: values)
  await reissuingInputs()
  guard let divergence = replayer.finish() else { return true }
  IssueReporting.current.reportIssue(
    divergence,
    at: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  return false
}
