import LoopTesting
import Testing

/// TCA's "Alerts and Confirmation Dialogs" case study: each answer presents another alert.
private struct AlertAndConfirmationDialog: Reducer {
  struct State: Equatable {
    @Presents var alert: AlertState<Action.Alert>?
    @Presents var confirmationDialog: ConfirmationDialogState<Action.ConfirmationDialog>?
    var count = 0
  }

  enum Action: Equatable {
    case alert(PresentationAction<Alert>)
    case alertSubmitted
    case confirmationDialog(PresentationAction<ConfirmationDialog>)
    case confirmationDialogSubmitted

    enum Alert: Equatable {
      case increment
    }
    enum ConfirmationDialog: Equatable {
      case decrement
      case increment
    }
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .alert(.presented(.increment)), .confirmationDialog(.presented(.increment)):
        state.alert = AlertState { TextState("Incremented!") }
        state.count += 1
        return .none
      case .alert:
        return .none
      case .alertSubmitted:
        state.alert = AlertState {
          TextState("Alert!")
        } actions: {
          ButtonState(role: .cancel) { TextState("Cancel") }
          ButtonState(action: .increment) { TextState("Increment") }
        } message: {
          TextState("This is an alert")
        }
        return .none
      case .confirmationDialog(.presented(.decrement)):
        state.alert = AlertState { TextState("Decremented!") }
        state.count -= 1
        return .none
      case .confirmationDialog:
        return .none
      case .confirmationDialogSubmitted:
        state.confirmationDialog = ConfirmationDialogState {
          TextState("Confirmation dialog")
        } actions: {
          ButtonState(role: .cancel) { TextState("Cancel") }
          ButtonState(action: .increment) { TextState("Increment") }
          ButtonState(action: .decrement) { TextState("Decrement") }
        } message: {
          TextState("This is a confirmation dialog.")
        }
        return .none
      }
    }
    .ifLet(\.$alert, action: .case(Action.alert))
    .ifLet(\.$confirmationDialog, action: .case(Action.confirmationDialog))
  }
}

/// An alert whose answer presents a second alert.
private struct TwoAlerts: Reducer {
  struct State: Equatable {
    @Presents var alert: AlertState<Action.Alert>?
  }

  enum Action: Equatable {
    case alert(PresentationAction<Alert>)
    case deleteSubmitted

    enum Alert: Equatable {
      case confirmDeletion
      case ok
    }
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .alert(.presented(.confirmDeletion)):
        state.alert = AlertState {
          TextState("Second")
        } actions: {
          ButtonState(action: .ok) { TextState("OK") }
        }
        return .none
      case .alert:
        return .none
      case .deleteSubmitted:
        state.alert = AlertState {
          TextState("First")
        } actions: {
          ButtonState(action: .confirmDeletion) { TextState("Delete") }
        }
        return .none
      }
    }
    .ifLet(\.$alert, action: .case(Action.alert))
  }
}

/// An alert kept in a plain optional (TCA's `testEphemeralDismissal`).
private struct PlainAlert: Reducer {
  struct State: Equatable {
    var alert: AlertState<AlertAction>?
  }

  enum Action: Equatable {
    case alert(AlertAction)
    case tapped
  }

  enum AlertAction: Equatable {
    case again
    case ok
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .alert(.ok):
        return .none
      case .alert(.again), .tapped:
        state.alert = AlertState { TextState("Hello") }
        return .none
      }
    }
    .ifLet(\.alert, action: .case(Action.alert))
  }
}

@MainActor
@Suite struct AlertAnswerTests {
  @Test func anAlertAnsweredWithAnotherAlertKeepsTheSecond() async {
    let store = TestStore(initialState: TwoAlerts.State()) { TwoAlerts() }
    await store.send(.deleteSubmitted) {
      $0.alert = AlertState {
        TextState("First")
      } actions: {
        ButtonState(action: .confirmDeletion) { TextState("Delete") }
      }
    }
    await store.send(.alert(.presented(.confirmDeletion))) {
      $0.alert = AlertState {
        TextState("Second")
      } actions: {
        ButtonState(action: .ok) { TextState("OK") }
      }
    }
    await store.send(.alert(.presented(.ok))) {
      $0.alert = nil
    }
  }

  @Test func aPlainOptionalAlertClosesAfterAnyOfItsActions() async {
    let store = TestStore(initialState: PlainAlert.State()) { PlainAlert() }
    await store.send(.tapped) { $0.alert = AlertState { TextState("Hello") } }
    await store.send(.alert(.ok)) { $0.alert = nil }
  }

  @Test func aPlainOptionalAlertAnsweredWithItselfStays() async {
    let store = TestStore(initialState: PlainAlert.State()) { PlainAlert() }
    await store.send(.tapped) { $0.alert = AlertState { TextState("Hello") } }
    await store.send(.alert(.again))
    await store.send(.alert(.ok)) { $0.alert = nil }
  }

  // MARK: TCA's IfLetReducerTests.testEphemeralState, ported

  @Test func ephemeralState() async {
    struct Parent: Reducer {
      struct State: Equatable {
        var alert: AlertState<AlertAction>?
      }
      enum Action: Equatable {
        case alert(AlertAction)
        case tap
      }
      enum AlertAction: Equatable { case ok }
      var body: some ReducerOf<Self> {
        Reduce { state, action in
          switch action {
          case .alert:
            return .none
          case .tap:
            state.alert = AlertState { TextState("Hi!") }
            return .none
          }
        }
        .ifLet(\.alert, action: .case(Action.alert)) {}
      }
    }
    let store = TestStore(initialState: Parent.State()) { Parent() }
    await store.send(.tap) { $0.alert = AlertState { TextState("Hi!") } }
    await store.send(.alert(.ok)) { $0.alert = nil }
  }

  // MARK: TCA's AlertsAndConfirmationDialogsTests, ported

  @Test func alert() async {
    let store = TestStore(initialState: AlertAndConfirmationDialog.State()) {
      AlertAndConfirmationDialog()
    }
    await store.send(.alertSubmitted) {
      $0.alert = AlertState {
        TextState("Alert!")
      } actions: {
        ButtonState(role: .cancel) { TextState("Cancel") }
        ButtonState(action: .increment) { TextState("Increment") }
      } message: {
        TextState("This is an alert")
      }
    }
    await store.send(.alert(.presented(.increment))) {
      $0.alert = AlertState { TextState("Incremented!") }
      $0.count = 1
    }
    await store.send(.alert(.dismiss)) {
      $0.alert = nil
    }
  }

  @Test func confirmationDialog() async {
    let store = TestStore(initialState: AlertAndConfirmationDialog.State()) {
      AlertAndConfirmationDialog()
    }
    await store.send(.confirmationDialogSubmitted) {
      $0.confirmationDialog = ConfirmationDialogState {
        TextState("Confirmation dialog")
      } actions: {
        ButtonState(role: .cancel) { TextState("Cancel") }
        ButtonState(action: .increment) { TextState("Increment") }
        ButtonState(action: .decrement) { TextState("Decrement") }
      } message: {
        TextState("This is a confirmation dialog.")
      }
    }
    await store.send(.confirmationDialog(.presented(.increment))) {
      $0.alert = AlertState { TextState("Incremented!") }
      $0.confirmationDialog = nil
      $0.count = 1
    }
  }
}
