import Foundation
import Loop

/// A store for tests that asserts every step of a feature: each action sent, the exact state it
/// produced, each action its effects sent back, and that every effect finished.
///
/// ```swift
/// @MainActor @Test func incrementing() async {
///   let store = TestStore(initialState: Counter.State()) { Counter() }
///   await store.send(.incrementTapped) { $0.count = 1 }
///   await store.send(.factButtonTapped) { $0.isLoading = true }
///   await store.receive(.factResponse("1 is the loneliest number")) {
///     $0.isLoading = false
///     $0.fact = "1 is the loneliest number"
///   }
/// }
/// ```
///
/// A change to shared state (a `@Shared` in the state) is asserted in the same closure:
/// `await store.send(.incrementTapped) { $0.$count.withLock { $0 = 1 } }`.
///
/// Every failure is reported at the line of the `send`, `receive` or `finish` call, with a diff
/// that shows only what differs. Dependencies default to their `testValue`, so a test reaches
/// nothing live it did not choose.
@MainActor
public final class TestStore<State: Equatable, Action> {
  /// How strictly the store checks the test's assertions.
  public var exhaustivity: Exhaustivity = .on

  /// How long `receive` and `finish` wait for effects by default: on an idle main actor; while
  /// it is too busy to run them (a parallel test run), they wait longer.
  public var timeout: Duration = .seconds(1)

  /// The dependencies the reducer and new effects use; change them between steps.
  public var dependencies: DependencyValues {
    didSet {
      // NB: values set whole keep the store's tracker of shared changes.
      dependencies[SharedChangeTrackerKey.self] = sharedChanges
      core.dependencies = DependencyScope(dependencies)
    }
  }

  /// The current state: the state after every action processed so far.
  public var state: State { core.state }

  /// The engine a `Store` runs on, which this store drives and watches.
  private let core: StoreCore<State, Action>
  private var expectedState: State
  /// The state right after the action the current `send` sent, before the actions it queued.
  private var stateAfterSend: State
  /// The shared values right after the action the current `send` sent.
  private var sharedAfterSend = SharedValues()
  /// Notes the shared values the reducers and effects change (see `TestStore+Shared.swift`).
  let sharedChanges: SharedChangeTracker
  private var received: [Received] = []
  /// Where each `send` was called; its index is the origin of everything the action led to.
  private var sendLocations: [IssueLocation] = []
  private var waiters: [CheckedContinuation<Void, Never>] = []
  private let createdAt: IssueLocation

  /// What started an effect: an action, and the test line that led to it.
  struct Origin {
    let action: Action
    let location: IssueLocation
  }

  /// An action an effect sent, with the state right after the reducer processed it.
  struct Received {
    let action: Action
    let state: State
    /// The shared values right after the reducer processed it.
    let shared: SharedValues
  }

  /// Creates a test store.
  ///
  /// - Parameters:
  ///   - initialState: The state to start from.
  ///   - reducer: The feature's reducer.
  ///   - prepareDependencies: Overrides dependencies; everything else uses its `testValue`.
  ///   - fileID: The file of the call, for end-of-test failures.
  ///   - filePath: The file path of the call.
  ///   - line: The line of the call.
  ///   - column: The column of the call.
  public init<R: Reducer>(
    initialState: State,
    @ReducerBuilder<State, Action> reducer: () -> R,
    withDependencies prepareDependencies: (inout DependencyValues) -> Void = { _ in },
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) where R.State == State, R.Action == Action {
    markMainQueue
    var dependencies = DependencyValues(context: .test)
    prepareDependencies(&dependencies)
    let sharedChanges = SharedChangeTracker()
    dependencies[SharedChangeTrackerKey.self] = sharedChanges
    self.sharedChanges = sharedChanges
    self.dependencies = dependencies
    self.core = StoreCore(
      initialState: initialState, reducer: reducer(), dependencies: dependencies)
    self.expectedState = initialState
    self.stateAfterSend = initialState
    self.createdAt = IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    core.didProcess = { [weak self] processed, state in self?.didProcess(processed, state) }
    core.runtime.onFinish = { [weak self] in self?.wake() }
  }

