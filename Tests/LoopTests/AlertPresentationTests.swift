import Loop
import Testing

/// A list that asks before deleting, with an alert, a dialog, and an alert among destinations.
private struct Shelf: Reducer {
  struct State: Equatable {
    var books = ["Dune", "Emma"]
    var log: [String] = []
    @Presents var alert: AlertState<Action.Alert>? = nil
    @Presents var dialog: ConfirmationDialogState<Action.Dialog>? = nil
    @Presents var destination: Destination.State? = nil
  }

  enum Action: Equatable {
    case alert(PresentationAction<Alert>)
    case clearTapped
    case destination(PresentationAction<Destination.Action>)
    case dialog(PresentationAction<Dialog>)
    case noteTapped
    case shareTapped

    enum Alert: Equatable { case confirmClear }
    enum Dialog: Equatable { case copy, print }
  }

  struct Destination: Reducer {
    enum State: Equatable {
      case alert(AlertState<Shelf.Action.Alert>)
      case note(Note.State)
    }
    enum Action: Equatable {
      case alert(Shelf.Action.Alert)
      case note(Note.Action)
    }
    var body: some ReducerOf<Self> {
      Scope(state: .case(State.alert), action: .case(Action.alert)) { EmptyReducer() }
      Scope(state: .case(State.note), action: .case(Action.note)) { Note() }
    }
  }

  static let clearAlert = AlertState<Action.Alert> {
    TextState("Clear the shelf?")
  } actions: {
    ButtonState(role: .destructive, action: .confirmClear) { TextState("Clear") }
    ButtonState(role: .cancel) { TextState("Keep") }
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .alert(.presented(.confirmClear)):
        state.log.append("clearing, alert shown: \(state.alert != nil)")
        state.books = []
      case .alert(.dismiss):
        state.log.append("kept")
      case .clearTapped:
        state.alert = Self.clearAlert
      case .destination(.presented(.alert(.confirmClear))):
        state.books = []
      case .destination:
        break
      case .dialog(.presented(let choice)):
        state.log.append("\(choice)")
      case .dialog(.dismiss):
        break
      case .noteTapped:
        state.destination = .note(Note.State())
      case .shareTapped:
        state.dialog = ConfirmationDialogState(titleVisibility: .visible) {
          TextState("Share")
        } actions: {
          ButtonState(action: .copy) { TextState("Copy") }
          ButtonState(action: .print) { TextState("Print") }
        }
      }
      return .none
    }
    .ifLet(\.$alert, action: .case(Action.alert))
    .ifLet(\.$dialog, action: .case(Action.dialog))
    .ifLet(\.$destination, action: .case(Action.destination)) { Destination() }
  }
}

@MainActor
@Suite struct AlertPresentationTests {
  @Test func aButtonsActionRunsTheParentWithTheAlertShownThenClosesIt() {
    let store = Store(initialState: Shelf.State()) { Shelf() }
    store.send(.clearTapped)
    #expect(store.state.alert == Shelf.clearAlert)
    store.send(.alert(.presented(.confirmClear)))
    #expect(store.state.books == [])
    #expect(store.state.log == ["clearing, alert shown: true"])
    #expect(store.state.alert == nil)
  }

  @Test func dismissingAnAlertClosesItWithoutAnAnswer() {
    let store = Store(initialState: Shelf.State(alert: Shelf.clearAlert)) { Shelf() }
    store.send(.alert(.dismiss))
    #expect(store.state.alert == nil)
    #expect(store.state.books == ["Dune", "Emma"])
    #expect(store.state.log == ["kept"])
  }

  @Test func aDialogsButtonClosesIt() {
    let store = Store(initialState: Shelf.State()) { Shelf() }
    store.send(.shareTapped)
    #expect(store.state.dialog?.buttons.count == 2)
    store.send(.dialog(.presented(.print)))
    #expect(store.state.dialog == nil)
    #expect(store.state.log == ["print"])
  }

  @Test func anAlertAmongDestinationsClosesOnItsAnswer() {
    let store = Store(initialState: Shelf.State(destination: .alert(Shelf.clearAlert))) {
      Shelf()
    }
    store.send(.destination(.presented(.alert(.confirmClear))))
    #expect(store.state.destination == nil)
    #expect(store.state.books == [])
  }

  @Test func anotherDestinationStaysOpenOnItsActions() {
    let store = Store(initialState: Shelf.State()) { Shelf() }
    store.send(.noteTapped)
    store.send(.destination(.presented(.note(.textChanged("later")))))
    #expect(store.state.destination == .note(Note.State(text: "later")))
  }

  @Test func anAnswerForAnAbsentAlertIsReported() {
    let issues = IssueCollector()
    let store = Store(initialState: Shelf.State()) { Shelf() }
    withIssueReporter(issues) { store.send(.alert(.presented(.confirmClear))) }
    #expect(
      issues.messages == [
        """
        An 'ifLet' at 'LoopTests/AlertPresentationTests.swift:78' received a presentation \
        action when nothing was presented:

            Shelf.Action.alert(.presented(.confirmClear))

        This is usually an effect that outlived its child, or an action sent after the child \
        was dismissed. To fix, send the child's actions only while it is presented; its effects \
        are cancelled when it is dismissed.
        """
      ])
    #expect(store.state.books == [])
  }
}
