import Foundation
import Loop

extension TestStore {
  /// Explores a reducer: sends it generated sequences of actions and checks, after every step,
  /// that `invariant` holds and that Loop's runtime reported no issue; the first failure is
  /// shrunk to the shortest sequence that still fails and reported once, as a ready-to-paste
  /// `TestStore` test of that sequence.
  ///
  /// ```swift
  /// await TestStore.explore(
  ///   initialState: Counter.State(),
  ///   reducer: { Counter() },
  ///   actions: ActionGenerator(.always(.incrementSubmitted), .always(.resetSubmitted)),
  ///   invariant: { $0.count >= 0 }
  /// )
  /// ```
  ///
  /// Each run starts from a fresh initial state, reducer and dependencies, and sends `steps`
  /// actions, each made by `actions` from the state it is sent in. After each action the
  /// exploration lets its effects finish, on the same engine as a `Store` (so effects,
  /// cancellation and the order of actions are those of a `TestStore`): the work that does not
  /// wait on time runs, and a ``TestClock``, installed as `continuousClock` (in place of any
  /// the dependencies set), is advanced to the next deadline as long as an effect sleeps on it
  /// (never real time). A step fails when
  /// `invariant` is `false` after it, or when the runtime reported an issue during it (an action
  /// for a missing element, a child action in another case, a dependency with no test value, an
  /// effect's unhandled error); a run fails when an effect is still running at its end.
  ///
  /// The exploration is not exhaustive: it checks the invariant, not each change. Its failure
  /// message holds an exhaustive test of the shrunk sequence (sends and receives with the changes
  /// they made) and the seed that replays the whole exploration.
  ///
  /// - Parameters:
  ///   - initialState: Makes the state each run starts from.
  ///   - reducer: Makes the feature's reducer, once per run.
  ///   - actions: Makes each step's action from the state it is sent in.
  ///   - runs: How many runs; the `LOOP_EXPLORE_RUNS` environment variable overrides it.
  ///   - steps: How many actions each run sends.
  ///   - seed: The seed of the exploration; `nil` draws a fresh one (the `LOOP_EXPLORE_SEED`
  ///     environment variable overrides both), printed with any failure.
  ///   - invariantName: How the printed test names the invariant, in the `#expect` it ends with
  ///     when the invariant failed: a function of the state, such as `Ledger.State.isBalanced`.
  ///   - invariant: What must hold after every step.
  ///   - prepareDependencies: Overrides dependencies for each run, as a `TestStore` takes them;
  ///     it runs once per run, so a client kept in memory starts empty each time.
  ///   - fileID: The file of the call, where the failure is reported.
  ///   - filePath: The file path of the call.
  ///   - line: The line of the call.
  ///   - column: The column of the call.
  /// - Returns: What the exploration did and found.
  @discardableResult
  public static func explore<R: Reducer>(
    initialState: @escaping () -> State,
    @ReducerBuilder<State, Action> reducer: @escaping () -> R,
    actions: ActionGenerator<State, Action>,
    runs: Int = 100, steps: Int = 20, seed: UInt64? = nil,
    invariantName: String = "invariant",
    invariant: @escaping (State) -> Bool = { _ in true },
    withDependencies prepareDependencies: @escaping (inout DependencyValues) -> Void = { _ in },
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) async -> ExplorationResult where R.State == State, R.Action == Action {
    let environment = ProcessInfo.processInfo.environment
    let runs = environment["LOOP_EXPLORE_RUNS"].flatMap { Int($0) } ?? runs
    var system = SystemRandomNumberGenerator()
    let seed = environment["LOOP_EXPLORE_SEED"].flatMap { UInt64($0) } ?? seed ?? system.next()
    let explorer = Explorer(
      makeState: initialState, makeReducer: { reducer() }, generator: actions,
      invariant: invariant, prepareDependencies: prepareDependencies)
    var seeds = SeededRandom(seed: seed)
    var stepsRun = 0
    for runIndex in 0..<max(runs, 0) {
      let runSeed = seeds.next()
      let run = await explorer.run(plan: nil, steps: steps, seed: runSeed)
      stepsRun += run.steps.count
      guard let failure = run.failure else { continue }
      let shrunk = await explorer.shrink(run, seed: runSeed)
      let message = Explorer<State, Action>.report(
        shrunk, original: run, failure: shrunk.failure ?? failure, seed: seed, run: runIndex,
        reducer: String(reflecting: R.self), initialState: initialState(),
        invariantName: invariantName)
      IssueReporting.current.reportIssue(
        message,
        at: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column))
      return ExplorationResult(
        seed: seed, runs: runIndex + 1, steps: stepsRun, failure: message,
        shrunkActions: shrunk.steps.map { SwiftLiteral.render($0.action) })
    }
    return ExplorationResult(
      seed: seed, runs: max(runs, 0), steps: stepsRun, failure: nil, shrunkActions: [])
  }
}

