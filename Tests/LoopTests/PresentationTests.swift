import Loop
import Synchronization
import TestSupport
import Testing

/// A parent that presents the editor.
private struct Parent: Reducer {
  struct State: Equatable {
    @Presents var editor: Note.State? = nil
    var log: [String] = []
  }
  enum Action: Equatable {
    case addTapped
    case clearTapped
    case editor(PresentationAction<Note.Action>)
    case replaceTapped(id: Int)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .addTapped:
        state.editor = Note.State()
      case .clearTapped:
        state.editor = nil
      case .editor(.dismiss):
        state.log.append("dismissing '\(state.editor?.text ?? "nothing")'")
      case .editor(.presented(.textChanged)):
        state.log.append("parent saw '\(state.editor?.text ?? "nothing")'")
      case .editor:
        break
      case .replaceTapped(let id):
        state.editor = Note.State(id: id)
      }
      return .none
    }
    .ifLet(\.$editor, action: .case(Action.editor)) { Note() }
  }
}

@MainActor
@Suite struct PresentationTests {
  @Test func presentedChildRunsBeforeTheParent() {
    let store = Store(initialState: Parent.State()) { Parent() }
    store.send(.addTapped)
    store.send(.editor(.presented(.textChanged("draft"))))
    #expect(store.state.editor == Note.State(text: "draft"))
    #expect(store.state.log == ["parent saw 'draft'"])
  }

  @Test func dismissLetsTheParentSeeTheChildThenClosesIt() {
    let store = Store(initialState: Parent.State(editor: Note.State(text: "draft"))) {
      Parent()
    }
    store.send(.editor(.dismiss))
    #expect(store.state.editor == nil)
    #expect(store.state.log == ["dismissing 'draft'"])
  }

  @Test func aChildDismissesItselfFromAnEffect() async {
    let store = Store(initialState: Parent.State(editor: Note.State(text: "draft"))) {
      Parent()
    }
    await store.send(.editor(.presented(.closeTapped))).finish()
    #expect(store.state.editor == nil)
    #expect(store.state.log == ["dismissing 'draft'"])
  }

  @Test func dismissingCancelsTheChildsEffects() async {
    let store = Store(initialState: Parent.State(editor: Note.State())) { Parent() }
    let task = store.send(.editor(.presented(.longTask)))
    store.send(.editor(.dismiss))
    let cancelledByTheStore = task.isCancelled
    task.cancel()  // NB: so that the test ends even when the store did not cancel it.
    await task.finish()
    #expect(cancelledByTheStore)
    #expect(store.state.editor == nil)
  }

  @Test func aChildClosingItselfCancelsItsOtherEffects() async {
    let store = Store(initialState: Parent.State(editor: Note.State())) { Parent() }
    let longTask = store.send(.editor(.presented(.longTask)))
    await store.send(.editor(.presented(.closeTapped))).finish()
    let cancelledByTheStore = longTask.isCancelled
    longTask.cancel()
    await longTask.finish()
    #expect(cancelledByTheStore)
    #expect(store.state.log == ["dismissing ''"])
  }

  @Test func settingTheChildToNilCancelsItsEffects() async {
    let store = Store(initialState: Parent.State(editor: Note.State())) { Parent() }
    let task = store.send(.editor(.presented(.longTask)))
    store.send(.clearTapped)
    let cancelledByTheStore = task.isCancelled
    task.cancel()
    await task.finish()
    #expect(cancelledByTheStore)
  }

  @Test func replacingTheChildWithAnotherIDCancelsItsEffects() async {
    let store = Store(initialState: Parent.State(editor: Note.State(id: 1))) { Parent() }
    let task = store.send(.editor(.presented(.longTask)))
    store.send(.replaceTapped(id: 1))
    #expect(!task.isCancelled)
    store.send(.replaceTapped(id: 2))
    let cancelledByTheStore = task.isCancelled
    task.cancel()
    await task.finish()
    #expect(cancelledByTheStore)
    #expect(store.state.editor == Note.State(id: 2))
  }

  @Test func aPresentationReportsAtTheFilePathLineAndColumnOfItsCall() {
    let issues = IssueCollector()
    let store = Store(initialState: Parent.State()) { Parent() }
    withIssueReporter(issues) { store.send(.editor(.dismiss)) }
    #expect(
      issues.locations == [
        IssueLocation(fileID: #fileID, filePath: #filePath, line: 37, column: 11)
      ])
  }

