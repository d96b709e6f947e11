import Loop
import Testing

private struct Row: Reducer {
  struct State: Equatable, Identifiable {
    let id: Int
    var taps = 0
  }
  enum Action: Equatable { case tapped, longTask, finished }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .tapped:
      state.taps += 1
      return .none
    case .longTask:
      return .run { send in
        await waitForCancellation()
        await send(.finished)
      }
    case .finished:
      state.taps = -1
      return .none
    }
  }
}

private struct List: Reducer {
  struct State: Equatable {
    var rows: IdentifiedArrayOf<Row.State> = []
    var detail: Row.State?
    var log: [String] = []
  }
  enum Action: Equatable {
    case rows(IdentifiedActionOf<Row>)
    case detail(Row.Action)
    case remove(Int)
    case replaceRows([Int])
    case showDetail(Int)
    case dismissDetail
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .rows(.element(let id, .tapped)):
        state.log.append("parent saw row \(id) tapped: \(state.rows[id: id]?.taps ?? 0)")
      case .remove(let id):
        state.rows.remove(id: id)
      case .replaceRows(let ids):
        state.rows = IdentifiedArray(uniqueElements: ids.map { Row.State(id: $0) })
      case .showDetail(let id):
        state.detail = Row.State(id: id)
      case .dismissDetail:
        state.detail = nil
      case .rows, .detail:
        break
      }
      return .none
    }
    .forEach(\.rows, action: .case(Action.rows)) { Row() }
    .ifLet(\.detail, action: .case(Action.detail)) { Row() }
  }
}

@MainActor
@Suite struct ReducerTests {
  @Test func forEachRunsTheElementReducerBeforeTheParent() {
    let store = Store(initialState: List.State(rows: [Row.State(id: 1), Row.State(id: 2)])) {
      List()
    }
    store.send(.rows(.element(id: 2, action: .tapped)))
    #expect(store.state.rows[id: 2]?.taps == 1)
    #expect(store.state.rows[id: 1]?.taps == 0)
    #expect(store.state.log == ["parent saw row 2 tapped: 1"])
  }

  @Test func forEachReportsAnActionForAMissingElement() {
    let issues = IssueCollector()
    let store = Store(initialState: List.State(rows: [Row.State(id: 1)])) { List() }
    withIssueReporter(issues) { store.send(.rows(.element(id: 9, action: .tapped))) }
    #expect(
      issues.messages == [
        """
        A 'forEach' at 'LoopTests/ReducerTests.swift:61' received an action for a missing \
        element (id: 9):

            List.Action.rows(
              .element(
                id: 9,
                action: .tapped
              )
            )

        This is usually an effect that outlived its element, or an action sent after the \
        element was removed. To fix, send element actions only for elements in the array.
        """
      ])
    #expect(store.state.rows == [Row.State(id: 1)])
  }

  @Test func forEachReportsAtTheFilePathLineAndColumnOfItsCall() {
    let issues = IssueCollector()
    let store = Store(initialState: List.State()) { List() }
    withIssueReporter(issues) { store.send(.rows(.element(id: 9, action: .tapped))) }
    // NB: the column of a call, for the compiler, is where its arguments start: the opening
    // parenthesis, or the brace of a trailing closure.
    #expect(
      issues.locations == [
        IssueLocation(fileID: #fileID, filePath: #filePath, line: 61, column: 13)
      ])
  }

  @Test func ifLetRunsTheChildWhenPresent() {
    let store = Store(initialState: List.State(detail: Row.State(id: 5))) { List() }
    store.send(.detail(.tapped))
    #expect(store.state.detail?.taps == 1)
  }

  @Test func ifLetReportsAChildActionWhenTheChildIsAbsent() {
    let issues = IssueCollector()
    let store = Store(initialState: List.State()) { List() }
    withIssueReporter(issues) { store.send(.detail(.tapped)) }
    #expect(
      issues.messages == [
        """
        An 'ifLet' at 'LoopTests/ReducerTests.swift:62' received a child action when the \
        child state was nil:

            List.Action.detail(.tapped)

        This is usually an effect that outlived its child, or an action sent after the child \
        was dismissed. To fix, send child actions only while the child state is present, or \
        cancel the child's effects when dismissing it.
        """
      ])
    #expect(store.state == List.State())
  }

  @Test func ifLetReportsAtTheFilePathLineAndColumnOfItsCall() {
    let issues = IssueCollector()
    let store = Store(initialState: List.State()) { List() }
    withIssueReporter(issues) { store.send(.detail(.tapped)) }
    #expect(
      issues.locations == [
        IssueLocation(fileID: #fileID, filePath: #filePath, line: 62, column: 11)
      ])
  }

  @Test func removingAnElementCancelsItsEffects() async {
    let store = Store(initialState: List.State(rows: [Row.State(id: 1), Row.State(id: 2)])) {
      List()
    }
    let task = store.send(.rows(.element(id: 1, action: .longTask)))
    store.send(.remove(1))
    await task.finish()
    #expect(store.state.rows == [Row.State(id: 2)])
  }

  @Test func replacingTheElementsCancelsTheEffectsOfThoseThatLeft() async {
    let issues = IssueCollector()
    let store = Store(initialState: List.State(rows: [Row.State(id: 1), Row.State(id: 2)])) {
      List()
    }
    let leaving = store.send(.rows(.element(id: 1, action: .longTask)))
    let staying = store.send(.rows(.element(id: 2, action: .longTask)))
    store.send(.replaceRows([2, 3]))
    await leaving.finish()
    #expect(!staying.isCancelled)
    staying.cancel()
    await withIssueReporter(issues) { await staying.finish() }
    #expect(issues.messages.isEmpty)
  }

  @Test func dismissingTheChildCancelsItsEffects() async {
    let store = Store(initialState: List.State(detail: Row.State(id: 5))) { List() }
    let task = store.send(.detail(.longTask))
    store.send(.dismissDetail)
    await task.finish()
    #expect(store.state.detail == nil)
  }

  @Test func replacingTheChildWithAnotherIDCancelsTheOldChildsEffects() async {
    let store = Store(initialState: List.State(detail: Row.State(id: 5))) { List() }
    let task = store.send(.detail(.longTask))
    store.send(.showDetail(6))
    let cancelledByTheStore = task.isCancelled
    task.cancel()  // NB: so that the test ends even when the store did not cancel it.
    await task.finish()
    #expect(cancelledByTheStore)
    // The old child's effect sent nothing into the new child.
    #expect(store.state.detail == Row.State(id: 6))
  }

  @Test func replacingTheChildWithOneOfTheSameIDKeepsItsEffects() async {
    let store = Store(initialState: List.State(detail: Row.State(id: 5, taps: 3))) { List() }
    let task = store.send(.detail(.longTask))
    store.send(.showDetail(5))
    #expect(!task.isCancelled)
    #expect(store.state.detail == Row.State(id: 5))
    task.cancel()
    await task.finish()
  }

  @Test func builderSupportsIfElseOptionalAndLoops() {
    struct Feature: Reducer {
      let doubling: Bool
      let extraSteps: Int
      let logging: Bool

      var body: some Reducer<[String], String> {
        if doubling {
          Reduce { state, action in
            state.append(action + action)
            return .none
          }
        } else {
          Reduce { state, action in
            state.append(action)
            return .none
          }
        }
        for step in 0..<extraSteps {
          Reduce { state, _ in
            state.append("step \(step)")
            return .none
          }
        }
        if logging {
          Reduce { state, _ in
            state.append("logged")
            return .none
          }
        }
        EmptyReducer()
      }
    }
    var state: [String] = []
    _ = Feature(doubling: true, extraSteps: 2, logging: false).reduce(into: &state, action: "a")
    _ = Feature(doubling: false, extraSteps: 0, logging: true).reduce(into: &state, action: "b")
    #expect(state == ["aa", "step 0", "step 1", "b", "logged"])
  }

  @Test func combineReducersRunsInOrderAndMergesEffects() async {
    let store = Store(initialState: [String]()) {
      CombineReducers {
        Reduce<[String], String> { state, action in
          state.append("first \(action)")
          return action == "go" ? .send("sent") : .none
        }
        Reduce<[String], String> { state, action in
          state.append("second \(action)")
          return .none
        }
      }
    }
    store.send("go")
    #expect(store.state == ["first go", "second go", "first sent", "second sent"])
  }

  @MainActor @Test func aChildsBodyIsBuiltWhenItsFirstActionArrivesAndOnce() {
    let builds = LockIsolated(0)
    let store = Store(initialState: Counted.State()) { Counted(builds: builds) }
    store.send(.other)
    #expect(builds.value == 0)
    store.send(.child(.increment))
    store.send(.child(.increment))
    #expect(builds.value == 1)
    #expect(store.state.child.count == 2)
  }

  @Test func scopeIgnoresOtherActions() {
    var state = List.State(rows: [Row.State(id: 1)])
    let scope = Scope(state: \List.State.rows, action: .case(List.Action.rows)) {
      EmptyReducer<IdentifiedArrayOf<Row.State>, IdentifiedActionOf<Row>>()
    }
    let effect = scope.reduce(into: &state, action: .remove(1))
    #expect(effect.isSynchronous)
    #expect(state.rows.count == 1)
  }
}

