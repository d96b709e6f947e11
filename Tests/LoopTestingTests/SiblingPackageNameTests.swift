import Foundation
import LoopTesting
import Testing

/// A form whose binding actions arrive inside its view actions (TCA's `ViewAction`).
private struct ViewForm: Reducer {
  struct State: Equatable {
    var title = ""
  }

  enum Action: Equatable {
    case view(View)

    enum View: BindableAction, Equatable {
      case binding(BindingAction<State>)
    }
  }

  var body: some ReducerOf<Self> {
    BindingReducer(action: .case(Action.view))
  }
}

private struct Failure: Error, Equatable {}

@MainActor
@Suite struct SiblingPackageNameTests {
  @Test func bindingReducerAppliesBindingsInsideAViewAction() async {
    let store = TestStore(initialState: ViewForm.State()) { ViewForm() }
    await store.send(.view(.set(\.title, "Groceries"))) { $0.title = "Groceries" }
  }

  @Test func resultCatchesAnAsyncThrowingCall() async throws {
    func fetch(_ fails: Bool) async throws -> Int {
      await Task.yield()
      if fails { throw Failure() }
      return 42
    }
    let success = await Result { try await fetch(false) }
    let failure = await Result { try await fetch(true) }
    #expect(try success.get() == 42)
    #expect(throws: Failure.self) { try failure.get() }
  }

  @Test func taskNeverSuspendsUntilCancelled() async {
    let task = Task<Void, any Error> { try await Task.never() }
    task.cancel()
    await #expect(throws: CancellationError.self) { try await task.value }
  }

  @Test func lockIsolatedChangesItsValueUnderTheLock() async {
    let count = LockIsolated(0)
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<100 { group.addTask { count.withValue { $0 += 1 } } }
    }
    count.setValue(count.value + 1)
    #expect(count.value == 101)
  }

  @Test func anyHashableSendableComparesItsWrappedValues() {
    let ids: Set<AnyHashableSendable> = [
      AnyHashableSendable(1), AnyHashableSendable("search"), AnyHashableSendable(1),
    ]
    #expect(ids.count == 2)
    #expect(AnyHashableSendable(1).base as? Int == 1)
    #expect(AnyHashableSendable("search").description == "search")
  }

  @Test func runWithATimeoutEndsWhenEverySleeperIsDone() async {
    let clock = TestClock()
    let woke = LockIsolated(false)
    let task = Task {
      try await clock.sleep(for: .seconds(60))
      woke.setValue(true)
    }
    let issues = await capturingIssues {
      await clock.run(timeout: .seconds(5))
    }
    try? await task.value
    #expect(issues.messages.isEmpty)
    #expect(woke.value)
  }

  @Test func runWithATimeoutReportsASleeperThatNeverStops() async {
    let clock = TestClock()
    let task = Task {
      while !Task.isCancelled { try await clock.sleep(for: .seconds(1)) }
    }
    let issues = await capturingIssues {
      await clock.run(timeout: .milliseconds(50))
    }
    task.cancel()
    #expect(
      issues.messages == [
        """
        Expected all sleeps to finish, but some are still sleeping after 0.05 seconds.

        An effect keeps sleeping on the clock (a timer that is never cancelled, say), or the \
        work left takes longer than the timeout. To fix, cancel the effect, advance the clock \
        by a duration ('advance(by:)') instead, or give 'run' a longer timeout.
        """
      ])
  }
}

/// A parent with an optional child, for `modify`.
private struct Holder: Reducer {
  struct State: Equatable {
    var child: Int?
    var screen: Screen? = .counter(0)
  }
  enum Action: Equatable {
    case incremented
    case touched
  }
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .incremented:
        state.child? += 1
        state.screen = .counter(1)
      case .touched:
        break
      }
      return .none
    }
  }
}

private enum Screen: Equatable {
  case counter(Int)
  case title(String)
}

@MainActor
@Suite struct ModifyTests {
  @Test func modifyChangesAPresentValue() async {
    let store = TestStore(initialState: Holder.State(child: 0)) { Holder() }
    let issues = await capturingIssues {
      await store.send(.incremented) {
        modify(&$0.child) { $0 = 1 }
        modify(&$0.screen, case: .case(Screen.counter)) { $0 = 1 }
      }
    }
    #expect(issues.messages.isEmpty)
  }

  @Test func modifyReportsANilValue() async {
    var child: Int?
    let issues = await capturingIssues {
      modify(&child) { $0 = 1 }
    }
    #expect(child == nil)
    #expect(
      issues.messages == [
        """
        'modify' failed: expected a non-nil value of type 'Int', but it was nil.

        To fix, check that the state is present first, or set it instead of modifying it.
        """
      ])
  }

  @Test func modifyReportsAnotherCase() async {
    var screen: Screen? = .title("A")
    let issues = await capturingIssues {
      modify(&screen, case: .case(Screen.counter)) { $0 = 1 }
    }
    #expect(screen == .title("A"))
    #expect(
      issues.messages == [
        """
        'modify' failed: expected the case holding 'Int', but the value is 'title("A")'.

        To fix, modify the case the value is, or set the value instead of modifying it.
        """
      ])
  }

  @Test func modifyOfACaseReportsAnUnchangedPayload() async {
    var screen: Screen? = .counter(1)
    let issues = await capturingIssues {
      modify(&screen, case: .case(Screen.counter)) { _ in }
    }
    #expect(screen == .counter(1))
    #expect(
      issues.messages == [
        """
        'modify' failed: expected the 'Int' value to be modified, but it was unchanged.

        To fix, remove the 'modify' call, or change the value in its closure.
        """
      ])
  }

  @Test func modifyReportsAnUnchangedValueInAnExhaustiveStore() async {
    let store = TestStore(initialState: Holder.State(child: 0)) { Holder() }
    let issues = await capturingIssues {
      await store.send(.touched) {
        modify(&$0.child) { _ in }
      }
    }
    #expect(
      issues.messages == [
        """
        'modify' failed: expected the 'Int' value to be modified, but it was unchanged.

        To fix, remove the 'modify' call, or change the value in its closure.
        """,
        closureChangedNothing,
      ])
  }

  @Test func modifyAcceptsAnUnchangedValueInANonExhaustiveStore() async {
    let store = TestStore(initialState: Holder.State(child: 0)) { Holder() }
    store.exhaustivity = .off
    let issues = await capturingIssues {
      await store.send(.incremented) {
        modify(&$0.child) { $0 = 1 }
      }
    }
    #expect(issues.messages.isEmpty)
  }
}
