import LoopTesting
import Testing

/// The README's tour, verbatim but for this namespace: if it stops compiling or passing, the
/// README is wrong.
enum Readme {
  struct Counter: Reducer {
    struct State: Equatable { var count = 0, fact: String? }
    enum Action: Equatable {
      case incrementSubmitted, factSubmitted
      case factResponse(String)
    }
    @Dependency(\.numberFact) var numberFact

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .incrementSubmitted:
        state.count += 1
        return .none
      case .factSubmitted:
        let count = state.count
        return .run { send in
          await send(.factResponse(try await numberFact.fetch(count)))
        }
      case .factResponse(let fact):
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
    store.send(.incrementSubmitted)
    #expect(store.state.count == 1)
  }

  @Test func counter() async {
    let store = TestStore(initialState: Readme.Counter.State()) {
      Readme.Counter()
    } withDependencies: {
      $0.numberFact.fetch = { "\($0) is a number" }
    }
    await store.send(.incrementSubmitted) { $0.count = 1 }
    await store.send(.factSubmitted)
    await store.receive(.factResponse("1 is a number")) { $0.fact = "1 is a number" }
  }

  @Test func aWrongExpectationPrintsTheREADMEsDiff() async {
    let issues = await capturingIssues {
      let store = TestStore(initialState: Readme.Counter.State()) { Readme.Counter() }
      await store.send(.incrementSubmitted) { $0.count = 2 }
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
