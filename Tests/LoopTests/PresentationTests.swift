import Loop
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
        An 'ifLet' at 'LoopTests/PresentationTests.swift:35' received a presentation action \
        when nothing was presented:

            Parent.Action.editor(.presented(.textChanged("late")))

        This is usually an effect that outlived its child, or an action sent after the child \
        was dismissed. To fix, send the child's actions only while it is presented; its \
        effects are cancelled when it is dismissed.
        """,
        """
        An 'ifLet' at 'LoopTests/PresentationTests.swift:35' received a presentation action \
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
        'dismiss' was called at 'LoopTests/Support.swift:63' outside a presented \
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
