import LoopTesting
import Testing

/// A screen of the stack below: it counts, and closes itself.
private struct Page: Reducer {
  struct State: Equatable {
    var count = 0
  }
  enum Action: Equatable {
    case closeTapped, incrementTapped
  }

  @Dependency(\.dismiss) var dismiss

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .closeTapped:
      return .run { _ in await dismiss() }
    case .incrementTapped:
      state.count += 1
      return .none
    }
  }
}

/// Pushes pages, also from an action it sends itself.
private struct Book: Reducer {
  struct State: Equatable {
    var path = StackState<Page.State>()
  }
  enum Action: Equatable {
    case clearTapped
    case openTwiceTapped
    case openTapped
    case opened
    case path(StackActionOf<Page>)
    case restartTapped
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .clearTapped:
        state.path.removeAll()
        return .none
      case .openTwiceTapped:
        state.path.append(Page.State())
        return .send(.opened)
      case .openTapped:
        state.path.append(Page.State())
        return .none
      case .opened:
        state.path.append(Page.State(count: 1))
        return .none
      case .path:
        return .none
      case .restartTapped:
        state.path = StackState([Page.State(count: 7)])
        return .none
      }
    }
    .forEach(\.path, action: .case(Action.path)) { Page() }
  }
}

@MainActor
@Suite struct TestStoreStackTests {
  @Test func anAssertionAppendsUnderTheIDTheReducerDrew() async {
    let issues = await capturingIssues {
      let store = TestStore(initialState: Book.State()) { Book() }
      await store.send(.openTapped) { $0.path.append(Page.State()) }
      await store.send(.openTapped) { $0.path.append(Page.State()) }
      await store.send(.clearTapped) { $0.path.removeAll() }
      await store.send(.openTapped) { $0.path.append(Page.State()) }
      #expect(store.state.path.ids == [2])
    }
    #expect(issues.messages.isEmpty)
  }

  @Test func aReceivedActionsAssertionDrawsFromWhereItsReducerDrew() async {
    let issues = await capturingIssues {
      let store = TestStore(initialState: Book.State()) { Book() }
      await store.send(.openTwiceTapped) { $0.path[id: 0] = Page.State() }
      await store.receive(.opened) { $0.path.append(Page.State(count: 1)) }
      #expect(store.state.path.ids == [0, 1])
    }
    #expect(issues.messages.isEmpty)
  }

  @Test func aStoryPushesRunsAndPopsElementsByID() async {
    let issues = await capturingIssues {
      let store = TestStore(initialState: Book.State()) { Book() }
      await store.send(.path(.push(id: 0, state: Page.State()))) {
        $0.path[id: 0] = Page.State()
      }
      await store.send(.openTapped) { $0.path[id: 1] = Page.State() }
      await store.send(.path(.element(id: 1, action: .incrementTapped))) {
        $0.path[id: 1]?.count = 1
      }
      await store.send(.path(.element(id: 1, action: .closeTapped)))
      await store.receive(.path(.popFrom(id: 1))) { $0.path.pop(from: 1) }
      await store.send(.path(.popFrom(id: 0))) { $0.path = StackState() }
    }
    #expect(issues.messages.isEmpty)
  }

  @Test func aStackBuiltForTheInitialStateIsNumberedFromZero() async {
    let issues = await capturingIssues {
      let store = TestStore(initialState: Book.State(path: StackState([Page.State()]))) {
        Book()
      }
      await store.send(.path(.element(id: 0, action: .incrementTapped))) {
        $0.path[id: 0]?.count = 1
      }
      await store.send(.openTapped) { $0.path.append(Page.State()) }
      #expect(store.state.path.ids == [0, 1])
    }
    #expect(issues.messages.isEmpty)
  }

  @Test func aStackBuiltInTheReducerContinuesAfterTheInitialStacksIDs() async {
    let issues = await capturingIssues {
      let store = TestStore(
        initialState: Book.State(path: StackState([Page.State(), Page.State()]))
      ) {
        Book()
      }
      await store.send(.restartTapped) { $0.path = StackState([Page.State(count: 7)]) }
      #expect(store.state.path.ids == [2])
    }
    #expect(issues.messages.isEmpty)
  }

  @Test func anActionForAMissingElementFailsTheTestAndChangesNothing() async {
    let issues = await capturingIssues {
      let store = TestStore(initialState: Book.State()) { Book() }
      await store.send(.openTapped) { $0.path.append(Page.State()) }
      await store.send(.path(.element(id: 3, action: .incrementTapped)))
      #expect(store.state.path == StackState([Page.State()]))
    }
    #expect(
      issues.messages == [
        """
        A 'forEach' at 'LoopTestingTests/TestStoreStackTests.swift:62' received an action for a \
        missing stack element (id: #3):

            Book.Action.path(
              .element(
                id: #3,
                action: .incrementTapped
              )
            )

        The element was popped before this 'forEach' ran (a reducer before it popped it), an \
        effect of the element outlived it, or the action was sent for an id the stack never \
        held. To fix, run 'forEach' after the reducers that pop elements, and send an element's \
        actions only while the stack holds it.
        """
      ])
  }

  @Test func anElementUnderTheWrongIDFailsWithADiffOfTheIDs() async {
    let issues = await capturingIssues {
      let store = TestStore(initialState: Book.State()) { Book() }
      await store.send(.openTapped) { $0.path[id: 1] = Page.State() }
    }
    #expect(
      issues.messages == [
        """
        A state change does not match expectation.

            Book.State(
              path: [
          −     #1: Page.State(
          −       count: 0
          −     )
          +     #0: Page.State(
          +       count: 0
          +     )
              ]
            )

        (Expected: −, Actual: +)
        """
      ])
  }
}
