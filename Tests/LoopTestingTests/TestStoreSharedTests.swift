import Foundation
import LoopTesting
import Testing

/// A counter kept in shared state, changed by the reducer and by its effects.
private struct SharedCount: Reducer {
  struct State: Equatable {
    @Shared(.inMemory("count")) var count = 0
    var label = ""
  }

  enum Action: Equatable {
    case countVisitInEffect
    case incrementInEffectSilently
    case incrementInEffectThenReport
    case incrementTapped
    case incremented
    case labelChanged(String)
    case noop
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .countVisitInEffect:
      return .run { _ in visits.withLock { $0 += 1 } }
    case .incrementInEffectSilently:
      let count = state.$count
      return .run { _ in count.withLock { $0 += 100 } }
    case .incrementInEffectThenReport:
      let count = state.$count
      return .run { send in
        count.withLock { $0 += 10 }
        await send(.incremented)
      }
    case .incrementTapped:
      state.$count.withLock { $0 += 1 }
      return .none
    case .incremented, .noop:
      return .none
    case .labelChanged(let label):
      state.label = label
      return .none
    }
  }
}

/// A shared value no state holds, which an effect changes.
private let visits = Shared(value: 0)

/// A parent handing its shared value to a child, which changes it.
private struct Parent: Reducer {
  struct State: Equatable {
    @Shared var total: Int
    var child: Child.State
  }

  enum Action: Equatable {
    case child(Child.Action)
  }

  var body: some ReducerOf<Self> {
    Scope(state: \.child, action: .case(Action.child)) { Child() }
  }

  struct Child: Reducer {
    struct State: Equatable {
      @Shared var total: Int
    }

    enum Action: Equatable {
      case addTapped
    }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      state.$total.withLock { $0 += 5 }
      return .none
    }
  }
}

private struct Settings: Codable, Equatable, Sendable {
  var isDark = false
}

private let settingsURL = URL(filePath: NSTemporaryDirectory())
  .appending(component: "loop-test-store-settings-\(UUID().uuidString).json")

/// A feature whose setting is kept in a file.
private struct Appearance: Reducer {
  struct State: Equatable {
    @Shared(.fileStorage(settingsURL)) var settings = Settings()
  }

  enum Action: Equatable {
    case darkModeToggled
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.$settings.withLock { $0.isDark.toggle() }
    return .none
  }
}

@MainActor
@Suite struct TestStoreSharedTests {
  @Test func aSharedChangeAssertedWithWithLockPasses() async {
    let issues = await capturingIssues {
      let store = TestStore(initialState: SharedCount.State()) { SharedCount() }
      await store.send(.incrementTapped) { $0.$count.withLock { $0 = 1 } }
      await store.send(.incrementTapped) { $0.$count.withLock { $0 = 2 } }
      await store.finish()
    }
    #expect(issues.messages.isEmpty)
  }

  @Test func theClosureSeesTheValueBeforeTheAction() async {
    var seen: [Int] = []
    let issues = await capturingIssues {
      let store = TestStore(initialState: SharedCount.State()) { SharedCount() }
      await store.send(.incrementTapped) {
        seen.append($0.count)
        $0.$count.withLock { $0 += 1 }
        seen.append($0.count)
      }
      #expect(store.state.count == 1)
    }
    #expect(issues.messages.isEmpty)
    #expect(seen.prefix(2) == [0, 1])
  }