/// What an exploration did: its seed, how much it ran, and the failure it reported, if any.
public struct ExplorationResult: Sendable, Equatable, CustomStringConvertible {
  /// The seed that replays the exploration.
  public var seed: UInt64
  /// The runs made, up to and including the one that failed.
  public var runs: Int
  /// The actions sent in all runs, not counting those sent while shrinking.
  public var steps: Int
  /// The failure reported (the same text as the test issue), or `nil` when every run passed.
  public var failure: String?
  /// The actions of the shrunk failing sequence, as the printed test writes them.
  public var shrunkActions: [String]

  /// Creates a result.
  public init(seed: UInt64, runs: Int, steps: Int, failure: String?, shrunkActions: [String]) {
    self.seed = seed
    self.runs = runs
    self.steps = steps
    self.failure = failure
    self.shrunkActions = shrunkActions
  }

  /// A line to print: the runs and steps made, and the seed.
  public var description: String {
    "explored \(runs) runs, \(steps) steps, seed: \(seed)"
      + (failure == nil ? "" : ", failed after \(shrunkActions.count) steps")
  }
}

/// Runs and shrinks the sequences of one exploration.
@MainActor
struct Explorer<State: Equatable, Action> {
  let makeState: () -> State
  let makeReducer: () -> any Reducer<State, Action>
  let generator: ActionGenerator<State, Action>
  let invariant: (State) -> Bool
  let prepareDependencies: (inout DependencyValues) -> Void

  /// An action sent and what it led to.
  struct Step {
    var action: Action
    /// The numbers the generator drew to make the action.
    var choices: [UInt64]
    var stateBefore: State
    var stateAfter: State
    /// The actions the effects sent back, each with the state after it.
    var received: [(action: Action, state: State)]
    /// How far time had to move for the effects to finish.
    var advancedClock: Duration
  }

  /// Why a run failed.
  struct Failure {
    /// Which failure it is, for shrinking to keep the same one: the invariant, or the issue's
    /// first line.
    var kind: String
    var message: String
    /// Whether it is the invariant (the printed test ends with an `#expect` of it).
    var isInvariant: Bool
  }

  struct Run {
    var steps: [Step]
    var failure: Failure?
  }

  /// Collects the actions the core processed during a step.
  @MainActor final class Log {
    var processed: [(action: Action, isReceived: Bool, state: State)] = []
  }

  /// Runs one sequence from a fresh start: `plan`'s steps (each the numbers its generator drew),
  /// or `steps` fresh ones, stopping at the first failure.
  func run(plan: [[UInt64]]?, steps: Int, seed: UInt64) async -> Run {
    let issues = IssueCollector()
    let clock = TestClock()
    var dependencies = DependencyValues(context: .test)
    prepareDependencies(&dependencies)
    // NB: after the test's overrides: time moves only as the exploration moves it.
    dependencies.continuousClock = clock
    dependencies.stackElementIDs = StackElementIDGenerator()
    let values = dependencies
    let (core, reported) = withIssueReporter(issues) {
      let core = DependencyValues.with(values) {
        StoreCore(initialState: makeState(), reducer: makeReducer(), dependencies: values)
      }
      return (core, issues.messages.count)
    }
    let log = Log()
    core.didProcess = { action, state in
      log.processed.append((action.action, action.isReceived, state))
    }
    var result = Run(steps: [], failure: nil)
    if reported > 0 {
      result.failure = Failure(
        kind: firstLine(issues.messages[0]), message: issues.messages[0], isInvariant: false)
      return result
    }
    let count = plan?.count ?? steps
    await withIssueReporter(issues) {
      for index in 0..<count {
        var random = ExplorationRandom(
          replaying: plan?[index] ?? [], seed: seed &+ UInt64(index) &* 0x9E37_79B9)
        let before = core.state
        guard let action = generator.action(using: &random, for: before) else { continue }
        log.processed.removeAll()
        let seen = issues.messages.count
        _ = core.send(action, origin: index)
        let start = clock.now
        await settle(core, clock: clock, log: log)
        let advanced = start.duration(to: clock.now)
        result.steps.append(
          Step(
            action: action, choices: random.drawn, stateBefore: before,
            stateAfter: log.processed.first?.state ?? core.state,
            received: log.processed.dropFirst().map { ($0.action, $0.state) },
            advancedClock: advanced))
        if issues.messages.count > seen {
          let message = issues.messages[seen]
          result.failure = Failure(kind: firstLine(message), message: message, isInvariant: false)
          break
        }
        if !invariant(core.state) {
          result.failure = Failure(
            kind: "invariant",
            message: "The invariant does not hold after step \(result.steps.count).",
            isInvariant: true)
          break
        }
      }
    }
    if result.failure == nil, let running = core.runtime.inFlight.first {
      let message = Message.effectStillRunning(running.action)
      result.failure = Failure(kind: firstLine(message), message: message, isInvariant: false)
    }
    core.runtime.abandonAll()
    return result
  }

