import Loop
import Testing

/// A screen of a stack: it counts, runs an effect until cancelled, and pops itself.
private struct Screen: Reducer {
  struct State: Equatable {
    var count = 0
    var log: [String] = []
  }
  enum Action: Equatable {
    case closeTapped, finished, incrementTapped, longTask, pingTapped, pong
  }

  @Dependency(\.dismiss) var dismiss

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .closeTapped:
      return .run { _ in await dismiss() }
    case .finished:
      state.log.append("finished")
      return .none
    case .incrementTapped:
      state.count += 1
      return .none
    case .longTask:
      return .run { send in
        await waitForCancellation()
        await send(.finished)
      }
    case .pingTapped:
      return .send(.pong)
    case .pong:
      state.log.append("pong")
      return .none
    }
  }
}

/// A parent with a stack of screens; it logs what it sees of the stack.
private struct Navigator: Reducer {
  struct State: Equatable {
    var path = StackState<Screen.State>()
    var log: [String] = []
  }
  enum Action: Equatable {
    case path(StackActionOf<Screen>)
    case popLastTapped
    case pushTapped
    case replaceTapped
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .path(.element(let id, .incrementTapped)):
        state.log.append("parent saw \(id) at \(state.path[id: id]?.count ?? -1)")
      case .path(.popFrom(let id)):
        state.log.append("popping \(id) of \(state.path.count)")
      case .path(.push(let id, _)):
        state.log.append("pushed \(id) of \(state.path.count)")
      case .path:
        break
      case .popLastTapped:
        state.path.removeLast()
      case .pushTapped:
        state.path.append(Screen.State())
      case .replaceTapped:
        state.path = StackState([Screen.State(count: 9)])
      }
      return .none
    }
    .forEach(\.path, action: .case(Action.path)) { Screen() }
  }
}

/// A stack whose screens hold stacks of their own.
private struct Nested: Reducer {
  struct State: Equatable {
    var path = StackState<Navigator.State>()
  }
  enum Action: Equatable {
    case path(StackActionOf<Navigator>)
  }

  var body: some ReducerOf<Self> {
    EmptyReducer()
      .forEach(\.path, action: .case(Action.path)) { Navigator() }
  }
}

/// A folder whose screen pushes folders: a feature that holds a stack of itself.
private struct Folder: Reducer {
  struct State: Equatable {
    var name: String
    var path = StackState<Folder.State>()
  }
  enum Action: Equatable {
    case openTapped(String)
    indirect case path(StackActionOf<Folder>)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .openTapped(let name) = action { state.path.append(Folder.State(name: name)) }
      return .none
    }
    .forEach(\.path, action: .case(Action.path)) { Folder() }
  }
}

/// A stack of numbers without a reducer for its elements.
private struct Numbers: Reducer {
  struct State: Equatable {
    var path = StackState<Int>()
  }
  enum Action: Equatable {
    case path(StackAction<Int, Never>)
  }

  var body: some ReducerOf<Self> {
    EmptyReducer()
      .forEach(\.path, action: .case(Action.path)) {}
  }
}

@MainActor
@Suite struct StackReducerTests {
  private static func threeScreens() -> Navigator.State {
    Navigator.State(path: StackState([Screen.State(), Screen.State(), Screen.State()]))
  }

  @Test func anElementActionRunsTheElementThenTheParent() {
    let store = Store(initialState: Self.threeScreens()) { Navigator() }
    store.send(.path(.element(id: 1, action: .incrementTapped)))
    #expect(store.state.path.map(\.count) == [0, 1, 0])
    #expect(store.state.log == ["parent saw #1 at 1"])
  }

  @Test func anElementsEffectsSendItsActionsBackToIt() {
    let store = Store(initialState: Self.threeScreens()) { Navigator() }
    store.send(.path(.element(id: 2, action: .pingTapped)))
    #expect(store.state.path[id: 2]?.log == ["pong"])
    #expect(store.state.path[id: 1]?.log == [])
  }

  @Test func pushAddsTheElementThenRunsTheParent() {
    let store = Store(initialState: Navigator.State()) { Navigator() }
    store.send(.path(.push(id: 0, state: Screen.State(count: 5))))
    #expect(store.state.path.ids == [0])
    #expect(store.state.path[id: 0] == Screen.State(count: 5))
    #expect(store.state.log == ["pushed #0 of 1"])
  }

