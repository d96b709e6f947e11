import Foundation
import LoopTesting
import Testing

/// A list of todos whose state, built by its initializer, reads the injected ids.
private struct Todos: Reducer {
  struct Todo: Equatable, Identifiable {
    let id: UUID
    var title: String
  }

  struct State: Equatable {
    var createdAt: Date
    var todos: [Todo]
    var log: [String] = []

    init(titles: [String] = ["a", "b", "c"]) {
      @Dependency(\.date.now) var now: Date
      @Dependency(\.uuid) var uuid
      self.createdAt = now
      self.todos = titles.map { Todo(id: uuid(), title: $0) }
    }
  }

  enum Action: Equatable {
    case addTapped
    case deleteTapped(Int)
    case logged(String)
    case view(View)

    enum View: Equatable {
      case renamed(index: Int, title: String)
    }
  }

  @Dependency(\.uuid) var uuid

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .addTapped:
      state.todos.append(Todo(id: uuid(), title: "new"))
      return .send(.logged("added"))
    case .deleteTapped(let index):
      state.todos.remove(at: index)
      return .none
    case .logged(let entry):
      state.log.append(entry)
      return .none
    case .view(.renamed(let index, let title)):
      state.todos[index].title = title
      return .none
    }
  }
}

/// How `send`, `receive` and `assert` check their closures, and what `state` reads.
@MainActor
@Suite struct TestStoreAssertionTests {
  @Test func theInitialStateIsBuiltWithTheStoresDependencies() async {
    let issues = await capturingIssues {
      let store = TestStore(initialState: Todos.State(titles: ["a"])) {
        Todos()
      } withDependencies: {
        $0.date.now = Date(timeIntervalSince1970: 1_234_567_890)
        $0.uuid = .incrementing
      }
      #expect(store.state.createdAt == Date(timeIntervalSince1970: 1_234_567_890))
      #expect(store.state.todos.map(\.id) == [UUID(0)])
      await store.send(.addTapped) {
        @Dependency(\.date.now) var now: Date
        $0.todos.append(Todos.Todo(id: UUID(1), title: "new"))
        #expect(now == Date(timeIntervalSince1970: 1_234_567_890))
      }
      await store.receive(.logged("added")) { $0.log = ["added"] }
    }
    #expect(issues.messages.isEmpty)
  }

  @Test func anExhaustiveClosureRunsOnceOnTheExpectedState() async {
    var runs = 0
    let issues = await capturingIssues {
      let store = TestStore(initialState: Todos.State()) {
        Todos()
      } withDependencies: {
        $0.date.now = Date(timeIntervalSince1970: 0)
        $0.uuid = .incrementing
      }
      await store.send(.deleteTapped(1)) {
        runs += 1
        $0.todos = [$0.todos[0], $0.todos[2]]
      }
    }
    #expect(runs == 1)
    #expect(issues.messages.isEmpty)
  }

  @Test func aNonExhaustiveClosureRunsOnceOnTheActualState() async {
    var runs: [[String]] = []
    let issues = await capturingIssues {
      let store = TestStore(initialState: Todos.State()) {
        Todos()
      } withDependencies: {
        $0.date.now = Date(timeIntervalSince1970: 0)
        $0.uuid = .incrementing
      }
      store.exhaustivity = .off
      await store.send(.deleteTapped(1)) {
        runs.append($0.todos.map(\.title))
        $0.todos[1].title = "c"
      }
    }
    #expect(runs == [["a", "c"]])
    #expect(issues.messages.isEmpty)
  }

  @Test func showingSkippedAssertionsRunsTheClosureAgainOnTheExpectedState() async {
    var runs: [[String]] = []
    let issues = await capturingIssues {
      let store = TestStore(initialState: Todos.State()) {
        Todos()
      } withDependencies: {
        $0.date.now = Date(timeIntervalSince1970: 0)
        $0.uuid = .incrementing
      }
      store.exhaustivity = .off(showSkippedAssertions: true)
      await store.send(.view(.renamed(index: 0, title: "A"))) {
        runs.append($0.todos.map(\.title))
        $0.todos[0].title = "A"
      }
      await store.send(.addTapped)
      await store.receive(.logged("added")) {
        runs.append($0.log)
      }
    }
    #expect(runs == [["A", "b", "c"], ["a", "b", "c"], ["added"], []])
    #expect(issues.messages.isEmpty)
    #expect(issues.knownIssues.count == 2)
  }

