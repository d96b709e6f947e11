import LoopTesting
import Testing

extension SharedKey where Self == AppStorageKey<Int>.Default {
  /// The count both tabs of the case study share.
  fileprivate static var count: Self { Self[.appStorage("sharedStateDemoCount"), default: 0] }
}

/// TCA's "Shared State: User Defaults" case study: two tabs share a count kept in app storage.
private struct SharedStateUserDefaults: Reducer {
  enum Tab: Equatable { case counter, profile }

  struct State: Equatable {
    var currentTab = Tab.counter
    var counter = CounterTab.State()
    var profile = ProfileTab.State()
  }

  enum Action: Equatable {
    case counter(CounterTab.Action)
    case profile(ProfileTab.Action)
    case tabSelected(Tab)
  }

  var body: some ReducerOf<Self> {
    Scope(state: \.counter, action: .case(Action.counter)) { CounterTab() }
    Scope(state: \.profile, action: .case(Action.profile)) { ProfileTab() }
    Reduce { state, action in
      switch action {
      case .counter, .profile:
        return .none
      case .tabSelected(let tab):
        state.currentTab = tab
        return .none
      }
    }
  }

  struct CounterTab: Reducer {
    struct State: Equatable {
      @Presents var alert: AlertState<Action.Alert>?
      @Shared(.count) var count
    }

    enum Action: Equatable {
      case alert(PresentationAction<Alert>)
      case decrementSubmitted
      case incrementSubmitted
      case isPrimeSubmitted

      enum Alert: Equatable {}
    }

    var body: some ReducerOf<Self> {
      Reduce { state, action in
        switch action {
        case .alert:
          return .none
        case .decrementSubmitted:
          state.$count.withLock { $0 -= 1 }
          return .none
        case .incrementSubmitted:
          state.$count.withLock { $0 += 1 }
          return .none
        case .isPrimeSubmitted:
          state.alert = AlertState {
            TextState(
              isPrime(state.count)
                ? "👍 The number \(state.count) is prime!"
                : "👎 The number \(state.count) is not prime :(")
          }
          return .none
        }
      }
      .ifLet(\.$alert, action: .case(Action.alert))
    }
  }

  struct ProfileTab: Reducer {
    struct State: Equatable {
      @Shared(.count) var count
    }

    enum Action: Equatable {
      case resetStatsSubmitted
    }

    var body: some ReducerOf<Self> {
      Reduce { state, action in
        switch action {
        case .resetStatsSubmitted:
          state.$count.withLock { $0 = 0 }
          return .none
        }
      }
    }
  }
}

private func isPrime(_ number: Int) -> Bool {
  guard number > 1 else { return false }
  return !(2..<number).contains { number % $0 == 0 }
}

@MainActor
@Suite struct AppStorageCaseStudyTests {
  @Test func tabSelection() async {
    let store = TestStore(initialState: SharedStateUserDefaults.State()) {
      SharedStateUserDefaults()
    }
    await store.send(.tabSelected(.profile)) { $0.currentTab = .profile }
    await store.send(.tabSelected(.counter)) { $0.currentTab = .counter }
  }

  @Test func sharedCounts() async {
    let store = TestStore(initialState: SharedStateUserDefaults.State()) {
      SharedStateUserDefaults()
    }
    await store.send(.counter(.incrementSubmitted)) {
      $0.counter.$count.withLock { $0 = 1 }
    }
    await store.send(.counter(.decrementSubmitted)) {
      $0.counter.$count.withLock { $0 = 0 }
    }
    // NB: the count is 0 already, and a closure that changes nothing is reported in Loop.
    await store.send(.profile(.resetStatsSubmitted))
  }

  @Test func alert() async {
    let store = TestStore(initialState: SharedStateUserDefaults.State()) {
      SharedStateUserDefaults()
    }
    await store.send(.counter(.isPrimeSubmitted)) {
      $0.counter.alert = AlertState { TextState("👎 The number 0 is not prime :(") }
    }
  }

  @Test func eachTestStartsFromAFreshStorage() async {
    let store = TestStore(initialState: SharedStateUserDefaults.State()) {
      SharedStateUserDefaults()
    }
    // NB: `sharedCounts` counts up in its own test; here the count starts at the default.
    #expect(store.state.counter.count == 0)
    await store.send(.counter(.incrementSubmitted)) {
      $0.counter.$count.withLock { $0 = 1 }
    }
    #expect(store.state.profile.count == 1)
  }
}
