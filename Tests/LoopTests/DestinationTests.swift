import Loop
import Testing

/// Another child.
private struct Tally: Reducer {
  struct State: Equatable { var count = 0 }
  enum Action: Equatable { case incrementTapped }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.count += 1
    return .none
  }
}

/// A screen that presents one of two children at a time.
private struct Screen: Reducer {
  struct Destination: Reducer {
    enum State: Equatable {
      case note(Note.State)
      case tally(Tally.State)
    }
    enum Action: Equatable {
      case note(Note.Action)
      case tally(Tally.Action)
    }

    var body: some ReducerOf<Self> {
      Scope(state: .case(State.note), action: .case(Action.note)) { Note() }
      Scope(state: .case(State.tally), action: .case(Action.tally)) { Tally() }
    }
  }

  struct State: Equatable {
    @Presents var destination: Destination.State? = nil
  }
  enum Action: Equatable {
    case destination(PresentationAction<Destination.Action>)
    case noteTapped
    case otherNoteTapped(id: Int)
    case tallyTapped
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .destination:
        break
      case .noteTapped:
        state.destination = .note(Note.State())
      case .otherNoteTapped(let id):
        state.destination = .note(Note.State(id: id))
      case .tallyTapped:
        state.destination = .tally(Tally.State())
      }
      return .none
    }
    .ifLet(\.$destination, action: .case(Action.destination)) { Destination() }
  }
}

/// A state that is one case or another, with a child on one of them.
private struct Session: Reducer {
  enum State: Equatable {
    case signedOut
    case signedIn(Note.State)
  }
  enum Action: Equatable {
    case signedIn(Note.Action)
    case signInTapped
    case signOutTapped
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .signedIn:
        break
      case .signInTapped:
        state = .signedIn(Note.State())
      case .signOutTapped:
        state = .signedOut
      }
      return .none
    }
    .ifCaseLet(.case(State.signedIn), action: .case(Action.signedIn)) { Note() }
  }
}

@MainActor
@Suite struct DestinationTests {
  @Test func aDestinationSwitchesBetweenItsChildren() {
    let store = Store(initialState: Screen.State()) { Screen() }
    store.send(.noteTapped)
    store.send(.destination(.presented(.note(.textChanged("hi")))))
    #expect(store.state.destination == .note(Note.State(text: "hi")))
    store.send(.tallyTapped)
    store.send(.destination(.presented(.tally(.incrementTapped))))
    #expect(store.state.destination == .tally(Tally.State(count: 1)))
    store.send(.destination(.dismiss))
    #expect(store.state.destination == nil)
  }

  @Test func switchingToAnotherCaseCancelsTheOldChildsEffects() async {
    let store = Store(initialState: Screen.State(destination: .note(Note.State()))) { Screen() }
    let task = store.send(.destination(.presented(.note(.longTask))))
    store.send(.tallyTapped)
    let cancelledByTheStore = task.isCancelled
    task.cancel()  // NB: so that the test ends even when the store did not cancel it.
    await task.finish()
    #expect(cancelledByTheStore)
    #expect(store.state.destination == .tally(Tally.State()))
  }

  @Test func presentingTheSameCaseWithAnotherIDCancelsTheOldChildsEffects() async {
    let store = Store(initialState: Screen.State(destination: .note(Note.State(id: 1)))) {
      Screen()
    }
    let task = store.send(.destination(.presented(.note(.longTask))))
    store.send(.otherNoteTapped(id: 1))
    let keptForTheSameID = !task.isCancelled
    store.send(.otherNoteTapped(id: 2))
    let cancelledByTheStore = task.isCancelled
    task.cancel()  // NB: so that the test ends even when the store did not cancel it.
    await task.finish()
    #expect(keptForTheSameID)
    #expect(cancelledByTheStore)
    #expect(store.state.destination == .note(Note.State(id: 2)))
  }

  @Test func aCaseIsChangedInPlaceThroughTheProjection() {
    var state = Screen.State(destination: .note(Note.State()))
    state.$destination[case: .case(Screen.Destination.State.note)]?.text = "draft"
    #expect(state.destination == .note(Note.State(text: "draft")))
    #expect(state.$destination[case: .case(Screen.Destination.State.tally)] == nil)
    state.$destination[case: .case(Screen.Destination.State.note)] = nil
    #expect(state.destination == nil)
  }

