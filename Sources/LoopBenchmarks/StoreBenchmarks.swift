import Foundation
import Loop
import LoopTesting

/// The counter every store benchmark sends to: one synchronous action, `.none` back.
struct BenchCounter: Reducer {
  struct State: Equatable, Identifiable {
    var id: Int
    var count = 0
  }

  enum Action: Equatable {
    case increment
  }

  @inline(never)
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.count &+= 1
    return .none
  }
}

/// Three levels of `Scope` down to the counter, with one-line or explicit case paths.
struct Nested: Reducer {
  struct State: Equatable { var middle = Middle.State() }
  enum Action: Equatable { case middle(Middle.Action) }

  /// Whether the case paths are the one-line `.case(Action.x)` or pass a pattern match too.
  let oneLine: Bool

  var body: some ReducerOf<Self> {
    Scope(
      state: \.middle,
      action: oneLine
        ? .case(Action.middle)
        : .case(Action.middle) { if case .middle(let a) = $0 { a } else { nil } }
    ) { Middle(oneLine: oneLine) }
  }

  struct Middle: Reducer {
    struct State: Equatable { var inner = Inner.State() }
    enum Action: Equatable { case inner(Inner.Action) }

    let oneLine: Bool

    var body: some ReducerOf<Self> {
      Scope(
        state: \.inner,
        action: oneLine
          ? .case(Action.inner)
          : .case(Action.inner) { if case .inner(let a) = $0 { a } else { nil } }
      ) { Inner(oneLine: oneLine) }
    }
  }

  struct Inner: Reducer {
    struct State: Equatable { var counter = BenchCounter.State(id: 0) }
    enum Action: Equatable { case counter(BenchCounter.Action) }

    let oneLine: Bool

    var body: some ReducerOf<Self> {
      Scope(
        state: \.counter,
        action: oneLine
          ? .case(Action.counter)
          : .case(Action.counter) { if case .counter(let a) = $0 { a } else { nil } }
      ) { BenchCounter() }
    }
  }
}

/// A list of counters driven by `forEach`.
struct BenchList: Reducer {
  struct State: Equatable { var rows: IdentifiedArrayOf<BenchCounter.State> }
  enum Action: Equatable {
    case rows(IdentifiedActionOf<BenchCounter>)
    case ping
    case pong
  }

  /// Whether the element case path is the one-line `.case(Action.rows)` or passes a pattern
  /// match too.
  let oneLine: Bool

  var body: some ReducerOf<Self> {
    Reduce { _, action in
      switch action {
      case .ping: .run { send in await send(.pong) }
      case .pong, .rows: .none
      }
    }
    .forEach(\.rows, action: rowsPath) { BenchCounter() }
  }

  private var rowsPath: CasePath<Action, IdentifiedActionOf<BenchCounter>> {
    oneLine
      ? .case(Action.rows)
      : .case(Action.rows) { if case .rows(let action) = $0 { action } else { nil } }
  }

  static func state(rows: Int) -> State {
    State(rows: IdentifiedArray(uniqueElements: (0..<rows).map { BenchCounter.State(id: $0) }))
  }
}

/// A navigation stack of counters driven by `forEach`.
struct BenchStack: Reducer {
  struct State: Equatable { var path = StackState<BenchCounter.State>() }
  enum Action: Equatable {
    case path(StackActionOf<BenchCounter>)
  }

  var body: some ReducerOf<Self> {
    EmptyReducer()
      .forEach(\.path, action: .case(Action.path)) { BenchCounter() }
  }

  static func state(depth: Int) -> State {
    State(path: StackState((0..<depth).map { BenchCounter.State(id: $0) }))
  }
}

