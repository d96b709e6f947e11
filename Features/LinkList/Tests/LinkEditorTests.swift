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

  @Test func bindingTheDraftKeepsTheValuesAsTypedAndClearsTheError() async {
    let store = makeStore(LinkEditor.State(mode: .add, errorMessage: "A link needs a title."))
    await store.send(.binding(.set(\.draft, draft))) {
      $0.draft = draft
      $0.errorMessage = nil
    }
    await store.finish()
  }

  @Test func bindingOneFieldChangesOnlyItAndClearsTheError() async {
    let store = makeStore(
      LinkEditor.State(mode: .add, draft: draft, errorMessage: "A link needs a title."))
    await store.send(.binding(.set(\.draft.title, "Swift.org"))) {
      $0.draft.title = "Swift.org"
      $0.errorMessage = nil
    }
    await store.send(.set(\.draft.memo, "")) { $0.draft.memo = "" }
    await store.finish()
  }

  @Test func saveTappedAsksTheParentToAddTheDraft() async {
    let store = makeStore(
      LinkEditor.State(mode: .add, draft: draft, errorMessage: "A link needs a title."))
    await store.send(.saveSubmitted) {
      $0.isSaving = true
      $0.errorMessage = nil
    }
    await store.receive(.delegate(.save(mode: .add, draft: draft)))
    await store.finish()
  }

  @Test func saveTappedAsksTheParentToUpdateTheLink() async {
    let store = makeStore(LinkEditor.State(mode: .update(id(4)), draft: draft))
    await store.send(.saveSubmitted) { $0.isSaving = true }
    await store.receive(.delegate(.save(mode: .update(id(4)), draft: draft)))
    await store.finish()
  }

  @Test func saveTappedWhileSavingDoesNothing() async {
    let store = makeStore(LinkEditor.State(mode: .add, draft: draft, isSaving: true))
    await store.send(.saveSubmitted)
    await store.finish()
  }

  nonisolated static let failures: [(LinkError, String)] = [
    (
      .invalidURL("swift.org"),
      "'swift.org' is not a web address: enter an absolute http or https URL, such as "
        + "'https://example.com'."
    ),
    (.emptyTitle, "A link needs a title."),
    (
      .categoryNotFound(id(7)),
      "No category with id '00000000-0000-0000-0000-000000000007' exists."
    ),
    (
      .notFound(id(4)),
      "No link with id '00000000-0000-0000-0000-000000000004' exists."
    ),
  ]

  @Test(arguments: failures)
  func saveFailedShowsWhyAndKeepsTheDraft(_ error: LinkError, _ message: String) async {
    let store = makeStore(LinkEditor.State(mode: .add, draft: draft, isSaving: true))
    await store.send(.saveFailed(error)) {
      $0.isSaving = false
      $0.errorMessage = message
    }
    await store.finish()
  }

  @Test func aSaveAfterAFailedOneClearsTheError() async {
    let store = makeStore(LinkEditor.State(mode: .add, draft: draft))
    await store.send(.saveSubmitted) { $0.isSaving = true }
    await store.receive(.delegate(.save(mode: .add, draft: draft)))
    await store.send(.saveFailed(.emptyTitle)) {
      $0.isSaving = false
      $0.errorMessage = "A link needs a title."
    }
    await store.send(.saveSubmitted) {
      $0.isSaving = true
      $0.errorMessage = nil
    }
    await store.receive(.delegate(.save(mode: .add, draft: draft)))
    await store.finish()
  }

  @Test func cancelTappedDismissesTheEditor() async {
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
    let store = makeStore(LinkEditor.State(mode: .add))
    await store.send(.delegate(.save(mode: .add, draft: draft)))
    await store.finish()
  }
}