  @Test func stateReadsTheAssertedStateAndInsideAClosureTheStateBeforeTheStep() async {
    var inside: [[String]] = []
    let issues = await capturingIssues {
      let store = TestStore(initialState: Todos.State(titles: [])) {
        Todos()
      } withDependencies: {
        $0.date.now = Date(timeIntervalSince1970: 0)
        $0.uuid = .incrementing
      }
      await store.send(.addTapped) {
        inside.append(store.state.log + store.state.todos.map(\.title))
        $0.todos = [Todos.Todo(id: UUID(0), title: "new")]
      }
      #expect(store.state.log == [])
      #expect(store.state.todos.map(\.title) == ["new"])
      await store.receive(.logged("added")) {
        inside.append(store.state.log + store.state.todos.map(\.title))
        $0.log = ["added"]
      }
      #expect(store.state.log == ["added"])
    }
    #expect(inside == [[], ["new"]])
    #expect(issues.messages.isEmpty)
  }

  @Test func actionsASendMustHandleFirstAreKeptAndCanStillBeReceived() async {
    let issues = await capturingIssues {
      let store = TestStore(initialState: Todos.State(titles: [])) {
        Todos()
      } withDependencies: {
        $0.date.now = Date(timeIntervalSince1970: 0)
        $0.uuid = .incrementing
      }
      await store.send(.addTapped) { $0.todos = [Todos.Todo(id: UUID(0), title: "new")] }
      await store.send(.view(.renamed(index: 0, title: "first"))) {
        $0.todos[0].title = "first"
      }
      await store.receive(.logged("added")) { $0.log = ["added"] }
      #expect(store.state.log == ["added"])
      #expect(store.state.todos.map(\.title) == ["first"])
    }
    #expect(
      issues.messages == [
        """
        Must handle 1 received action before sending an action.

        Unhandled actions:
          • Todos.Action.logged("added")

        To fix, assert each with 'receive' before sending, or call 'skipReceivedActions()'.
        """
      ])
  }

  @Test func receivingTheWrongActionReportsOnlyThatMismatch() async {
    let issues = await capturingIssues {
      let store = TestStore(initialState: Todos.State(titles: [])) {
        Todos()
      } withDependencies: {
        $0.date.now = Date(timeIntervalSince1970: 0)
        $0.uuid = .incrementing
      }
      await store.send(.addTapped) { $0.todos = [Todos.Todo(id: UUID(0), title: "new")] }
      await store.receive(.logged("removed"))
      await store.send(.deleteTapped(0)) { $0.todos = [] }
    }
    #expect(
      issues.messages == [
        """
        Received unexpected action.

          − Todos.Action.logged("removed")
          + Todos.Action.logged("added")

        (Expected: −, Received: +)

        To fix, expect the action the effect sent, or change the effect.
        """
      ])
  }

  @Test func sendTakesACasePathAndAPayloadForNestedActions() async {
    let issues = await capturingIssues {
      let store = TestStore(initialState: Todos.State(titles: ["a"])) {
        Todos()
      } withDependencies: {
        $0.date.now = Date(timeIntervalSince1970: 0)
        $0.uuid = .incrementing
      }
      let renamed = CasePath<Todos.Action, Todos.Action.View>.case(Todos.Action.view)
        .appending(path: .case(Todos.Action.View.renamed))
      await store.send(renamed, (index: 0, title: "b")) { $0.todos[0].title = "b" }
      await store.send(.case(Todos.Action.deleteTapped), 0) { $0.todos = [] }
    }
    #expect(issues.messages.isEmpty)
  }
}