  @Test func anActionForAnAbsentChildIsReported() {
    let issues = IssueCollector()
    let store = Store(initialState: Parent.State()) { Parent() }
    withIssueReporter(issues) {
      store.send(.editor(.presented(.textChanged("late"))))
      store.send(.editor(.dismiss))
    }
    #expect(
      issues.messages == [
        """
        An 'ifLet' at 'LoopTests/PresentationTests.swift:37' received a presentation action \
        when nothing was presented:

            Parent.Action.editor(.presented(.textChanged("late")))

        This is usually an effect that outlived its child, or an action sent after the child \
        was dismissed. To fix, send the child's actions only while it is presented; its \
        effects are cancelled when it is dismissed.
        """,
        """
        An 'ifLet' at 'LoopTests/PresentationTests.swift:37' received a presentation action \
        when nothing was presented:

            Parent.Action.editor(.dismiss)

        This is usually an effect that outlived its child, or an action sent after the child \
        was dismissed. To fix, send the child's actions only while it is presented; its \
        effects are cancelled when it is dismissed.
        """,
      ])
    #expect(store.state == Parent.State(log: ["parent saw 'nothing'", "dismissing 'nothing'"]))
  }

  @Test func dismissOutsideAPresentedChildReportsWhereItWasCalled() async {
    let issues = IssueCollector()
    let store = Store(initialState: Note.State()) { Note() }
    await withIssueReporter(issues) { await store.send(.closeTapped).finish() }
    #expect(
      issues.messages == [
        """
        'dismiss' was called at 'LoopTests/Support.swift:28' outside a presented \
        child.

        It closes a child presented with '@Presents' and 'ifLet(\\.$child, action:then:)' when \
        one of that child's effects calls it; here there is none, so nothing was closed.

        To fix, call 'dismiss' only from a presented child's effects, or give the test of a \
        child alone a 'DismissEffect' of its own: '$0.dismiss = DismissEffect { … }'.
        """
      ])
  }

  @Test func aChildAloneUsesTheDismissEffectItIsGiven() async {
    let dismissals = Log<String>()
    let store = Store(initialState: Note.State()) {
      Note()
    } withDependencies: {
      $0.dismiss = DismissEffect { dismissals.append("dismissed") }
    }
    await store.send(.closeTapped).finish()
    #expect(dismissals.values == ["dismissed"])
  }

  @Test func theStateDiffShowsPresentedStateAsDeclared() {
    let diff = Diff.lines(Parent.State(), Parent.State(editor: Note.State(text: "a")))
    #expect(
      diff == """
          Parent.State(
        −   editor: nil,
        +   editor: Note.State(
        +     id: 1,
        +     text: "a"
        +   ),
            log: []
          )
        """)
  }
}

/// A parent whose sibling reducer, after the `ifLet`, can close the editor behind its back.
private struct Desk: Reducer {
  struct State: Equatable {
    @Presents var editor: Note.State? = nil
    var ticks = 0
  }
  enum Action: Equatable {
    case clearedElsewhere
    case editor(PresentationAction<Note.Action>)
    case ticked
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .ticked = action { state.ticks += 1 }
      return .none
    }
    .ifLet(\.$editor, action: .case(Action.editor)) { Note() }
    Reduce { state, action in
      if case .clearedElsewhere = action { state.editor = nil }
      return .none
    }
  }
}

/// A feature that presents itself, to any depth.
private struct Folder: Reducer {
  struct State: Equatable {
    var name: String
    @Presents var subfolder: State? = nil
  }
  enum Action: Equatable {
    case openTapped(String)
    case renamed(String)
    case subfolder(PresentationAction<Action>)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .openTapped(let name):
        state.subfolder = State(name: name)
      case .renamed(let name):
        state.name = name
      case .subfolder:
        break
      }
      return .none
    }
    .ifLet(\.$subfolder, action: .case(Action.subfolder)) { Folder() }
  }
}

/// A value whose `==` counts its calls.
private struct Counted: Equatable {
  static let comparisons = Mutex(0)
  var value = 0

  static func == (lhs: Self, rhs: Self) -> Bool {
    comparisons.withLock { $0 += 1 }
    return lhs.value == rhs.value
  }
}

@MainActor
@Suite struct PresentationEdgeTests {
  @Test func aChildSetToNilOutsideItsIfLetHasItsEffectsCancelledOnTheNextAction() async {
    let store = Store(initialState: Desk.State(editor: Note.State())) { Desk() }
    let task = store.send(.editor(.presented(.longTask)))
    store.send(.clearedElsewhere)
    let cancelledBeforeTheIfLetRanAgain = task.isCancelled
    store.send(.ticked)
    let cancelledByTheStore = task.isCancelled
    task.cancel()  // NB: so that the test ends even when the store did not cancel it.
    await task.finish()
    #expect(!cancelledBeforeTheIfLetRanAgain)
    #expect(cancelledByTheStore)
    #expect(store.state == Desk.State(ticks: 1))
  }

  @Test func copiesOfOnePresentationAreEqualWithoutComparingTheChild() {
    let presented = Presents(wrappedValue: Counted())
    let copy = presented
    let before = Counted.comparisons.withLock { $0 }
    #expect(presented == copy)
    #expect(Counted.comparisons.withLock { $0 } == before)
    var changed = copy
    changed.wrappedValue?.value = 1
    #expect(presented != changed)
    #expect(Counted.comparisons.withLock { $0 } == before + 1)
    #expect(presented.wrappedValue == Counted())
  }

  @Test func aFeaturePresentsItselfToAnyDepth() {
    let store = Store(initialState: Folder.State(name: "root")) { Folder() }
    store.send(.openTapped("a"))
    store.send(.subfolder(.presented(.openTapped("b"))))
    store.send(.subfolder(.presented(.subfolder(.presented(.renamed("b2"))))))
    #expect(store.state.subfolder?.subfolder?.name == "b2")
    store.send(.subfolder(.presented(.subfolder(.dismiss))))
    #expect(
      store.state
        == Folder.State(name: "root", subfolder: Folder.State(name: "a")))
  }
}
