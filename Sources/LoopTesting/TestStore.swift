import Foundation
import Loop
import Testing

/// A store for tests that asserts every step of a feature: each action sent, the exact state it
/// produced, each action its effects sent back, and that every effect finished.
///
/// ```swift
/// @MainActor @Test func incrementing() async {
///   let store = TestStore(initialState: Counter.State()) { Counter() }
///   await store.send(.incrementSubmitted) { $0.count = 1 }
///   await store.send(.factSubmitted) { $0.isLoading = true }
///   await store.receive(.factResponse("1 is the loneliest number")) {
///     $0.isLoading = false
///     $0.fact = "1 is the loneliest number"
///   }
/// }
/// ```
///
/// A change to shared state (a `@Shared` in the state) is asserted in the same closure:
/// `await store.send(.incrementSubmitted) { $0.$count.withLock { $0 = 1 } }`.
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

  /// The state as the test has asserted it so far.
  ///
  /// After a `send`, it is the state right after the action (before the actions its effects
  /// sent, until they are received); after a `receive`, the state that action produced. Read
  /// inside an assertion closure, it is the state the closure receives, before the step.
  public var state: State { stateInClosure ?? expectedState }

  /// Whether the feature dismissed itself with the `dismiss` dependency (with no parent to close
  /// it, as a root feature); a dismissed store takes no more actions.
  public private(set) var isDismissed = false

  /// The engine a `Store` runs on, which this store drives and watches.
  private let core: StoreCore<State, Action>
  private var expectedState: State
  /// The state an assertion closure starts from, while it runs.
  private var stateInClosure: State?
  /// The state right after the action the current `send` sent, before the actions it queued.
  private var stateAfterSend: State
  /// The shared values right after the action the current `send` sent.
  private var sharedAfterSend = SharedValues()
  /// Notes the shared values the reducers and effects change (see `TestStore+Shared.swift`).
  let sharedChanges: SharedChangeTracker
  /// The state after the last action the core processed, sent or received.
  private var lastProcessedState: State
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

  /// An action an effect sent, with the state right before and right after the reducer
  /// processed it.
  struct Received {
    let action: Action
    let stateBefore: State
    let state: State
    /// The shared values right after the reducer processed it.
    let shared: SharedValues
    /// Whether a `send` came after it while it was not received: then it is asserted against its
    /// own state before, and asserting it does not move the asserted state back.
    var isOvertaken = false
    /// Where the reducer's stack element ids started (see ``stackGeneration``).
    let stackGeneration: Int
  }

  /// The number of the next stack element id the store gives out, as of the last action
  /// processed.
  private var stackGeneration = 0
  /// Where the stack element ids drawn for the action the current `send` sent started: an
  /// assertion closure draws ids from there, so `$0.path.append(…)` in it draws the id the
  /// reducer drew.
  private var stackGenerationOfSend = 0

  /// Creates a test store.
  ///
  /// The initial state and the reducer are built with the store's dependencies, so a state whose
  /// initializer reads `@Dependency(\.uuid)` sees the test's override; so do the assertion
  /// closures of `send` and `receive`.
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
    initialState: @autoclosure () -> State,
    @ReducerBuilder<State, Action> reducer: () -> R,
    withDependencies prepareDependencies: (inout DependencyValues) -> Void = { _ in },
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) where R.State == State, R.Action == Action {
    markMainQueue
    var dependencies = DependencyValues(context: .test)
    prepareDependencies(&dependencies)
    dependencies.stackElementIDs = StackElementIDGenerator()
    let sharedChanges = SharedChangeTracker()
    dependencies[SharedChangeTrackerKey.self] = sharedChanges
    self.sharedChanges = sharedChanges
    // NB: a root feature that dismisses itself has no parent to close it: the store marks it
    // dismissed, after the test's own `dismiss`, if it gave one.
    let dismissal = RootDismissal()
    let testDismiss = dependencies.dismiss
    dependencies.dismiss = DismissEffect {
      testDismiss.callOverride()
      dismissal.dismiss?()
    }
    let (initialState, core) = DependencyValues.with(dependencies) {
      let initialState = initialState()
      return (
        initialState,
        StoreCore(initialState: initialState, reducer: reducer(), dependencies: dependencies)
      )
    }
    self.dependencies = dependencies
    self.core = core
    self.stackGeneration = dependencies.stackElementIDs?.nextGeneration ?? 0
    self.expectedState = initialState
    self.stateAfterSend = initialState
    self.lastProcessedState = initialState
    self.createdAt = IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    core.didProcess = { [weak self] processed, state in self?.didProcess(processed, state) }
    core.runtime.onFinish = { [weak self] in self?.wake() }
    dismissal.dismiss = { [weak self] in self?.dismissFeature() }
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
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) async -> TestStoreTask {
    let location = IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    guard !isDismissed else {
      report(Message.sentToDismissedStore(action), at: location)
      return TestStoreTask(effects: nil, store: self)
    }
    if !received.isEmpty {
      if exhaustivity == .on {
        // NB: kept, as in TCA, so the test can still receive them; this action is checked
        // against the state they left.
        report(Message.mustHandleReceived(received.map(\.action)), at: location)
        for index in received.indices { received[index].isOvertaken = true }
      } else {
        reportSkipped(Message.skippedReceived(received.map(\.action)), at: location)
      }
      if let last = received.last { sharedChanges.assert(last.shared) }
      if exhaustivity != .on { received.removeAll() }
      expectedState = core.state
    }
    sharedChanges.acceptChangesOutsideTheStore()
    let base = expectedState
    sendLocations.append(location)
    stackGeneration = nextStackGeneration
    // NB: the core processes the action before anything it queued, so `didProcess` has set
    // `stateAfterSend` by the time `send` returns; the queued actions are recorded as received.
    let effects = core.send(action, origin: sendLocations.count - 1)
    let actual = SharedSnapshot(state: stateAfterSend, shared: sharedAfterSend)
    assertState(
      base: SharedSnapshot(state: base, shared: sharedChanges.asserted(for: actual.shared)),
      actual: actual, update: updateStateToExpectedResult, stackGeneration: stackGenerationOfSend,
      at: location)
    expectedState = actual.state
    sharedChanges.assert(actual.shared)
    return TestStoreTask(effects: effects, store: self)
  }

  /// Sends the action `casePath` embeds `value` in, as `send(_:assert:)` does: for nested
  /// actions, without spelling each level.
  ///
  /// ```swift
  /// await store.send(.case(Action.form).appending(path: .case(Form.Action.nameChanged)), "Milk") {
  ///   $0.form.name = "Milk"
  /// }
  /// ```
  @discardableResult
  public func send<Value>(
    _ casePath: CasePath<Action, Value>, _ value: Value,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) async -> TestStoreTask {
    await send(
      casePath.embed(value), assert: updateStateToExpectedResult, fileID: fileID,
      filePath: filePath, line: line, column: column)
  }

  /// Records what the core processed: the state after the action sent, or an action received.
  private func didProcess(_ processed: ProcessedAction<Action>, _ state: State) {
    let before = lastProcessedState
    lastProcessedState = state
    let shared = sharedChanges.snapshot()
    // NB: a stack built outside the store registers its ids when the reducer first sees it,
    // before it draws any; the reducer's draws start past them.
    let generation = max(stackGeneration, dependencies.stackElementIDs?.registered ?? 0)
    stackGeneration = nextStackGeneration
    guard processed.isReceived else {
      stateAfterSend = state
      sharedAfterSend = shared
      stackGenerationOfSend = generation
      return
    }
    received.append(
      Received(
        action: processed.action, stateBefore: before, state: state, shared: shared,
        stackGeneration: generation))
    wake()
  }

  /// The number of the next stack element id the store's reducers would draw now.
  private var nextStackGeneration: Int { dependencies.stackElementIDs?.nextGeneration ?? 0 }

  /// Marks the feature dismissed, as `dismiss` does in a root feature.
  ///
  /// Its effects are cancelled, and later sends fail.
  private func dismissFeature() {
    isDismissed = true
    core.runtime.cancelAll()
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
    _ expectedAction: Action, timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) async {
    await receive(
      .action(expectedAction), matching: { $0 == expectedAction }, timeout: timeout,
      update: updateStateToExpectedResult,
      at: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }
}