/// A parent whose child counts how many times its body is built.
private struct Counted: Reducer {
  struct State: Equatable {
    var child = Child.State()
  }
  enum Action: Equatable {
    case child(Child.Action)
    case other
  }
  struct Child: Reducer {
    struct State: Equatable { var count = 0 }
    enum Action: Equatable { case increment }
    let builds: LockIsolated<Int>
    var body: some ReducerOf<Self> {
      let _ = builds.withValue { $0 += 1 }
      Reduce { state, _ in
        state.count += 1
        return .none
      }
    }
  }
  let builds: LockIsolated<Int>
  var body: some ReducerOf<Self> {
    Scope(state: \.child, action: .case(Action.child)) { Child(builds: builds) }
  }
}

@Suite struct CasePathTests {
  enum Action: Equatable {
    case a(Int)
    case b(Int)
    case pair(Int, String)
    case plain
    case other
  }

  @Test func reflectionExtractsOnlyItsOwnCase() {
    let a = CasePath<Action, Int>.case(Action.a)
    #expect(a.extract(.a(1)) == 1)
    #expect(a.extract(.b(1)) == nil, "same payload type, other case")
    #expect(a.extract(.plain) == nil)
    #expect(a.embed(3) == .a(3))
  }

  @Test func reflectionHandlesTuplePayloads() {
    let pair = CasePath<Action, (Int, String)>.case(Action.pair)
    let value = pair.extract(.pair(1, "x"))
    #expect(value?.0 == 1 && value?.1 == "x")
  }

  @Test func payloadFreeCasesMatchByName() {
    let plain = CasePath<Action, Void>.case(Action.plain)
    #expect(plain.matches(.plain))
    #expect(!plain.matches(.other))
    #expect(plain.embed(()) == .plain)
  }

  @Test func explicitExtractionIsUsedAsGiven() {
    let b = CasePath<Action, Int>.case(Action.b) {
      if case .b(let value) = $0 { value } else { nil }
    }
    #expect(b.extract(.b(2)) == 2)
    #expect(b.extract(.a(2)) == nil)
  }
}