  @Test func aPushedIDIsNotGivenOutAgain() {
    let store = Store(initialState: Navigator.State()) { Navigator() }
    store.send(.path(.push(id: 0, state: Screen.State())))
    store.send(.pushTapped)
    #expect(store.state.path.ids == [0, 1])
  }

  @Test func popFromRunsTheParentThenPopsTheElementAndThoseAboveIt() {
    let store = Store(initialState: Self.threeScreens()) { Navigator() }
    store.send(.path(.popFrom(id: 1)))
    #expect(store.state.path.ids == [0])
    #expect(store.state.log == ["popping #1 of 3"])
  }

  @Test func dismissInsideAnElementPopsItAndThoseAboveIt() async {
    let store = Store(initialState: Self.threeScreens()) { Navigator() }
    await store.send(.path(.element(id: 1, action: .closeTapped))).finish()
    #expect(store.state.path.ids == [0])
    #expect(store.state.log == ["popping #1 of 3"])
  }

  @Test func poppingCancelsThePoppedElementsEffectsAndNoOthers() async {
    let store = Store(initialState: Self.threeScreens()) { Navigator() }
    let bottom = store.send(.path(.element(id: 0, action: .longTask)))
    let top = store.send(.path(.element(id: 2, action: .longTask)))
    store.send(.path(.popFrom(id: 1)))
    let topCancelled = top.isCancelled
    let bottomCancelled = bottom.isCancelled
    // NB: so that the test ends even when the store did not cancel them.
    top.cancel()
    bottom.cancel()
    await top.finish()
    await bottom.finish()
    #expect(topCancelled)
    #expect(!bottomCancelled)
    #expect(store.state.path.ids == [0])
  }

  @Test func anElementTheParentRemovesHasItsEffectsCancelled() async {
    let store = Store(initialState: Self.threeScreens()) { Navigator() }
    let task = store.send(.path(.element(id: 2, action: .longTask)))
    store.send(.popLastTapped)
    let cancelledByTheStore = task.isCancelled
    task.cancel()  // NB: so that the test ends even when the store did not cancel it.
    await task.finish()
    #expect(cancelledByTheStore)
    #expect(store.state.path.ids == [0, 1])
  }

  @Test func replacingTheStackCancelsTheEffectsOfEveryElementItHeld() async {
    let store = Store(initialState: Self.threeScreens()) { Navigator() }
    let task = store.send(.path(.element(id: 0, action: .longTask)))
    store.send(.replaceTapped)
    let cancelledByTheStore = task.isCancelled
    task.cancel()  // NB: so that the test ends even when the store did not cancel it.
    await task.finish()
    #expect(cancelledByTheStore)
    #expect(store.state.path.ids == [3])
    #expect(store.state.path[id: 3] == Screen.State(count: 9))
  }

  @Test func poppingAnElementCancelsTheEffectsOfTheStackItHolds() async {
    // NB: built outside the store, each stack numbers its elements from 0.
    let screens = Nested.State(path: StackState([Self.threeScreens(), Self.threeScreens()]))
    let store = Store(initialState: screens) { Nested() }
    let inner = store.send(
      .path(.element(id: 1, action: .path(.element(id: 2, action: .longTask)))))
    let outer = store.send(
      .path(.element(id: 0, action: .path(.element(id: 2, action: .longTask)))))
    store.send(.path(.popFrom(id: 1)))
    let innerCancelled = inner.isCancelled
    let outerCancelled = outer.isCancelled
    inner.cancel()  // NB: so that the test ends even when the store did not cancel them.
    outer.cancel()
    await inner.finish()
    await outer.finish()
    #expect(innerCancelled)
    #expect(!outerCancelled)
    #expect(store.state.path.ids == [0])
  }

  @Test func anElementClosingItselfCancelsItsOtherEffects() async {
    let store = Store(initialState: Self.threeScreens()) { Navigator() }
    let task = store.send(.path(.element(id: 2, action: .longTask)))
    await store.send(.path(.element(id: 2, action: .closeTapped))).finish()
    await task.finish()
    #expect(store.state.path.ids == [0, 1])
  }

