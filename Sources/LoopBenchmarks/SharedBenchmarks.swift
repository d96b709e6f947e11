import Loop

/// A counter whose count is shared, changed with `withLock`, or plain, changed in place.
struct SharedCounter: Reducer {
  struct State: Equatable {
    @Shared var shared: Int
    var plain = 0
  }

  enum Action: Equatable {
    case incrementPlain
    case incrementShared
  }

  @inline(never)
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .incrementPlain: state.plain &+= 1
    case .incrementShared: state.$shared.withLock { $0 &+= 1 }
    }
    return .none
  }
}

/// A form whose field is set by a binding action, or by an action written for it.
struct BenchForm: Reducer {
  struct State: Equatable {
    var count = 0
  }

  enum Action: Equatable, BindableAction {
    case binding(BindingAction<State>)
    case countChanged(Int)
  }

  var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .binding: return .none
      case .countChanged(let count):
        state.count = count
        return .none
      }
    }
  }
}

/// The shared-state and binding rows.
@MainActor
enum SharedBenchmarks {
  static func run(_ settings: Settings) -> [Measurement] {
    let actions = settings.size(1_000_000, quick: 1_000)
    var results: [Measurement] = []

    if settings.includes("withLock on @Shared") {
      let store = Store(
        initialState: SharedCounter.State(shared: Shared(wrappedValue: 0, .inMemory("bench")))
      ) {
        SharedCounter()
      }
      let times = medianTimes(runs: settings.runs) {
        for _ in 0..<actions { store.send(.incrementShared) }
      } baseline: {
        for _ in 0..<actions { store.send(.incrementPlain) }
      }
      results.append(
        Measurement(
          group: "Shared", name: "send, withLock on @Shared(.inMemory) in the reducer",
          operations: actions, ours: times.ours, baseline: times.baseline,
          baselineName: "send, the same change to plain state", unit: .nanoseconds))
    }

    if settings.includes("binding action") {
      let store = Store(initialState: BenchForm.State()) { BenchForm() }
      let times = medianTimes(runs: settings.runs) {
        for count in 0..<actions { store.send(.binding(.set(\.count, count))) }
      } baseline: {
        for count in 0..<actions { store.send(.countChanged(count)) }
      }
      results.append(
        Measurement(
          group: "Shared", name: "send, binding action .set(\\.count, n)", operations: actions,
          ours: times.ours, baseline: times.baseline,
          baselineName: "send, an action written to set it", unit: .nanoseconds))
    }
    return results
  }
}
