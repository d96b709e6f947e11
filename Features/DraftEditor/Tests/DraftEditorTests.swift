import DraftEditor
import Foundation
import LoopTesting
import TestSupport
import Testing

/// A name, saved trimmed; a blank one is refused.
enum NameEditing: Editing {
  typealias ID = Int

  struct Blank: Error, CustomStringConvertible, Equatable {
    var description: String { "A name cannot be blank." }
  }

  static func check(_ draft: String) throws(Blank) -> String {
    let name = draft.trimmingCharacters(in: .whitespaces)
    guard !name.isEmpty else { throw Blank() }
    return name
  }
}

@MainActor
@Suite struct DraftEditorTests {
  func makeStore(_ state: DraftEditor<NameEditing>.State) -> TestStore<
    DraftEditor<NameEditing>.State, DraftEditor<NameEditing>.Action
  > {
    TestStore(initialState: state) { DraftEditor<NameEditing>() }
  }

  @Test func aDraftThatPassesItsCheckIsHandedToTheParentChecked() async {
    let store = makeStore(DraftEditor.State(mode: .update(7), draft: " Ada "))
    await store.send(.saveSubmitted)
    await store.receive(.checkResponse(.success("Ada"))) { $0.isSaving = true }
    await store.receive(.delegate(.save(.update(7), "Ada")))
    await store.finish()
  }

  @Test func aDraftThatFailsItsCheckShowsWhyAndStaysAsTyped() async {
    let store = makeStore(DraftEditor.State(mode: .add, draft: "  "))
    await store.send(.saveSubmitted)
    await store.receive(.checkResponse(.failure(NameEditing.Blank()))) {
      $0.alert = AlertState { TextState("A name cannot be blank.") }
    }
    await store.finish()
  }

  @Test func closingTheFailureKeepsTheDraftAsTyped() async {
    let store = makeStore(
      DraftEditor.State(mode: .add, draft: "  ", alert: .failure(NameEditing.Blank())))
    await store.send(.alert(.dismiss)) { $0.alert = nil }
    await store.finish()
  }

  @Test func aFailedSaveThenOneThatPassesClosesTheFailureAndHandsTheDraftOn() async {
    let store = makeStore(DraftEditor.State(mode: .add, draft: " "))
    await store.send(.saveSubmitted)
    await store.receive(.checkResponse(.failure(NameEditing.Blank()))) {
      $0.alert = .failure(NameEditing.Blank())
    }
    await store.send(.binding(.set(\.draft, "Ada"))) { $0.draft = "Ada" }
    await store.send(.saveSubmitted)
    await store.receive(.checkResponse(.success("Ada"))) {
      $0.alert = nil
      $0.isSaving = true
    }
    await store.receive(.delegate(.save(.add, "Ada")))
    await store.finish()
  }

  @Test func aSaveThatPassesClosesTheParentsLastFailure() async {
    let store = makeStore(
      DraftEditor.State(
        mode: .add, draft: "Ada", alert: AlertState { TextState("The name is taken.") }))
    await store.send(.saveSubmitted)
    await store.receive(.checkResponse(.success("Ada"))) {
      $0.isSaving = true
      $0.alert = nil
    }
    await store.receive(.delegate(.save(.add, "Ada")))
    await store.finish()
  }

  @Test func aSaveTheParentsClientRefusedEndsSavingAndShowsWhyOverTheDraft() {
    var state = DraftEditor<NameEditing>.State(mode: .add, draft: "Ada", isSaving: true)
    state.saveFailed(NameEditing.Blank())
    #expect(
      state
        == DraftEditor.State(
          mode: .add, draft: "Ada", isSaving: false, alert: .failure(NameEditing.Blank())))
  }

  @Test func aSaveWhileSavingDoesNothing() async {
    let store = makeStore(DraftEditor.State(mode: .add, draft: "Ada", isSaving: true))
    await store.send(.saveSubmitted)
    await store.finish()
  }

  @Test func cancelSubmittedClosesTheEditorSavingNothing() async {
    let dismissals = Dismissals()
    let store = TestStore(initialState: DraftEditor<NameEditing>.State(mode: .add, draft: "Ada")) {
      DraftEditor<NameEditing>()
    } withDependencies: {
      $0.dismiss = DismissEffect { dismissals.count += 1 }
    }
    await store.send(.cancelSubmitted)
    await store.finish()
    #expect(dismissals.count == 1)
  }
}
