import Foundation
import LoopTesting
import Testing

/// A combination lock with a planted bug, five steps deep.
///
/// The fifth digit of its code, entered in order, breaks it. Any other digit is ignored; a reset
/// starts over.
struct Lock: Reducer {
  struct State: Equatable {
    var progress = 0
    var isBroken = false
  }

  enum Action: Equatable {
    case digitSubmitted(Int)
    case resetSubmitted
  }

  static let code = [3, 1, 4, 1, 2]

  /// Whether the lock works: the exploration's invariant.
  static func isIntact(_ state: State) -> Bool { !state.isBroken }

  /// Whether the planted bug is there; a correct lock opens without breaking.
  var isBuggy = true

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .digitSubmitted(let digit):
      guard state.progress < Self.code.count, digit == Self.code[state.progress] else {
        return .none
      }
      state.progress += 1
      if state.progress == Self.code.count, isBuggy { state.isBroken = true }
      return .none
    case .resetSubmitted:
      state.progress = 0
      return .none
    }
  }

  /// Digits 0 to 4, and now and then a reset.
  static var actions: ActionGenerator<State, Action> {
    ActionGenerator(
      .case(weight: 12) { random, _ in .digitSubmitted(random.int(in: 0...4)) },
      .always(.resetSubmitted)
    )
  }
}

/// A kettle that boils for a minute on the clock: the exploration must move time for it, and
/// cancelling the boil must leave no cup.
struct Kettle: Reducer {
  struct State: Equatable {
    var boils = 0
    var cups = 0
    var isBoiling = false
  }

  enum Action: Equatable {
    case boilSubmitted
    case boilCancelledSubmitted
    case boiled
  }

  enum CancelID { case boil }

  @Dependency(\.continuousClock) var clock

  /// Each boil gives at most one cup.
  static func isConsistent(_ state: State) -> Bool { state.cups <= state.boils && !state.isBoiling }

  /// A cup boiled that was never asked for, planted: the third cup doubles.
  var isBuggy = false

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .boilSubmitted:
      state.boils += 1
      state.isBoiling = true
      return boil
    case .boilCancelledSubmitted:
      // NB: started and cancelled in one action: the boil never ends in a cup.
      return .merge(boil, .cancel(id: CancelID.boil))
    case .boiled:
      state.isBoiling = false
      state.cups += isBuggy && state.cups == 2 ? 2 : 1
      return .none
    }
  }

  private var boil: Effect<Action> {
    .run { [clock] send in
      try await clock.sleep(for: .seconds(60))
      await send(.boiled)
    }
    .cancellable(id: CancelID.boil, cancelInFlight: true)
  }

  static var actions: ActionGenerator<State, Action> {
    ActionGenerator(.always(.boilSubmitted), .always(.boilCancelledSubmitted))
  }
}

/// A metronome that never stops: its effect is still running when a run ends.
struct Metronome: Reducer {
  struct State: Equatable { var ticks = 0 }
  enum Action: Equatable {
    case startSubmitted
    case ticked
  }
  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .startSubmitted:
      return .run { [clock] send in
        while true {
          try await clock.sleep(for: .seconds(1))
          await send(.ticked)
        }
      }
    case .ticked:
      state.ticks += 1
      return .none
    }
  }
}

@MainActor @Suite struct ExploreTests {
  /// Explores the lock with `seed`, capturing what it reports.
  private func exploreLock(
    _ lock: Lock = Lock(), seed: UInt64
  ) async -> (ExplorationResult, [String]) {
    let issues = IssueCollector()
    let result = await withIssueReporter(issues) {
      await TestStore.explore(
        initialState: { Lock.State() }, reducer: { lock }, actions: Lock.actions, seed: seed,
        invariantName: "Lock.isIntact", invariant: Lock.isIntact)
    }
    return (result, issues.messages)
  }