// NB: the overloads below forward to one implementation; their `timeout`, `assert` and call site
// parameters are those of `receive(_:timeout:assert:)` above.
extension TestStore {
  /// Asserts that an effect sent an action `isMatching` accepts next, and the state it produced:
  /// `receive` for actions that are not `Equatable`.
  public func receive(
    _ isMatching: (Action) -> Bool, timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) async {
    await receive(
      .accepted(by: "the predicate", as: "an action matching the predicate"),
      matching: isMatching, timeout: timeout, update: updateStateToExpectedResult,
      at: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Asserts that an effect sent an action of the case `casePath` (such as
  /// `.case(Action.linksResponse)`) next, and the state it produced.
  public func receive<Value>(
    _ casePath: CasePath<Action, Value>, timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) async {
    await receive(
      .accepted(by: "the case path", as: "an action of the case path's case"),
      matching: casePath.matches, timeout: timeout, update: updateStateToExpectedResult,
      at: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Asserts that an effect sent the case `casePath` with the payload `value` next, and the
  /// state it produced: for actions that are not `Equatable` whose payload is.
  ///
  /// ```swift
  /// await store.receive(.case(Action.loaded), .success(42)) { $0.value = 42 }
  /// ```
  public func receive<Value: Equatable>(
    _ casePath: CasePath<Action, Value>, _ value: Value, timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) async {
    await receive(
      .action(casePath.embed(value)), matching: { casePath.extract($0) == value },
      timeout: timeout, update: updateStateToExpectedResult,
      at: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  private func receive(
    _ expected: ExpectedAction<Action>, matching isMatching: (Action) -> Bool,
    timeout: Duration?, update: ((inout State) throws -> Void)?, at location: IssueLocation
  ) async {
    await receiveNext(
      expected, matching: isMatching, timeout: timeout, update: update, at: location)
    await letReadyEffectsRun()
  }

  /// Lets the running effects whose next step is already due on the main actor take it, as
  /// TCA's `receive` does (it yields): an effect whose stream ended right after the action it
  /// sent finishes before the test goes on, and is not reported still running at its end.
  ///
  /// NB: bounded, and only while effects are in flight: an effect that keeps working (a timer
  /// waiting on a `TestClock`) is not waited for, and a test with none running pays nothing.
  private func letReadyEffectsRun() async {
    for _ in 0..<8 where !core.runtime.inFlight.isEmpty {
      await Task.yield()
    }
  }

  private func receiveNext(
    _ expected: ExpectedAction<Action>, matching isMatching: (Action) -> Bool,
    timeout: Duration?, update: ((inout State) throws -> Void)?, at location: IssueLocation
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
          ? Message.nothingToReceive(expected: expected.description)
          : Message.receiveTimedOut(
            expected: expected.description, timeout: timeout, inFlight: inFlight),
        at: location)
      return
    }
    if exhaustivity != .on {
      let skipped = received.prefix { !isMatching($0.action) }
      if !skipped.isEmpty {
        reportSkipped(Message.skippedReceived(skipped.map(\.action)), at: location)
        if let last = skipped.last, !last.isOvertaken {
          expectedState = last.state
          sharedChanges.assert(last.shared)
        }
        received.removeFirst(skipped.count)
      }
    }
    let next = received.removeFirst()
    // NB: an action a later `send` overtook changed the state before that send: it is checked
    // against its own state before, and the asserted state stays where the send left it.
    defer {
      if !next.isOvertaken {
        expectedState = next.state
        sharedChanges.assert(next.shared)
      }
    }
    // NB: the wrong action's change is not the test's to describe: the mismatch alone is reported.
    guard isMatching(next.action) else {
      report(expected.mismatch(next.action), at: location)
      return
    }
    assertState(
      base: SharedSnapshot(
        state: next.isOvertaken ? next.stateBefore : expectedState,
        shared: sharedChanges.asserted(for: next.shared)),
      actual: SharedSnapshot(state: next.state, shared: next.shared), update: update,
      stackGeneration: next.stackGeneration, at: location)
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
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) async {
    let location = IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    await waitUntil(
      { core.runtime.inFlight.isEmpty }, or: { false }, timeout: timeout ?? self.timeout)
    reportUnfinishedWork(at: location, isEnd: false)
  }

  /// Forgets the actions received but not yet asserted.
  ///
  /// - Parameters:
  ///   - strict: Whether having no action to skip is a failure (it usually means the test no
  ///     longer says what the feature does).
  ///   - fileID: The file of the call.
  ///   - filePath: The file path of the call.
  ///   - line: The line of the call.
  ///   - column: The column of the call.
  public func skipReceivedActions(
    strict: Bool = true,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) {
    let location = IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    guard !received.isEmpty else {
      if strict { report(Message.nothingToSkip("received actions"), at: location) }
      return
    }
    if case .off(showSkippedAssertions: true) = exhaustivity {
      reportSkipped(Message.skippedReceived(received.map(\.action)), at: location)
    }
    received.removeAll()
    expectedState = core.state
    sharedChanges.assert(sharedChanges.snapshot())
  }

  /// Stops waiting for the effects still running, so the test can end before they do.
  ///
  /// They are not cancelled: they go on, and an action one sends later is received as usual
  /// (advance the clock it waits on, then `receive` it).
  ///
  /// - Parameters:
  ///   - strict: Whether having no effect to skip is a failure.
  ///   - fileID: The file of the call.
  ///   - filePath: The file path of the call.
  ///   - line: The line of the call.
  ///   - column: The column of the call.
  public func skipInFlightEffects(
    strict: Bool = true,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) async {
    guard !core.runtime.inFlight.isEmpty else {
      if strict {
        report(
          Message.nothingToSkip("in-flight effects"),
          at: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column))
      }
      return
    }
    core.runtime.stopTrackingAll()
  }

  /// Asserts the current state, for changes made outside an action (after skipping received
  /// actions, say).
  ///
  /// Like `send` and `receive`, it checks only the changes it states when ``exhaustivity`` is
  /// `.off`: the closure, applied to the current state, must leave it unchanged.
  ///
  /// ```swift
  /// store.exhaustivity = .off
  /// await store.send(.refreshSubmitted)
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
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) {
    let location = IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    let base = SharedSnapshot(state: expectedState, shared: sharedChanges.asserted())
    let actual = SharedSnapshot(state: core.state, shared: sharedChanges.snapshot())
    let checked = withoutActuallyEscaping(updateStateToExpectedResult) { update in
      check(
        base: base, actual: actual, update: update, isStep: false,
        stackGeneration: nextStackGeneration, at: location)
    }
    guard checked else { return }
    expectedState = actual.state
    sharedChanges.assert(actual.shared)
  }

  /// Runs `operation` with ``exhaustivity`` set to `exhaustivity`, then sets it back.
  ///
  /// ```swift
  /// await store.withExhaustivity(.off) {
  ///   await store.send(.refreshSubmitted)
  ///   await store.receive(.case(Action.rowsResponse))
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
    update: ((inout State) throws -> Void)?, stackGeneration: Int, at location: IssueLocation
  ) {
    check(
      base: base, actual: actual, update: update, isStep: true, stackGeneration: stackGeneration,
      at: location)
  }

  /// Checks an assertion closure, running it once as TCA does: exhaustively, on the last
  /// asserted state, whose result must be the actual state; under `.off`, on the actual state,
  /// which it must leave unchanged (and, to show what it skipped, once more on the last
  /// asserted state, where what it records is a known issue).
  ///
  /// - Parameters:
  ///   - base: The last asserted state, with the shared values last asserted.
  ///   - actual: The state the step produced, with the shared values right after it.
  ///   - update: The assertion closure.
  ///   - isStep: Whether this checks a `send` or `receive`, which must describe a change exactly
  ///     when one occurred.
  ///   - stackGeneration: Where the step's reducer drew its stack element ids from: the closure
  ///     draws from there too, so `$0.path.append(…)` draws the id the reducer drew.
  ///   - location: Where to report.
  /// - Returns: `false` when the closure threw.
  @discardableResult
  private func check(
    base: SharedSnapshot<State>, actual: SharedSnapshot<State>,
    update: ((inout State) throws -> Void)?, isStep: Bool, stackGeneration: Int,
    at location: IssueLocation
  ) -> Bool {
    let dependencies = dependencies(drawingStackIDsFrom: stackGeneration)
    switch exhaustivity {
    case .on:
      var expected = base
      guard apply(update, to: &expected, with: dependencies, at: location) else { return false }
      if update == nil {
        if isStep, differ(base, actual) {
          report(
            message(base, actual) { Message.unexpectedChange(base: $0, actual: $1) },
            at: location)
        }
      } else if differ(expected, actual) {
        report(
          message(expected, actual) { Message.stateMismatch(expected: $0, actual: $1) },
          at: location)
      } else if isStep, !differ(expected, base) {
        report(Message.noChange, at: location)
      }
    case .off(let showSkippedAssertions):
      var stated = actual
      guard apply(update, to: &stated, with: dependencies, at: location) else { return false }
      if differ(stated, actual) {
        report(
          message(stated, actual) { Message.stateMismatch(expected: $0, actual: $1) },
          at: location)
      } else if showSkippedAssertions {
        var expected = base
        applyShowingSkipped(update, to: &expected, with: dependencies)
        if differ(expected, actual) {
          reportSkipped(
            message(expected, actual) { Message.skippedChanges(expected: $0, actual: $1) },
            at: location)
        }
      }
    }
    return true
  }

  /// The store's dependencies, with stack element ids drawn from `generation` on.
  private func dependencies(drawingStackIDsFrom generation: Int) -> DependencyValues {
    guard dependencies.stackElementIDs != nil else { return dependencies }
    var values = dependencies
    values.stackElementIDs = StackElementIDGenerator(startingAt: generation)
    return values
  }

  /// Runs an assertion closure on `state`, with `dependencies` (the store's), and with ``state``
  /// reading as the closure's state before it runs.
  ///
  /// - Returns: `false` when the closure threw (reported).
  private func apply(
    _ update: ((inout State) throws -> Void)?, to snapshot: inout SharedSnapshot<State>,
    with dependencies: DependencyValues, at location: IssueLocation
  ) -> Bool {
    guard let update else { return true }
    stateInClosure = snapshot.state
    defer { stateInClosure = nil }
    do {
      try DependencyValues.with(dependencies) { try withSharedValues(of: &snapshot, update) }
      return true
    } catch {
      report(Message.assertionThrew(error), at: location)
      return false
    }
  }

  /// Runs an assertion closure a second time, only to show what it skipped: what it records
  /// (an `#expect` inside it) is a known issue, not a second failure.
  private func applyShowingSkipped(
    _ update: ((inout State) throws -> Void)?, to state: inout SharedSnapshot<State>,
    with dependencies: DependencyValues
  ) {
    guard let update else { return }
    var result = state
    let run = {
      self.stateInClosure = result.state
      defer { self.stateInClosure = nil }
      try DependencyValues.with(dependencies) {
        try self.withSharedValues(of: &result, update)
      }
    }
    if Test.current != nil {
      withKnownIssue(isIntermittent: true) { try run() }
    } else {
      try? run()
    }
    state = result
  }

  /// Reports the actions received but not asserted and the effects still running.
  ///
  /// - Parameters:
  ///   - location: Where to report the actions.
  ///   - isEnd: Whether the test store is going away; otherwise (`finish`), a non-exhaustive
  ///     store keeps the actions, which the test may still receive or skip, as in TCA.
  private func reportUnfinishedWork(at location: IssueLocation, isEnd: Bool = true) {
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
      if isEnd || exhaustivity == .on { received.removeAll() }
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
  private let effects: SentEffects?
  private let task: Task<Void, Never>?
  private let isFinished: FinishFlag

  init<State, Action>(effects: SentEffects?, store: TestStore<State, Action>) {
    let flag = FinishFlag()
    self.isFinished = flag
    self.effects = effects
    guard let effects = effects?.task else {
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
  ///
  /// As ``/Loop/StoreTask/cancel()``, it also cancels the effects started for the actions they
  /// sent, transitively, in the sending effect's feature or its children (never a parent's),
  /// and does not wait for those to stop.
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
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
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

/// What `dismiss` does in a root feature: set once the test store exists.
@MainActor
private final class RootDismissal: Sendable {
  var dismiss: (() -> Void)?
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

/// What a `receive` waits for, as its failure messages name it.
private enum ExpectedAction<Action> {
  /// An action equal to this one.
  case action(Action)
  /// An action that `matcher` ("the predicate") accepts, named `description` in failures.
  case accepted(by: String, as: String)

  /// The expected action as a failure names it.
  var description: String {
    switch self {
    case .action(let action): Diff.dump(action)
    case .accepted(_, let description): description
    }
  }

  /// The failure when `received` came instead.
  func mismatch(_ received: Action) -> String {
    switch self {
    case .action(let expected): Message.unexpectedAction(expected: expected, received: received)
    case .accepted(let matcher, _): Message.actionNotMatching(received: received, what: matcher)
    }
  }
}