  /// Lets the effects of the last action run until none is left, waking the clock's sleepers one
  /// deadline at a time while only time can move them on.
  ///
  /// NB: effects run on the global executor; nothing says when one has reached its next
  /// suspension, so this yields until neither the effects nor the actions they sent have changed
  /// for a while, as `TestClock` does before it moves time. An effect busy off the main actor
  /// (an import parsing a file) changes nothing for a while and sleeps on no clock: it is waited
  /// for, up to two seconds without any progress, and then left running (the run's end reports
  /// it). An effect that sleeps forever (a timer) is left after 100 deadlines.
  private func settle(_ core: StoreCore<State, Action>, clock: TestClock, log: Log) async {
    var wakes = 0
    var lastProgress = ContinuousClock.now
    var last = (core.runtime.inFlight.count, log.processed.count)
    while !core.runtime.inFlight.isEmpty {
      var quiet = 0
      while quiet < 16, !core.runtime.inFlight.isEmpty {
        await MainActor.run {}
        await Task.detached(priority: .low) { await Task.yield() }.value
        let now = (core.runtime.inFlight.count, log.processed.count)
        if now == last {
          quiet += 1
        } else {
          quiet = 0
          last = now
          lastProgress = .now
        }
      }
      guard !core.runtime.inFlight.isEmpty, wakes < 100 else { break }
      if await clock.wakeNextSleeper() {
        wakes += 1
        lastProgress = .now
      } else if ContinuousClock.now - lastProgress > .seconds(2) {
        break
      } else {
        // NB: real time only while work off the main actor is under way; nothing is timed by it.
        try? await Task.sleep(for: .milliseconds(1))
      }
    }
  }

  /// Shrinks a failing run: drops steps while the same failure remains, then simplifies each
  /// remaining step's payload (its generator's draws after the case's, set to zero).
  func shrink(_ failing: Run, seed: UInt64) async -> Run {
    guard let kind = failing.failure?.kind else { return failing }
    var best = failing
    var attempts = 0
    func fails(_ plan: [[UInt64]]) async -> Run? {
      attempts += 1
      let run = await run(plan: plan, steps: plan.count, seed: seed)
      return run.failure?.kind == kind ? run : nil
    }
    var improved = true
    while improved, attempts < 2_000 {
      improved = false
      var index = 0
      while index < best.steps.count, attempts < 2_000 {
        var plan = best.steps.map(\.choices)
        plan.remove(at: index)
        if let smaller = await fails(plan), smaller.steps.count < best.steps.count {
          best = smaller
          improved = true
        } else {
          index += 1
        }
      }
    }
    for index in best.steps.indices where attempts < 2_000 {
      let choices = best.steps[index].choices
      guard choices.count > 1, choices.dropFirst().contains(where: { $0 != 0 }) else { continue }
      var plan = best.steps.map(\.choices)
      plan[index] = [choices[0]] + Array(repeating: 0, count: choices.count - 1)
      if let simpler = await fails(plan), simpler.steps.count <= best.steps.count {
        best = simpler
      }
    }
    return best
  }

  private func firstLine(_ message: String) -> String {
    String(message.prefix { $0 != "\n" })
  }

  /// The failure's report: what failed, the seed, and the shrunk sequence as a test.
  static func report(
    _ shrunk: Run, original: Run, failure: Failure, seed: UInt64, run: Int, reducer: String,
    initialState: State, invariantName: String
  ) -> String {
    var lines: [String] = []
    lines.append(
      "Exploration failed in run \(run + 1) after \(shrunk.steps.count) steps (shrunk from "
        + "\(original.steps.count)):")
    lines.append("")
    lines.append(
      failure.message.split(separator: "\n", omittingEmptySubsequences: false)
        .map { $0.isEmpty ? "" : "    " + $0 }.joined(separator: "\n"))
    lines.append("")
    lines.append("Replay the exploration with seed: \(seed)")
    lines.append("")
    lines.append("The shortest sequence found, as a test:")
    lines.append("")
    lines.append("@MainActor @Test func exploredFailure() async {")
    lines.append("  let clock = TestClock()")
    lines.append(
      "  let store = TestStore(initialState: \(SwiftLiteral.render(initialState))) {")
    lines.append("    \(reducer)()")
    lines.append("  } withDependencies: {")
    lines.append("    $0.continuousClock = clock")
    lines.append("  }")
    for step in shrunk.steps {
      lines += assertion(
        "send", SwiftLiteral.render(step.action), from: step.stateBefore, to: step.stateAfter)
      if step.advancedClock > .zero {
        lines.append("  await clock.advance(by: \(SwiftLiteral.render(step.advancedClock)))")
      }
      var state = step.stateAfter
      for received in step.received {
        lines += assertion(
          "receive", SwiftLiteral.render(received.action), from: state, to: received.state)
        state = received.state
      }
    }
    if failure.isInvariant {
      lines.append("  #expect(\(invariantName)(store.state))")
    }
    lines.append("}")
    return lines.joined(separator: "\n")
  }

  /// `await store.send(…) { … }` (or `receive`) with the changes from `before` to `after`.
  private static func assertion(
    _ verb: String, _ action: String, from before: State, to after: State
  ) -> [String] {
    let changes = SwiftLiteral.assignments(from: before, to: after)
    guard !changes.isEmpty else { return ["  await store.\(verb)(\(action))"] }
    return ["  await store.\(verb)(\(action)) {"] + changes.map { "    " + $0 } + ["  }"]
  }
}