  // NB: not an `isolated deinit`: those run without the task's task-local values, which would
  // hide the test (and any scoped issue reporter) from the end-of-test failures.
  deinit {
    guard isOnMainActor() else { return }
    MainActor.assumeIsolated {
      reportUnfinishedWork(at: createdAt)
      core.runtime.cancelAll()
    }
  }

  // MARK: - Sending

  /// Sends an action and asserts the state it produced.
  ///
  /// The closure receives the state before the action and must change it into the state the
  /// reducer produced. Without a closure, the action must not change the state.
  ///
  /// - Parameters:
  ///   - action: The action.
  ///   - updateStateToExpectedResult: Changes the previous state into the expected state.
  ///   - fileID: The file of the call.
  ///   - filePath: The file path of the call.
  ///   - line: The line of the call.
  ///   - column: The column of the call.
  /// - Returns: The effects the action started; `await task.finish()` waits for them.
  @discardableResult
  public func send(
    _ action: Action,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> TestStoreTask {
    let location = IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    if !received.isEmpty {
      if exhaustivity == .on {
        report(Message.mustHandleReceived(received.map(\.action)), at: location)
      } else {
        reportSkipped(Message.skippedReceived(received.map(\.action)), at: location)
      }
      received.removeAll()
      expectedState = state
      sharedChanges.assert(sharedChanges.snapshot())
    }
    sharedChanges.acceptChangesOutsideTheStore()
    let base = expectedState
    sendLocations.append(location)
    // NB: the core processes the action before anything it queued, so `didProcess` has set
    // `stateAfterSend` by the time `send` returns; the queued actions are recorded as received.
    let effects = core.send(action, origin: sendLocations.count - 1)
    let actual = SharedSnapshot(state: stateAfterSend, shared: sharedAfterSend)
    assertState(
      base: SharedSnapshot(state: base, shared: sharedChanges.asserted(for: actual.shared)),
      actual: actual,
      update: updateStateToExpectedResult, at: location)
    expectedState = actual.state
    sharedChanges.assert(actual.shared)
    return TestStoreTask(effects: effects, store: self)
  }

  /// Records what the core processed: the state after the action sent, or an action received.
  private func didProcess(_ processed: ProcessedAction<Action>, _ state: State) {
    let shared = sharedChanges.snapshot()
    guard processed.isReceived else {
      stateAfterSend = state
      sharedAfterSend = shared
      return
    }
    received.append(Received(action: processed.action, state: state, shared: shared))
    wake()
  }

  /// The running effects whose work is not done, oldest first, with the test lines that led to
  /// them.
  private var inFlight: [Origin] {
    core.runtime.inFlight.map {
      Origin(action: $0.action, location: sendLocations[$0.origin])
    }
  }
}

// MARK: - Receiving

extension TestStore where Action: Equatable {
  /// Asserts that an effect sent `expectedAction` next, and the state it produced.
  ///
  /// Waits up to `timeout` for the action if it has not arrived yet, waking as soon as an effect
  /// sends. Fails at once when nothing is buffered and no effect is running, since then nothing
  /// can arrive.
  ///
  /// - Parameters:
  ///   - expectedAction: The action the effect should have sent.
  ///   - timeout: How long to wait; `nil` uses the store's `timeout`.
  ///   - updateStateToExpectedResult: Changes the previous state into the expected state.
  ///   - fileID: The file of the call.
  ///   - filePath: The file path of the call.
  ///   - line: The line of the call.
  ///   - column: The column of the call.
  public func receive(
    _ expectedAction: Action,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receive(
      expected: Diff.dump(expectedAction),
      matching: { $0 == expectedAction },
      mismatch: { Message.unexpectedAction(expected: expectedAction, received: $0) },
      timeout: timeout, update: updateStateToExpectedResult,
      at: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }
}

extension TestStore {
  /// Asserts that an effect sent an action matching `isMatching` next, and the state it
  /// produced.
  ///
  /// Use it for actions that are not `Equatable`.
  ///
  /// - Parameters:
  ///   - isMatching: Returns `true` for the expected action.
  ///   - timeout: How long to wait; `nil` uses the store's `timeout`.
  ///   - updateStateToExpectedResult: Changes the previous state into the expected state.
  ///   - fileID: The file of the call.
  ///   - filePath: The file path of the call.
  ///   - line: The line of the call.
  ///   - column: The column of the call.
  public func receive(
    _ isMatching: (Action) -> Bool,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receive(
      expected: "an action matching the predicate",
      matching: isMatching,
      mismatch: { Message.actionNotMatching(received: $0, what: "the predicate") },
      timeout: timeout, update: updateStateToExpectedResult,
      at: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Asserts that an effect sent an action of the case `casePath` next, and the state it
  /// produced.
  ///
  /// - Parameters:
  ///   - casePath: The expected action's case, such as `.case(Action.linksLoaded)`.
  ///   - timeout: How long to wait; `nil` uses the store's `timeout`.
  ///   - updateStateToExpectedResult: Changes the previous state into the expected state.
  ///   - fileID: The file of the call.
  ///   - filePath: The file path of the call.
  ///   - line: The line of the call.
  ///   - column: The column of the call.
  public func receive<Value>(
    _ casePath: CasePath<Action, Value>,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receive(
      expected: "an action of the case path's case",
      matching: casePath.matches,
      mismatch: { Message.actionNotMatching(received: $0, what: "the case path") },
      timeout: timeout, update: updateStateToExpectedResult,
      at: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Asserts that an effect sent the case `casePath` with the payload `value` next, and the
  /// state it produced.
  ///
  /// For actions that are not `Equatable` whose payload is:
  ///
  /// ```swift
  /// await store.receive(.case(Action.loaded), .success(42)) { $0.value = 42 }
  /// ```
  ///
  /// - Parameters:
  ///   - casePath: The expected action's case.
  ///   - value: The expected payload.
  ///   - timeout: How long to wait; `nil` uses the store's `timeout`.
  ///   - updateStateToExpectedResult: Changes the previous state into the expected state.
  ///   - fileID: The file of the call.
  ///   - filePath: The file path of the call.
  ///   - line: The line of the call.
  ///   - column: The column of the call.
  public func receive<Value: Equatable>(
    _ casePath: CasePath<Action, Value>,
    _ value: Value,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let expectedAction = casePath.embed(value)
    await receive(
      expected: Diff.dump(expectedAction),
      matching: { casePath.extract($0) == value },
      mismatch: { Message.unexpectedAction(expected: expectedAction, received: $0) },
      timeout: timeout, update: updateStateToExpectedResult,
      at: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  private func receive(
    expected: String,
    matching isMatching: (Action) -> Bool,
    mismatch: (Action) -> String,
    timeout: Duration?,
    update: ((inout State) throws -> Void)?,
    at location: IssueLocation
  ) async {
    let timeout = timeout ?? self.timeout
    // NB: a non-exhaustive store looks past actions that do not match.
    func isReady() -> Bool {
      exhaustivity == .on ? !received.isEmpty : received.contains { isMatching($0.action) }
    }
    await waitUntil(isReady, or: { core.runtime.inFlight.isEmpty }, timeout: timeout)
    guard isReady() else {
      if exhaustivity != .on, !received.isEmpty {
        reportSkipped(Message.skippedReceived(received.map(\.action)), at: location)
      }
      report(
        core.runtime.inFlight.isEmpty
          ? Message.nothingToReceive(expected: expected)
          : Message.receiveTimedOut(expected: expected, timeout: timeout, inFlight: inFlight),
        at: location)
      return
    }
    if exhaustivity != .on {
      let skipped = received.prefix { !isMatching($0.action) }
      if !skipped.isEmpty {
        reportSkipped(Message.skippedReceived(skipped.map(\.action)), at: location)
        expectedState = skipped.last?.state ?? expectedState
        for action in skipped { sharedChanges.assert(action.shared) }
        received.removeFirst(skipped.count)
      }
    }
    let next = received.removeFirst()
    if !isMatching(next.action) {
      report(mismatch(next.action), at: location)
    }
    assertState(
      base: SharedSnapshot(state: expectedState, shared: sharedChanges.asserted(for: next.shared)),
      actual: SharedSnapshot(state: next.state, shared: next.shared), update: update,
      at: location)
    expectedState = next.state
    sharedChanges.assert(next.shared)
  }

  // MARK: - Finishing

  /// Waits for every running effect to finish, then asserts that nothing is left unasserted.
  ///
  /// - Parameters:
  ///   - timeout: How long to wait; `nil` uses the store's `timeout`.
  ///   - fileID: The file of the call.
  ///   - filePath: The file path of the call.
  ///   - line: The line of the call.
  ///   - column: The column of the call.
  public func finish(
    timeout: Duration? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let location = IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    await waitUntil(
      { core.runtime.inFlight.isEmpty }, or: { false }, timeout: timeout ?? self.timeout)
    reportUnfinishedWork(at: location)
  }

  /// Forgets the actions received but not yet asserted.
  ///
  /// - Parameters:
  ///   - fileID: The file of the call.
  ///   - filePath: The file path of the call.
  ///   - line: The line of the call.
  ///   - column: The column of the call.
  public func skipReceivedActions(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    guard !received.isEmpty else { return }
    if case .off(showSkippedAssertions: true) = exhaustivity {
      reportSkipped(
        Message.skippedReceived(received.map(\.action)),
        at: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }
    received.removeAll()
    expectedState = state
    sharedChanges.assert(sharedChanges.snapshot())
  }

  /// Cancels the running effects, so the test can end without waiting for them.
  public func skipInFlightEffects() async {
    let tasks = core.runtime.inFlight.map(\.task)
    core.runtime.abandonAll()
    for task in tasks { await task.value }
  }

  /// Asserts the current state, for changes made outside an action (after skipping received
  /// actions, say).
  ///
  /// Like `send` and `receive`, it checks only the changes it states when ``exhaustivity`` is
  /// `.off`: the closure, applied to the current state, must leave it unchanged.
  ///
  /// ```swift
  /// store.exhaustivity = .off
  /// await store.send(.refreshTapped)
  /// store.assert { $0.isLoading = true }  // the rows it also changed are not checked
  /// ```
  ///
  /// - Parameters:
  ///   - updateStateToExpectedResult: Changes the last asserted state into the expected state.
  ///   - fileID: The file of the call.
  ///   - filePath: The file path of the call.
  ///   - line: The line of the call.
  ///   - column: The column of the call.
  public func assert(
    _ updateStateToExpectedResult: (inout State) throws -> Void,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let location = IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    let base = SharedSnapshot(state: expectedState, shared: sharedChanges.asserted())
    let actual = SharedSnapshot(state: state, shared: sharedChanges.snapshot())
    let expected: SharedSnapshot<State>
    let nonExhaustive: SharedSnapshot<State>
    do {
      expected = try applying(updateStateToExpectedResult, to: base)
      nonExhaustive = try applying(updateStateToExpectedResult, to: actual)
    } catch {
      report(Message.assertionThrew(error), at: location)
      return
    }
    switch exhaustivity {
    case .on:
      if differ(expected, actual) {
        report(
          message(expected, actual, { Message.stateMismatch(expected: $0, actual: $1) }),
          at: location)
      }
    case .off(let showSkippedAssertions):
      checkStatedChanges(
        expected: expected, stated: nonExhaustive, actual: actual,
        showSkippedAssertions: showSkippedAssertions, at: location)
    }
    expectedState = state
    sharedChanges.assert(actual.shared)
  }

  /// Runs `operation` with ``exhaustivity`` set to `exhaustivity`, then sets it back.
  ///
  /// ```swift
  /// await store.withExhaustivity(.off) {
  ///   await store.send(.refreshTapped)
  ///   await store.receive(.case(Action.rowsLoaded))
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - exhaustivity: How strictly to check inside `operation`.
  ///   - operation: The steps to check that way.
  /// - Returns: What `operation` returned.
  /// - Throws: What `operation` threw.
  public func withExhaustivity<R>(
    _ exhaustivity: Exhaustivity, operation: () async throws -> R
  ) async rethrows -> R {
    let previous = self.exhaustivity
    self.exhaustivity = exhaustivity
    defer { self.exhaustivity = previous }
    return try await operation()
  }

  /// Runs synchronous `operation` (say, `assert`) with ``exhaustivity`` set to `exhaustivity`,
  /// then sets it back.
  ///
  /// - Parameters:
  ///   - exhaustivity: How strictly to check inside `operation`.
  ///   - operation: The steps to check that way.
  /// - Returns: What `operation` returned.
  /// - Throws: What `operation` threw.
  public func withExhaustivity<R>(
    _ exhaustivity: Exhaustivity, operation: () throws -> R
  ) rethrows -> R {
    let previous = self.exhaustivity
    self.exhaustivity = exhaustivity
    defer { self.exhaustivity = previous }
    return try operation()
  }

  // MARK: - Checking

  private func assertState(
    base: SharedSnapshot<State>, actual: SharedSnapshot<State>,
    update: ((inout State) throws -> Void)?, at location: IssueLocation
  ) {
    var expected = base
    var nonExhaustive = actual
    do {
      if let update {
        expected = try applying(update, to: base)
        nonExhaustive = try applying(update, to: actual)
      }
    } catch {
      report(Message.assertionThrew(error), at: location)
      return
    }
    switch exhaustivity {
    case .on:
      if update == nil {
        if differ(base, actual) {
          report(
            message(base, actual, { Message.unexpectedChange(base: $0, actual: $1) }), at: location)
        }
      } else if differ(expected, actual) {
        report(
          message(expected, actual, { Message.stateMismatch(expected: $0, actual: $1) }),
          at: location)
      } else if !differ(expected, base) {
        report(Message.noChange, at: location)
      }
    case .off(let showSkippedAssertions):
      checkStatedChanges(
        expected: expected, stated: nonExhaustive, actual: actual,
        showSkippedAssertions: showSkippedAssertions, at: location)
    }
  }

  /// Checks a non-exhaustive assertion: only what the closure states.
  ///
  /// - Parameters:
  ///   - expected: The closure applied to the last asserted state.
  ///   - stated: The closure applied to the actual state: it must not change anything.
  ///   - actual: The actual state.
  ///   - showSkippedAssertions: Whether to show the changes not stated as known issues.
  ///   - location: Where to report.
  private func checkStatedChanges(
    expected: SharedSnapshot<State>, stated: SharedSnapshot<State>,
    actual: SharedSnapshot<State>, showSkippedAssertions: Bool, at location: IssueLocation
  ) {
    if differ(stated, actual) {
      report(
        message(stated, actual, { Message.stateMismatch(expected: $0, actual: $1) }), at: location)
    } else if showSkippedAssertions, differ(expected, actual) {
      reportSkipped(
        message(expected, actual, { Message.skippedChanges(expected: $0, actual: $1) }),
        at: location)
    }
  }

  private func reportUnfinishedWork(at location: IssueLocation) {
    if let changes = unassertedSharedChanges() {
      if exhaustivity == .on {
        report(changes, at: location)
      } else {
        reportSkipped(changes, at: location)
      }
    }
    if !received.isEmpty {
      if exhaustivity == .on {
        report(Message.unhandledReceived(received.map(\.action)), at: location)
      } else {
        reportSkipped(Message.skippedReceived(received.map(\.action)), at: location)
      }
      received.removeAll()
    }
    for effect in inFlight {
      if exhaustivity == .on {
        report(Message.effectStillRunning(effect.action), at: effect.location)
      } else {
        reportSkipped(Message.effectStillRunning(effect.action), at: effect.location)
      }
    }
    core.runtime.abandonAll()
  }

  private func report(_ message: String, at location: IssueLocation) {
    IssueReporting.current.reportIssue(message, at: location)
  }

  private func reportSkipped(_ message: String, at location: IssueLocation) {
    guard case .off(showSkippedAssertions: true) = exhaustivity else { return }
    IssueReporting.current.reportKnownIssue(message, at: location)
  }

  // MARK: - Waiting

  /// Waits until `isDone` holds, `isHopeless` holds, or `timeout` passes (longer while the main
  /// actor is too busy to run the effects: see ``BusyMainActor``); re-checked each time an effect
  /// sends an action or finishes, never by polling.
  private func waitUntil(
    _ isDone: () -> Bool, or isHopeless: () -> Bool, timeout: Duration
  ) async {
    await BusyMainActor.wait(
      timeout: timeout, until: { isDone() || isHopeless() },
      waitingUntil: { deadline in
        let timer = Task { [weak self] in
          try? await Task.sleep(until: deadline, clock: .continuous)
          self?.wake()
        }
        await withCheckedContinuation { waiters.append($0) }
        timer.cancel()
      })
  }

  fileprivate func wake() {
    let waiting = waiters
    waiters.removeAll()
    for waiter in waiting { waiter.resume() }
  }
}

/// How strictly a `TestStore` checks a test's assertions.
public enum Exhaustivity: Equatable, Sendable {
  /// Every state change, received action and running effect must be asserted.
  case on
  /// Only what the test states is checked; with `showSkippedAssertions`, what was skipped is
  /// shown as a known issue (not a failure).
  case off(showSkippedAssertions: Bool)

  /// Only what the test states is checked, silently.
  public static let off = Self.off(showSkippedAssertions: false)
}

/// The effects started by one `TestStore.send`.
@MainActor
public struct TestStoreTask: Sendable {
  private let effects: Task<Void, Never>?
  private let task: Task<Void, Never>?
  private let isFinished: FinishFlag

  init<State, Action>(effects: Task<Void, Never>?, store: TestStore<State, Action>) {
    let flag = FinishFlag()
    self.isFinished = flag
    self.effects = effects
    guard let effects else {
      flag.isSet = true
      self.task = nil
      return
    }
    // NB: started immediately, so effects that finished inside `send` count as finished at once.
    self.task = immediateTask { [weak store] in
      await effects.value
      flag.isSet = true
      store?.wake()
    }
  }

  /// Cancels the effects and waits until they have stopped.
  public func cancel() async {
    effects?.cancel()
    await task?.value
  }

  /// Whether the effects have finished.
  public var isCompleted: Bool { isFinished.isSet }

  /// Waits for the effects to finish; fails the test if they are still running after `timeout`
  /// (longer while the main actor is too busy to run them).
  ///
  /// - Parameters:
  ///   - timeout: How long to wait.
  ///   - fileID: The file of the call.
  ///   - filePath: The file path of the call.
  ///   - line: The line of the call.
  ///   - column: The column of the call.
  public func finish(
    timeout: Duration = .seconds(1),
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    guard let task else { return }
    let flag = isFinished
    await BusyMainActor.wait(
      timeout: timeout, until: { flag.isSet },
      waitingUntil: { deadline in
        let timer = Task {
          try? await Task.sleep(until: deadline, clock: .continuous)
        }
        let watcher = Task {
          await task.value
          timer.cancel()
        }
        await timer.value
        watcher.cancel()
      })
    if !flag.isSet {
      IssueReporting.current.reportIssue(
        Message.taskStillRunning(timeout: timeout),
        at: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }
  }
}

@MainActor
private final class FinishFlag: Sendable {
  var isSet = false
}

private let mainQueueKey = DispatchSpecificKey<Bool>()

/// Marks the main queue, which runs the main actor's jobs, so `deinit` can tell where it runs.
@MainActor private let markMainQueue: Void = DispatchQueue.main.setSpecific(
  key: mainQueueKey, value: true)

/// Whether the caller runs on the main queue, and so on the main actor.
private func isOnMainActor() -> Bool {
  DispatchQueue.getSpecific(key: mainQueueKey) == true
}