  @Test func anActionForAMissingElementIsReported() {
    let issues = IssueCollector()
    let store = Store(initialState: Self.threeScreens()) { Navigator() }
    withIssueReporter(issues) { store.send(.path(.element(id: 9, action: .incrementTapped))) }
    #expect(
      issues.messages == [
        """
        A 'forEach' at 'LoopTests/StackReducerTests.swift:73' received an action for a missing \
        stack element (id: #9):

            Navigator.Action.path(
              .element(
                id: #9,
                action: .incrementTapped
              )
            )

        The element was popped before this 'forEach' ran (a reducer before it popped it), an \
        effect of the element outlived it, or the action was sent for an id the stack never \
        held. To fix, run 'forEach' after the reducers that pop elements, and send an element's \
        actions only while the stack holds it.
        """
      ])
    #expect(issues.locations.map(\.line) == [73])
    #expect(store.state.path == Self.threeScreens().path)
    #expect(store.state.log == ["parent saw #9 at -1"])
  }

  @Test func aStackReportsAtTheFilePathLineAndColumnOfItsCall() {
    let issues = IssueCollector()
    let store = Store(initialState: Self.threeScreens()) { Navigator() }
    withIssueReporter(issues) { store.send(.path(.element(id: 9, action: .incrementTapped))) }
    #expect(
      issues.locations == [
        IssueLocation(fileID: #fileID, filePath: #filePath, line: 73, column: 13)
      ])
  }

  @Test func popFromForAMissingElementIsReportedAndPopsNothing() {
    let issues = IssueCollector()
    let store = Store(initialState: Numbers.State(path: StackState([1, 2]))) { Numbers() }
    withIssueReporter(issues) { store.send(.path(.popFrom(id: 9))) }
    #expect(
      issues.messages == [
        """
        A 'forEach' at 'LoopTests/StackReducerTests.swift:123' received a 'popFrom' action for a \
        missing stack element (id: #9); the stack holds [#0, #1].

        To fix, pop only elements the stack holds: 'popFrom(id:)' with an id of 'ids'.
        """
      ])
    #expect(store.state.path == StackState([1, 2]))
  }

  @Test func pushingAnIDTheStackHoldsIsReportedAndPushesNothing() {
    let issues = IssueCollector()
    let store = Store(initialState: Numbers.State(path: StackState([1]))) { Numbers() }
    withIssueReporter(issues) { store.send(.path(.push(id: 0, state: 7))) }
    #expect(
      issues.messages == [
        """
        A 'forEach' at 'LoopTests/StackReducerTests.swift:123' received a 'push' action for an \
        id the stack holds already (id: #0); the stack holds [#0]. Nothing was pushed.

        To fix, push each element under a new id.
        """
      ])
    #expect(store.state.path == StackState([1]))
  }

  @Test func pushingAnIDAheadOfATestsCountIsReported() {
    let issues = IssueCollector()
    let store = Store(initialState: Numbers.State()) { Numbers() }
    withIssueReporter(issues) { store.send(.path(.push(id: 2, state: 7))) }
    #expect(
      issues.messages == [
        """
        A 'forEach' at 'LoopTests/StackReducerTests.swift:123' received a 'push' action with id \
        #2, but the next id of this store is #0.

        In a test, a store numbers stack elements 0, 1, 2… in the order they are added. To fix, \
        push under the next id, #0.
        """
      ])
    #expect(store.state.path.ids == [2])
  }

  @Test func aScreenMayHoldAStackOfScreensLikeItself() {
    let store = Store(initialState: Folder.State(name: "Home")) { Folder() }
    store.send(.openTapped("Music"))
    store.send(.path(.element(id: 0, action: .openTapped("Jazz"))))
    #expect(store.state.path[id: 0]?.path.map(\.name) == ["Jazz"])
    #expect(store.state.path[id: 0]?.path.ids == [1])
  }

  @Test func aStackWithoutAnElementReducerStillPushesAndPops() {
    let store = Store(initialState: Numbers.State()) { Numbers() }
    store.send(.path(.push(id: 0, state: 1)))
    store.send(.path(.push(id: 1, state: 2)))
    store.send(.path(.popFrom(id: 1)))
    #expect(store.state.path == StackState([1]))
  }
}