  @Test func changingAnotherCaseThroughTheProjectionChangesNothingAndIsReported() {
    let issues = IssueCollector()
    var state = Screen.State(destination: .tally(Tally.State()))
    withIssueReporter(issues) {
      state.$destination[case: .case(Screen.Destination.State.note)]?.text = "draft"
    }
    #expect(state.destination == .tally(Tally.State()))
    #expect(
      issues.messages == [
        """
        Can't modify unrelated case: the presented state is '.tally', not the case path's \
        case, so nothing was changed.

        To fix, present that case first ('state.destination = .…'), or modify the case that \
        is presented.
        """
      ])
    #expect(issues.locations.map(\.line) == [143])
  }

  @Test func modifyChangesTheCaseInPlace() {
    var state = Screen.State(destination: .note(Note.State()))
    state.destination?.modify(.case(Screen.Destination.State.note)) { $0.text = "draft" }
    #expect(state.destination == .note(Note.State(text: "draft")))
  }

  @Test func modifyingAnotherCaseChangesNothingAndIsReported() {
    let issues = IssueCollector()
    var state = Screen.State(destination: .tally(Tally.State()))
    withIssueReporter(issues) {
      state.destination?.modify(.case(Screen.Destination.State.note)) { $0.text = "draft" }
    }
    #expect(state.destination == .tally(Tally.State()))
    #expect(
      issues.messages == [
        """
        Can't modify unrelated case: the value is '.tally', not the case path's case, so \
        nothing was changed.

        To fix, modify the case the value is, or check it with the case path's 'extract' first.
        """
      ])
  }

  @Test func aChildOfADestinationDismissesItself() async {
    let store = Store(initialState: Screen.State(destination: .note(Note.State()))) { Screen() }
    await store.send(.destination(.presented(.note(.closeTapped)))).finish()
    #expect(store.state.destination == nil)
  }

  @Test func anActionForAnotherCaseIsReported() {
    let issues = IssueCollector()
    let store = Store(initialState: Screen.State(destination: .tally(Tally.State()))) {
      Screen()
    }
    withIssueReporter(issues) { store.send(.destination(.presented(.note(.textChanged("x"))))) }
    #expect(
      issues.messages == [
        """
        A 'Scope' at 'LoopTests/DestinationTests.swift:28' received a child action when the \
        state was another case ('.tally'):

            Note.Action.textChanged("x")

        This is usually an effect that outlived its case, or an action sent after the state \
        changed case. To fix, send the child's actions only while the state is its case; \
        'ifCaseLet' cancels a case's effects when the state leaves it.
        """
      ])
    #expect(store.state.destination == .tally(Tally.State()))
  }

  @Test func aCaseScopeReportsAtTheFilePathLineAndColumnOfItsCall() {
    let issues = IssueCollector()
    let store = Store(initialState: Screen.State(destination: .tally(Tally.State()))) {
      Screen()
    }
    withIssueReporter(issues) { store.send(.destination(.presented(.note(.textChanged("x"))))) }
    #expect(
      issues.locations == [
        IssueLocation(fileID: #fileID, filePath: #filePath, line: 28, column: 12)
      ])
  }

  @Test func ifCaseLetRunsTheChildWhileTheStateIsItsCase() {
    let store = Store(initialState: Session.State.signedIn(Note.State())) { Session() }
    store.send(.signedIn(.textChanged("hello")))
    #expect(store.state == .signedIn(Note.State(text: "hello")))
  }

  @Test func ifCaseLetReportsAChildActionForAnotherCase() {
    let issues = IssueCollector()
    let store = Store(initialState: Session.State.signedOut) { Session() }
    withIssueReporter(issues) { store.send(.signedIn(.textChanged("late"))) }
    #expect(
      issues.messages == [
        """
        An 'ifCaseLet' at 'LoopTests/DestinationTests.swift:85' received a child action when \
        the state was another case ('.signedOut'):

            Session.Action.signedIn(.textChanged("late"))

        This is usually an effect that outlived its case, or an action sent after the state \
        changed case. To fix, send the child's actions only while the state is its case.
        """
      ])
    #expect(store.state == .signedOut)
  }

  @Test func ifCaseLetReportsAtTheFilePathLineAndColumnOfItsCall() {
    let issues = IssueCollector()
    let store = Store(initialState: Session.State.signedOut) { Session() }
    withIssueReporter(issues) { store.send(.signedIn(.textChanged("late"))) }
    #expect(
      issues.locations == [
        IssueLocation(fileID: #fileID, filePath: #filePath, line: 85, column: 15)
      ])
  }

  @Test func ifCaseLetCancelsTheChildsEffectsWhenTheStateLeavesItsCase() async {
    let store = Store(initialState: Session.State.signedIn(Note.State())) { Session() }
    let task = store.send(.signedIn(.longTask))
    store.send(.signInTapped)
    #expect(!task.isCancelled, "still the same case")
    store.send(.signOutTapped)
    let cancelledByTheStore = task.isCancelled
    task.cancel()
    await task.finish()
    #expect(cancelledByTheStore)
    #expect(store.state == .signedOut)
  }
}
