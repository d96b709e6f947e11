import DraftEditor
import Foundation
import LinkClient
import LinkList
import LoopTesting
import TestSupport
import Testing

@MainActor
@Suite struct LinkEditorTests {
  func makeStore(_ state: LinkEditor.State) -> TestStore<LinkEditor.State, LinkEditor.Action> {
    TestStore(initialState: state) { LinkEditor() }
  }

  let draft = LinkDraft(title: " Swift ", url: "https://swift.org", memo: "read")

  @Test func bindingTheDraftKeepsTheValuesAsTyped() async {
    let store = makeStore(LinkEditor.State(mode: .add, draft: LinkDraft()))
    await store.send(.binding(.set(\.draft, draft))) { $0.draft = draft }
    await store.finish()
  }

  @Test func bindingOneFieldChangesOnlyIt() async {
    let store = makeStore(LinkEditor.State(mode: .add, draft: draft))
    await store.send(.binding(.set(\.draft.title, "Swift.org"))) { $0.draft.title = "Swift.org" }
    await store.send(.set(\.draft.memo, "")) { $0.draft.memo = "" }
    await store.finish()
  }

  @Test func saveSubmittedAsksTheParentToAddTheDraftAsTyped() async {
    let store = makeStore(
      LinkEditor.State(mode: .add, draft: draft, alert: .failure(LinkError.emptyTitle)))
    await store.send(.saveSubmitted)
    await store.receive(.checkResponse(.success(draft))) {
      $0.isSaving = true
      $0.alert = nil
    }
    await store.receive(.delegate(.save(.add, draft)))
    await store.finish()
  }

  @Test func saveSubmittedAsksTheParentToUpdateTheLink() async {
    let store = makeStore(LinkEditor.State(mode: .update(id(4)), draft: draft))
    await store.send(.saveSubmitted)
    await store.receive(.checkResponse(.success(draft))) { $0.isSaving = true }
    await store.receive(.delegate(.save(.update(id(4)), draft)))
    await store.finish()
  }

  @Test func saveSubmittedWhileSavingDoesNothing() async {
    let store = makeStore(LinkEditor.State(mode: .add, draft: draft, isSaving: true))
    await store.send(.saveSubmitted)
    await store.finish()
  }

  @Test func cancelSubmittedDismissesTheEditor() async {
    let dismissals = Dismissals()
    let store = TestStore(initialState: LinkEditor.State(mode: .add, draft: draft)) {
      LinkEditor()
    } withDependencies: {
      $0.dismiss = DismissEffect { dismissals.count += 1 }
    }
    await store.send(.cancelSubmitted)
    await store.finish()
    #expect(dismissals.count == 1)
  }

  @Test func delegateActionsAreForTheParentAndChangeNothing() async {
    let store = makeStore(LinkEditor.State(mode: .add, draft: LinkDraft()))
    await store.send(.delegate(.save(.add, draft)))
    await store.finish()
  }
}
