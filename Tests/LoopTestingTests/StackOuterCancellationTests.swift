import LoopTesting
import Testing

/// A stack whose elements run until cancelled, emptied by reducers before and after its
/// `forEach` (TCA's `StackReducerTests.testOuterCancellation`).
private struct Child: Reducer {
  struct State: Equatable {}
  enum Action: Equatable { case onAppear }
  var body: some ReducerOf<Self> {
    Reduce { _, _ in
      .run { _ in try await Task.never() }
    }
  }
}

private struct Parent: Reducer {
  struct State: Equatable {
    var children = StackState<Child.State>()
  }
  enum Action: Equatable {
    case children(StackActionOf<Child>)
    case tapAfter
    case tapBefore
  }
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .tapBefore = action { state.children.removeAll() }
      return .none
    }
    Reduce { _, _ in .none }
      .forEach(\.children, action: .case(Action.children)) { Child() }
    Reduce { state, action in
      if case .tapAfter = action { state.children.removeAll() }
      return .none
    }
  }
}

@MainActor
@Suite struct StackOuterCancellationTests {
  @Test func anElementRemovedBeforeTheForEachHasItsEffectsCancelled() async {
    let store = TestStore(initialState: Parent.State()) { Parent() }
    await store.send(.children(.push(id: 0, state: Child.State()))) {
      $0.children[id: 0] = Child.State()
    }
    await store.send(.children(.element(id: 0, action: .onAppear)))
    await store.send(.tapBefore) { $0.children.removeAll() }
  }

  @Test func anElementRemovedAfterTheForEachHasItsEffectsCancelledOnTheNextAction() async {
    let store = TestStore(initialState: Parent.State()) { Parent() }
    await store.send(.children(.push(id: 0, state: Child.State()))) {
      $0.children[id: 0] = Child.State()
    }
    await store.send(.children(.element(id: 0, action: .onAppear)))
    await store.send(.tapAfter) { $0.children.removeAll() }
    // NB: another action must come through the `forEach` to cancel the element's effect.
    await store.send(.tapAfter)
  }

  @Test func outerCancellation() async {
    let store = TestStore(initialState: Parent.State()) { Parent() }
    await store.send(.children(.push(id: 0, state: Child.State()))) {
      $0.children[id: 0] = Child.State()
    }
    await store.send(.children(.element(id: 0, action: .onAppear)))
    await store.send(.tapBefore) { $0.children.removeAll() }
    await store.send(.children(.push(id: 1, state: Child.State()))) {
      $0.children[id: 1] = Child.State()
    }
    await store.send(.children(.element(id: 1, action: .onAppear)))
    await store.send(.tapAfter) { $0.children.removeAll() }
    await store.send(.tapAfter)
  }

  @Test func theStackElementIDDependencyCountsUp() {
    withDependencies {
      $0.stackElementID = .incrementing()
    } operation: {
      @Dependency(\.stackElementID) var stackElementID
      #expect(stackElementID.peek().generation == 0)
      #expect(stackElementID.next().description == "#0")
      #expect(stackElementID.peek().generation == 1)
      #expect(stackElementID.next().description == "#1")
    }
  }

  @Test func aCaseOfAStackElementIsChangedThroughItsID() {
    var stack = StackState<Screen>([.counter(1), .title("A")])
    stack[id: 0, case: .case(Screen.counter)]? += 1
    stack[id: 1, case: .case(Screen.title)] = "B"
    #expect(Array(stack) == [.counter(2), .title("B")])
    #expect(stack[id: 0, case: .case(Screen.title)] == nil)
  }

  @Test func settingAnUnrelatedCaseOfAStackElementReportsIt() async {
    var stack = StackState<Screen>([.counter(1)])
    let issues = await capturingIssues {
      stack[id: 0, case: .case(Screen.title)] = "B"
    }
    #expect(Array(stack) == [.counter(1)])
    #expect(
      issues.messages == [
        """
        Can't modify unrelated case: the stack holds '.counter' under id #0, not the case \
        path's case, so nothing was changed.

        To fix, push that case first, or modify the case the element is.
        """
      ])
  }
}

private enum Screen: Equatable {
  case counter(Int)
  case title(String)
}