  @Test func anUnassertedSharedChangeFails() async {
    let issues = await capturingIssues {
      let store = TestStore(initialState: SharedCount.State()) { SharedCount() }
      await store.send(.incrementTapped)
    }
    #expect(
      issues.messages == [
        """
        State was not expected to change, but a change occurred.

            SharedCount.State(
          −   count: 0,
          +   count: 1,
              label: ""
            )

        (Expected: −, Actual: +)

        To fix, pass a closure that describes the change to 'send' or 'receive'.
        """
      ])
  }

  @Test func aWrongSharedAssertionFailsWithTheDifference() async {
    let issues = await capturingIssues {
      let store = TestStore(initialState: SharedCount.State()) { SharedCount() }
      await store.send(.incrementTapped) { $0.$count.withLock { $0 = 2 } }
    }
    #expect(
      issues.messages == [
        """
        A state change does not match expectation.

            SharedCount.State(
          −   count: 2,
          +   count: 1,
              label: ""
            )

        (Expected: −, Actual: +)
        """
      ])
  }

  @Test func aStateChangeAssertedWithoutTheSharedChangeFails() async {
    let issues = await capturingIssues {
      let store = TestStore(initialState: SharedCount.State()) { SharedCount() }
      await store.send(.labelChanged("a")) { $0.label = "a" }
      await store.send(.incrementTapped) { $0.label = "a" }
    }
    #expect(
      issues.messages == [
        """
        A state change does not match expectation.

            SharedCount.State(
          −   count: 0,
          +   count: 1,
              label: "a"
            )

        (Expected: −, Actual: +)
        """
      ])
  }

  @Test func assertingASharedChangeThatDidNotHappenFails() async {
    let issues = await capturingIssues {
      let store = TestStore(initialState: SharedCount.State()) { SharedCount() }
      await store.send(.noop) { $0.$count.withLock { $0 = 0 } }
    }
    #expect(issues.messages == [closureChangedNothing])
  }

  @Test func anEffectsChangeIsAssertedWithTheActionItSendsNext() async {
    let issues = await capturingIssues {
      let store = TestStore(initialState: SharedCount.State()) { SharedCount() }
      await store.send(.incrementInEffectThenReport)
      await store.receive(.incremented) { $0.$count.withLock { $0 = 10 } }
      await store.finish()
    }
    #expect(issues.messages.isEmpty)
  }

  @Test func anEffectsChangeWithNoActionAfterItFailsAtTheEnd() async {
    let issues = await capturingIssues {
      let store = TestStore(initialState: SharedCount.State()) { SharedCount() }
      await store.send(.incrementInEffectSilently)
      await store.finish()
    }
    #expect(
      issues.messages == [
        """
        A shared value changed after the last action, and the change was not asserted.

            SharedCount.State(
          −   count: 0,
          +   count: 100,
              label: ""
            )

        (Expected: −, Actual: +)

        To fix, assert it with 'store.assert { $0.$value.withLock { … } }', or make the effect \
        that changes it send an action afterwards, and assert the change when receiving it.
        """
      ])
  }

  @Test func aSharedValueNoStateHoldsIsShownByItself() async {
    let issues = await capturingIssues {
      let store = TestStore(initialState: SharedCount.State()) { SharedCount() }
      await store.send(.countVisitInEffect)
      await store.finish()
    }
    #expect(
      issues.messages == [
        """
        A shared value changed after the last action, and the change was not asserted.

          Shared<Int>:
            − \(visits.wrappedValue - 1)
            + \(visits.wrappedValue)

        (Expected: −, Actual: +)

        To fix, assert it with 'store.assert { $0.$value.withLock { … } }', or make the effect \
        that changes it send an action afterwards, and assert the change when receiving it.
        """
      ])
  }

  @Test func assertAcceptsAnEffectsChangeWithNoActionAfterIt() async {
    let issues = await capturingIssues {
      let store = TestStore(initialState: SharedCount.State()) { SharedCount() }
      await store.send(.incrementInEffectSilently)
      store.assert { $0.$count.withLock { $0 = 100 } }
      await store.finish()
    }
    #expect(issues.messages.isEmpty)
  }

  @Test func aChangeTheTestMakesItselfNeedsNoAssertion() async {
    let issues = await capturingIssues {
      @Shared(.inMemory("count")) var count = 0
      let store = TestStore(initialState: SharedCount.State()) { SharedCount() }
      await store.send(.incrementTapped) { $0.$count.withLock { $0 = 1 } }
      $count.withLock { $0 = 50 }
      await store.send(.incrementTapped) { $0.$count.withLock { $0 = 51 } }
      #expect(count == 51)
      await store.finish()
    }
    #expect(issues.messages.isEmpty)
  }

  @Test func aParentAndAChildHoldingOneValueAreAssertedTogether() async {
    let issues = await capturingIssues {
      let total = Shared(value: 1)
      let store = TestStore(initialState: Parent.State(total: total, child: .init(total: total))) {
        Parent()
      }
      await store.send(.child(.addTapped)) { $0.child.$total.withLock { $0 = 6 } }
      await store.send(.child(.addTapped))
    }
    #expect(
      issues.messages == [
        """
        State was not expected to change, but a change occurred.

            Parent.State(
          −   total: 6,
          +   total: 11,
              child: Parent.Child.State(
          −     total: 6
          +     total: 11
              )
            )

        (Expected: −, Actual: +)

        To fix, pass a closure that describes the change to 'send' or 'receive'.
        """
      ])
  }

  @Test func aFileKeyDeclaredInTheTestIsTheOneTheFeatureChanges() async {
    let issues = await capturingIssues {
      @Shared(.fileStorage(settingsURL)) var settings = Settings()
      let store = TestStore(initialState: Appearance.State()) { Appearance() }
      await store.send(.darkModeToggled) { $0.$settings.withLock { $0.isDark = true } }
      #expect(settings.isDark)
    }
    #expect(issues.messages.isEmpty)
    #expect(!FileManager.default.fileExists(atPath: settingsURL.path))
  }

  // NB: the cases run in parallel; each starts from its own storage, so each sees 0 → 1.
  @Test(arguments: 1...3) func eachTestStartsFromFreshSharedValues(_ run: Int) async {
    let issues = await capturingIssues {
      let store = TestStore(initialState: SharedCount.State()) { SharedCount() }
      await store.send(.incrementTapped) { $0.$count.withLock { $0 = 1 } }
    }
    #expect(issues.messages.isEmpty)
  }

  @Test func dependenciesSetWholeStillTrackSharedChanges() async {
    let issues = await capturingIssues {
      let store = TestStore(initialState: SharedCount.State()) { SharedCount() }
      store.dependencies = DependencyValues(context: .test)
      await store.send(.incrementTapped)
    }
    #expect(issues.messages.first?.hasPrefix("State was not expected to change") == true)
    #expect(issues.messages.count == 1)
  }

  @Test func skippedReceivedActionsTakeTheirSharedChangesWithThem() async {
    let issues = await capturingIssues {
      let store = TestStore(initialState: SharedCount.State()) { SharedCount() }
      await store.send(.incrementInEffectThenReport)
      store.skipReceivedActions()
      await store.send(.incrementTapped) { $0.$count.withLock { $0 = 11 } }
      await store.finish()
    }
    #expect(issues.messages.isEmpty)
  }

  @Test func aNonExhaustiveStoreSkipsAnUnassertedSharedChange() async {
    let issues = await capturingIssues {
      let store = TestStore(initialState: SharedCount.State()) { SharedCount() }
      store.exhaustivity = .off(showSkippedAssertions: true)
      await store.send(.incrementTapped)
      await store.send(.labelChanged("b")) { $0.label = "b" }
      await store.send(.incrementInEffectSilently)
      await store.finish()
    }
    #expect(issues.messages.isEmpty)
    #expect(issues.knownIssues.count == 2)
    #expect(
      issues.knownIssues.first == """
        A state change was not asserted.

            SharedCount.State(
          −   count: 0,
          +   count: 1,
              label: ""
            )

        (Expected: −, Actual: +)
        """)
  }

  @Test func aNonExhaustiveStoreChecksTheSharedChangeItStates() async {
    let issues = await capturingIssues {
      let store = TestStore(initialState: SharedCount.State()) { SharedCount() }
      store.exhaustivity = .off
      await store.send(.incrementTapped) { $0.$count.withLock { $0 = 5 } }
    }
    #expect(
      issues.messages == [
        """
        A state change does not match expectation.

            SharedCount.State(
          −   count: 5,
          +   count: 1,
              label: ""
            )

        (Expected: −, Actual: +)
        """
      ])
  }
}