  @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
  func aBugFiveStepsDeepIsFoundAndShrunkToThoseFiveSteps(seed: UInt64) async {
    let (result, messages) = await exploreLock(seed: seed)
    #expect(messages.count == 1)
    #expect(result.runs <= 100)
    #expect(
      result.shrunkActions == [
        ".digitSubmitted(3)", ".digitSubmitted(1)", ".digitSubmitted(4)", ".digitSubmitted(1)",
        ".digitSubmitted(2)",
      ])
  }

  @Test func theFailureIsReportedAsATestToPasteWithTheSeed() async {
    let (result, messages) = await exploreLock(seed: 1)
    #expect(result.failure == messages.first)
    #expect(
      messages == [
        """
        Exploration failed in run 15 after 5 steps (shrunk from 16):

            The invariant does not hold after step 5.

        Replay the exploration with seed: 1

        The shortest sequence found, as a test:

        \(pastedLockTest)
        """
      ])
  }

  /// The test the exploration of the lock printed, as it printed it (below, pasted).
  private let pastedLockTest = """
    @MainActor @Test func exploredFailure() async {
      let clock = TestClock()
      let store = TestStore(initialState: LoopTestingTests.Lock.State(progress: 0, isBroken: false)) {
        LoopTestingTests.Lock()
      } withDependencies: {
        $0.continuousClock = clock
      }
      await store.send(.digitSubmitted(3)) {
        $0.progress = 1
      }
      await store.send(.digitSubmitted(1)) {
        $0.progress = 2
      }
      await store.send(.digitSubmitted(4)) {
        $0.progress = 3
      }
      await store.send(.digitSubmitted(1)) {
        $0.progress = 4
      }
      await store.send(.digitSubmitted(2)) {
        $0.progress = 5
        $0.isBroken = true
      }
      #expect(Lock.isIntact(store.state))
    }
    """

  @Test func thePastedTestFailsTheSameWay() async {
    let issues = IssueCollector()
    await withKnownIssue {
      await withIssueReporter(issues) { await exploredFailure() }
    }
    #expect(issues.messages.isEmpty)
  }

  @Test func thePastedTestIsThePrintedText() throws {
    let source = try String(contentsOfFile: #filePath, encoding: .utf8)
    let pasted = pastedLockTest.replacingOccurrences(of: "@MainActor @Test func", with: "func")
      .split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }
      .joined(separator: "\n")
    #expect(source.contains(pasted))
  }

  // The test the exploration of the lock printed, pasted as printed but for `@MainActor @Test`
  // (it fails, as it should: `thePastedTestFailsTheSameWay` runs it and expects that failure).
  // swift-format-ignore
  func exploredFailure() async {
    let clock = TestClock()
    let store = TestStore(initialState: LoopTestingTests.Lock.State(progress: 0, isBroken: false)) {
      LoopTestingTests.Lock()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.digitSubmitted(3)) {
      $0.progress = 1
    }
    await store.send(.digitSubmitted(1)) {
      $0.progress = 2
    }
    await store.send(.digitSubmitted(4)) {
      $0.progress = 3
    }
    await store.send(.digitSubmitted(1)) {
      $0.progress = 4
    }
    await store.send(.digitSubmitted(2)) {
      $0.progress = 5
      $0.isBroken = true
    }
    #expect(Lock.isIntact(store.state))
  }

  @Test func aCorrectReducerPassesEveryRun() async {
    let (result, messages) = await exploreLock(Lock(isBuggy: false), seed: 1)
    #expect(messages.isEmpty)
    #expect(
      result == ExplorationResult(seed: 1, runs: 100, steps: 2_000, failure: nil, shrunkActions: [])
    )
  }

  @Test func theSameSeedGivesTheSameRuns() async {
    let (first, _) = await exploreLock(seed: 42)
    let (second, _) = await exploreLock(seed: 42)
    #expect(first == second)
    let (other, _) = await exploreLock(seed: 43)
    #expect(other.runs != first.runs || other.failure != first.failure)
  }

  @Test func effectsRunOnTheTestClockAndCancellationHoldsAsInATestStore() async {
    let issues = IssueCollector()
    let result = await withIssueReporter(issues) {
      await TestStore.explore(
        initialState: { Kettle.State() }, reducer: { Kettle() }, actions: Kettle.actions,
        runs: 20, steps: 10, seed: 3, invariant: Kettle.isConsistent)
    }
    #expect(issues.messages.isEmpty)
    #expect(result.failure == nil)
  }

  @Test func aFailureInAnEffectPrintsItsReceivesAndTheClock() async {
    let issues = IssueCollector()
    await withIssueReporter(issues) {
      await TestStore.explore(
        initialState: { Kettle.State() }, reducer: { Kettle(isBuggy: true) },
        actions: Kettle.actions, runs: 20, steps: 10, seed: 3,
        invariantName: "Kettle.isConsistent", invariant: Kettle.isConsistent)
    }
    #expect(
      issues.messages == [
        """
        Exploration failed in run 1 after 3 steps (shrunk from 6):

            The invariant does not hold after step 3.

        Replay the exploration with seed: 3

        The shortest sequence found, as a test:

        @MainActor @Test func exploredFailure() async {
          let clock = TestClock()
          let store = TestStore(initialState: LoopTestingTests.Kettle.State(boils: 0, cups: 0, isBoiling: false)) {
            LoopTestingTests.Kettle()
          } withDependencies: {
            $0.continuousClock = clock
          }
          await store.send(.boilSubmitted) {
            $0.boils = 1
            $0.isBoiling = true
          }
          await clock.advance(by: .seconds(60))
          await store.receive(.boiled) {
            $0.cups = 1
            $0.isBoiling = false
          }
          await store.send(.boilSubmitted) {
            $0.boils = 2
            $0.isBoiling = true
          }
          await clock.advance(by: .seconds(60))
          await store.receive(.boiled) {
            $0.cups = 2
            $0.isBoiling = false
          }
          await store.send(.boilSubmitted) {
            $0.boils = 3
            $0.isBoiling = true
          }
          await clock.advance(by: .seconds(60))
          await store.receive(.boiled) {
            $0.cups = 4
            $0.isBoiling = false
          }
          #expect(Kettle.isConsistent(store.state))
        }
        """
      ])
  }

  @Test func anEffectStillRunningAtTheEndFailsTheRun() async {
    let issues = IssueCollector()
    await withIssueReporter(issues) {
      await TestStore.explore(
        initialState: { Metronome.State() }, reducer: { Metronome() },
        actions: ActionGenerator<Metronome.State, Metronome.Action>(.always(.startSubmitted)),
        runs: 1, steps: 1, seed: 1)
    }
    #expect(issues.messages.count == 1)
    #expect(
      issues.messages.first?.hasPrefix(
        """
        Exploration failed in run 1 after 1 steps (shrunk from 1):

            An effect returned for this action is still running. It must complete before the \
        end of the test.

                Metronome.Action.startSubmitted

            To fix, make the effect finish (advance a 'TestClock', finish a stream), cancel it \
        with an action that returns '.cancel(id:)', or call 'skipInFlightEffects()'.

        Replay the exploration with seed: 1

        The shortest sequence found, as a test:

        @MainActor @Test func exploredFailure() async {
        """) == true)
  }

  @Test func aDependencyWithoutATestValueFailsTheStep() async {
    let issues = IssueCollector()
    await withIssueReporter(issues) {
      await TestStore.explore(
        initialState: { Stamp.State() }, reducer: { Stamp() },
        actions: ActionGenerator<Stamp.State, Stamp.Action>(.always(.stampSubmitted)),
        runs: 1, steps: 3, seed: 1)
    }
    let expected = IssueCollector()
    withIssueReporter(expected) {
      @Dependency(\.uuid) var uuid
      withDependencies {
        $0 = DependencyValues(context: .test)
      } operation: {
        _ = uuid()
      }
    }
    let unimplemented = expected.messages.first ?? ""
    #expect(unimplemented.hasPrefix("Unimplemented: '@Dependency(\\.uuid)' was called."))
    let indented = unimplemented.split(separator: "\n", omittingEmptySubsequences: false)
      .map { $0.isEmpty ? "" : "    " + $0 }.joined(separator: "\n")
    #expect(issues.messages.count == 1)
    #expect(
      issues.messages.first?.hasPrefix(
        "Exploration failed in run 1 after 1 steps (shrunk from 1):\n\n\(indented)\n\n")
        == true)
  }
}

/// Stamps rows with the `uuid` dependency, which a test must set.
struct Stamp: Reducer {
  struct State: Equatable { var ids: [UUID] = [] }
  enum Action: Equatable { case stampSubmitted }
  @Dependency(\.uuid) var uuid

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.ids.append(uuid())
    return .none
  }
}