/// Rows 1–4: the store, scoping, effects, and the test store.
@MainActor
enum StoreBenchmarks {
  static func run(_ settings: Settings) async -> [Measurement] {
    let actions = settings.size(1_000_000, quick: 1_000)
    var results: [Measurement] = []
    var sink = BenchCounter.State(id: 0)
    let counter = BenchCounter()

    func rawCalls(_ count: Int) {
      for _ in 0..<count { _ = counter.reduce(into: &sink, action: .increment) }
    }

    // Row 1: a synchronous action through the store vs the reducer called directly.
    if settings.includes("send, synchronous") {
      let store = Store(initialState: BenchCounter.State(id: 0)) { BenchCounter() }
      let send = medianTimes(runs: settings.runs) {
        for _ in 0..<actions { store.send(.increment) }
      } baseline: {
        rawCalls(actions)
      }
      results.append(
        Measurement(
          group: "Store", name: "send, synchronous, .none", operations: actions, ours: send.ours,
          baseline: send.baseline, baselineName: "reduce(into:) inout", unit: .nanoseconds))
    }

    // Row 2: through three levels of Scope, with explicit case paths; then the one-line
    // `.case(Action.x)` form beside the explicit one.
    if settings.includes("send through 3 Scopes") {
      let nested = Store(initialState: Nested.State()) { Nested(oneLine: false) }
      let scoped = medianTimes(runs: settings.runs) {
        sendToCounter(actions, through: nested)
      } baseline: {
        rawCalls(actions)
      }
      results.append(
        Measurement(
          group: "Store", name: "send through 3 Scopes", operations: actions, ours: scoped.ours,
          baseline: scoped.baseline, baselineName: "reduce(into:) inout", unit: .nanoseconds))
    }
    if settings.includes("send through 3 Scopes, one-line") {
      let oneLine = Store(initialState: Nested.State()) { Nested(oneLine: true) }
      let explicit = Store(initialState: Nested.State()) { Nested(oneLine: false) }
      let times = medianTimes(runs: settings.runs) {
        sendToCounter(actions, through: oneLine)
      } baseline: {
        sendToCounter(actions, through: explicit)
      }
      results.append(
        Measurement(
          group: "Store", name: "send through 3 Scopes, one-line .case(Action.x)",
          operations: actions, ours: times.ours, baseline: times.baseline,
          baselineName: "the same, explicit pattern match", unit: .nanoseconds))
    }

    // Row 2: forEach over 1k / 10k / 100k rows; the cost must not grow with the array.
    var perSize: [(rows: Int, ours: Double)] = []
    for rows in [1_000, 10_000, 100_000].map({ settings.quick ? $0 / 100 : $0 }) {
      let name = "forEach element action, \(rows.formatted()) rows"
      guard settings.includes(name) else { continue }
      let list = Store(initialState: BenchList.state(rows: rows)) { BenchList(oneLine: false) }
      let times = medianTimes(runs: settings.runs) {
        sendToRows(actions, of: list, rows: rows)
      } baseline: {
        rawCalls(actions)
      }
      perSize.append((rows, times.ours / Double(actions)))
      results.append(
        Measurement(
          group: "Store", name: name, operations: actions, ours: times.ours,
          baseline: times.baseline, baselineName: "reduce(into:) inout", unit: .nanoseconds))
    }
    if perSize.count > 1, let first = perSize.first, let last = perSize.last {
      results[results.count - 1].growth = String(
        format: "%@/%@ %.2fx", compact(last.rows), compact(first.rows), last.ours / first.ours)
    }
    if settings.includes("forEach element action, one-line") {
      let rows = settings.quick ? 100 : 10_000
      let oneLine = Store(initialState: BenchList.state(rows: rows)) { BenchList(oneLine: true) }
      let explicit = Store(initialState: BenchList.state(rows: rows)) { BenchList(oneLine: false) }
      let times = medianTimes(runs: settings.runs) {
        sendToRows(actions, of: oneLine, rows: rows)
      } baseline: {
        sendToRows(actions, of: explicit, rows: rows)
      }
      results.append(
        Measurement(
          group: "Store",
          name: "forEach element action, \(rows.formatted()) rows, one-line .case(Action.rows)",
          operations: actions, ours: times.ours, baseline: times.baseline,
          baselineName: "the same, explicit pattern match", unit: .nanoseconds))
    }

    // Row 2: an element action to the top screen of a stack 1, 10 and 100 deep; the cost must
    // not grow with the depth.
    var perDepth: [(depth: Int, ours: Double)] = []
    for depth in [1, 10, 100] {
      let name = "stack element action, \(depth) deep"
      guard settings.includes(name) else { continue }
      let stack = Store(initialState: BenchStack.state(depth: depth)) { BenchStack() }
      let times = medianTimes(runs: settings.runs) {
        sendToTop(actions, of: stack, depth: depth)
      } baseline: {
        rawCalls(actions)
      }
      perDepth.append((depth, times.ours / Double(actions)))
      results.append(
        Measurement(
          group: "Store", name: name, operations: actions, ours: times.ours,
          baseline: times.baseline, baselineName: "reduce(into:) inout", unit: .nanoseconds))
    }
    if perDepth.count > 1, let first = perDepth.first, let last = perDepth.last {
      results[results.count - 1].growth = String(
        format: "%d/%d %.2fx", last.depth, first.depth, last.ours / first.ours)
    }

    // Row 3: an effect that sends one action back: round trips per second.
    if settings.includes(".run effect") {
      await roundTrips(settings, into: &results)
    }
    if settings.includes("send + assert") {
      await testStoreSteps(settings, into: &results)
    }
    if settings.includes("diff") {
      diffOfOneRow(settings, into: &results)
    }
    if sink.count == 42 { print("") }  // NB: keeps the work from being optimized away.
    return results
  }

  /// Sends `count` increments to the counter three scopes down.
  static func sendToCounter(_ count: Int, through store: Store<Nested.State, Nested.Action>) {
    for _ in 0..<count { store.send(.middle(.inner(.counter(.increment)))) }
  }

