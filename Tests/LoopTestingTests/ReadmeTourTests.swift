import LoopTesting
import Testing

/// The README's tour, verbatim but for this namespace: if it stops compiling or passing, the
/// README is wrong.
enum Readme {
  struct Counter: Reducer {
    struct State: Equatable { var count = 0, fact: String? }
    enum Action: Equatable {
      case incrementTapped, factTapped
      case factLoaded(String)
    }
    @Dependency(\.numberFact) var numberFact

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .incrementTapped:
        state.count += 1
        return .none
      case .factTapped:
        let count = state.count
        return .run { send in
          await send(.factLoaded(try await numberFact.fetch(count)))
        }
      case .factLoaded(let fact):
        state.fact = fact
        return .none
      }
    }
  }
}

@MainActor
@Suite struct ReadmeTourTests {
  @Test func theStoreIncrements() {
    let store = Store(initialState: Readme.Counter.State()) { Readme.Counter() }
    store.send(.incrementTapped)
    #expect(store.state.count == 1)
  }

  @Test func counter() async {
    let store = TestStore(initialState: Readme.Counter.State()) {
      Readme.Counter()
    } withDependencies: {
      $0.numberFact.fetch = { "\($0) is a number" }
    }
    await store.send(.incrementTapped) { $0.count = 1 }
    await store.send(.factTapped)
    await store.receive(.factLoaded("1 is a number")) { $0.fact = "1 is a number" }
  }

  @Test func aWrongExpectationPrintsTheREADMEsDiff() async {
    let issues = await capturingIssues {
      let store = TestStore(initialState: Readme.Counter.State()) { Readme.Counter() }
      await store.send(.incrementTapped) { $0.count = 2 }
    }
    #expect(
      issues.messages == [
        """
        A state change does not match expectation.

            Readme.Counter.State(
          −   count: 2,
          +   count: 1,
              fact: nil
            )

        (Expected: −, Actual: +)
        """
      ])
  }
}
