import Loop
import Testing

/// A form: two fields set by bindings, and a note of which field the reducer saw change.
private struct Form: Reducer {
  struct State: Equatable {
    var title = ""
    var count = 0
    var titleEdits = 0
  }

  enum Action: Equatable, BindableAction {
    case binding(BindingAction<State>)
    case resetTapped
  }

  var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .binding(\.title):
        state.titleEdits += 1
        return .none
      case .binding:
        return .none
      case .resetTapped:
        state.title = ""
        return .none
      }
    }
  }
}

@MainActor
@Suite struct BindingTests {
  @Test func aBindingActionSetsItsField() {
    let store = Store(initialState: Form.State()) { Form() }
    store.send(.binding(.set(\.title, "Groceries")))
    store.send(.binding(.set(\.count, 3)))
    #expect(store.state == Form.State(title: "Groceries", count: 3, titleEdits: 1))
  }

  @Test func theFieldIsSetBeforeTheReducersAfterTheBindingReducerRun() {
    let store = Store(initialState: Form.State(title: "Old")) {
      BindingReducer<Form.State, Form.Action>()
      Reduce<Form.State, Form.Action> { state, _ in
        state.count = state.title.count
        return .none
      }
    }
    store.send(.binding(.set(\.title, "Groceries")))
    #expect(store.state.count == 9)
  }

  @Test func aKeyPathPatternMatchesOnlyItsField() {
    let title = BindingAction<Form.State>.set(\.title, "A")
    let count = BindingAction<Form.State>.set(\.count, 1)
    #expect(\Form.State.title ~= title)
    #expect(!(\Form.State.title ~= count))
    #expect(\Form.State.count ~= count)
  }

  @Test func otherActionsPassTheBindingReducerUntouched() {
    var state = Form.State(title: "Groceries", count: 2)
    _ = BindingReducer<Form.State, Form.Action>().reduce(into: &state, action: .resetTapped)
    #expect(state == Form.State(title: "Groceries", count: 2))
  }

  @Test func bindingActionsAreEqualWhenTheySetOneFieldToEqualValues() {
    #expect(BindingAction<Form.State>.set(\.title, "A") == .set(\.title, "A"))
    #expect(BindingAction<Form.State>.set(\.title, "A") != .set(\.title, "B"))
    #expect(BindingAction<Form.State>.set(\.count, 0) != .set(\.titleEdits, 0))
  }

  @Test func setOnTheActionIsTheBindingCase() {
    #expect(Form.Action.set(\.title, "A") == .binding(.set(\.title, "A")))
  }

  @Test func aBindingActionDumpsAsItIsWritten() {
    #expect(
      Diff.dump(Form.Action.binding(.set(\.title, "Groceries")))
        == #"""
        Form.Action.binding(
          .set(
            \Form.State.title,
            "Groceries"
          )
        )
        """#)
  }
}