  /// Sends `count` element actions to a list of `rows` rows, spread over 1,024 of them.
  static func sendToRows(
    _ count: Int, of list: Store<BenchList.State, BenchList.Action>, rows: Int
  ) {
    let ids = (0..<1_024).map { ($0 &* 7_919) % rows }
    for index in 0..<count {
      list.send(.rows(.element(id: ids[index & 1_023], action: .increment)))
    }
  }

  /// Sends `count` element actions to the top screen of a stack `depth` deep.
  static func sendToTop(
    _ count: Int, of stack: Store<BenchStack.State, BenchStack.Action>, depth: Int
  ) {
    let top = StackElementID(integerLiteral: depth - 1)
    for _ in 0..<count { stack.send(.path(.element(id: top, action: .increment))) }
  }

  static func roundTrips(_ settings: Settings, into results: inout [Measurement]) async {
    let trips = settings.size(20_000, quick: 100)
    let pingStore = Store(initialState: BenchList.state(rows: 1)) { BenchList(oneLine: false) }
    // NB: the effect starts at once (`Task.immediate`) and never suspends, so its limit is an
    // immediate task; the plain task, which hops onto the main actor, is the limit of the old
    // start, and measured beside it in the next row.
    let roundTrips = await medianTimes(runs: settings.runs) {
      for _ in 0..<trips { await pingStore.send(.ping).finish() }
    } baseline: {
      for _ in 0..<trips { await immediateMainActorTask() }
    }
    results.append(
      Measurement(
        group: "Store", name: ".run effect sending one action back", operations: trips,
        ours: roundTrips.ours, baseline: roundTrips.baseline,
        baselineName: "a main-actor Task.immediate, awaited", unit: .perSecond))
    let hops = settings.size(20_000, quick: 100)
    let immediate = await medianTimes(runs: settings.runs) {
      for _ in 0..<hops { await immediateMainActorTask() }
    } baseline: {
      for _ in 0..<hops { await Task { @MainActor in _ = 0 }.value }
    }
    results.append(
      Measurement(
        group: "Store", name: "a main-actor Task.immediate, awaited", operations: hops,
        ours: immediate.ours, baseline: immediate.baseline,
        baselineName: "a main-actor Task, awaited", unit: .perSecond))
  }

  /// Starts an empty task on the main actor with `Task.immediate` and awaits it.
  @inline(never)
  static func immediateMainActorTask() async {
    if #available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *) {
      await Task.immediate { @MainActor in _ = 0 }.value
    } else {
      await Task { @MainActor in _ = 0 }.value
    }
  }

  /// Row 4: a TestStore step (send + assert) on 100 / 1,000 / 10,000 rows.
  static func testStoreSteps(_ settings: Settings, into results: inout [Measurement]) async {
    let steps = settings.size(200, quick: 5)
    for rows in [100, 1_000, 10_000] {
      let testStore = TestStore(initialState: BenchList.state(rows: rows)) {
        BenchList(oneLine: false)
      }
      let plain = Store(initialState: BenchList.state(rows: rows)) { BenchList(oneLine: false) }
      var step = 0
      let times = await medianTimes(runs: settings.runs) {
        for _ in 0..<steps {
          step += 1
          let expected = step
          await testStore.send(.rows(.element(id: rows / 2, action: .increment))) {
            $0.rows[id: rows / 2]?.count = expected
          }
        }
      } baseline: {
        for _ in 0..<steps { plain.send(.rows(.element(id: rows / 2, action: .increment))) }
      }
      results.append(
        Measurement(
          group: "TestStore", name: "send + assert, \(rows.formatted()) rows", operations: steps,
          ours: times.ours, baseline: times.baseline, baselineName: "Store.send",
          unit: .milliseconds))
    }

  }

  /// Row 4: the diff of one changed row among 10,000.
  static func diffOfOneRow(_ settings: Settings, into results: inout [Measurement]) {
    let before = BenchList.state(rows: 10_000)
    var after = before
    after.rows[id: 5_000]?.count = 1
    let diffs = settings.size(20, quick: 2)
    var lines = 0
    let diff = medianTimes(runs: settings.runs) {
      for _ in 0..<diffs { lines &+= Diff.lines(before, after)?.count ?? 0 }
    } baseline: {
      for _ in 0..<diffs { lines &+= before == after ? 0 : 1 }
    }
    results.append(
      Measurement(
        group: "TestStore", name: "diff of 1 changed row among 10,000", operations: diffs,
        ours: diff.ours, baseline: diff.baseline, baselineName: "== on the state",
        unit: .milliseconds))
    if lines == 42 { print("") }  // NB: keeps the work from being optimized away.
  }
}

/// `1000` as `1k`, `100000` as `100k`.
func compact(_ count: Int) -> String {
  count >= 1_000 && count % 1_000 == 0 ? "\(count / 1_000)k" : "\(count)"
}
