import DraftEditor
import Foundation
import LoopTesting
import Testing

/// A title, saved trimmed; a blank one is refused.
enum TitleEditing: Editing {
  typealias ID = Int

  struct Blank: Error, CustomStringConvertible {
    var description: String { "A title cannot be blank." }
  }

  static func check(_ draft: String) throws(Blank) -> String {
    let title = draft.trimmingCharacters(in: .whitespaces)
    guard !title.isEmpty else { throw Blank() }
    return title
  }
}

/// The editor's contract, checked after every step of generated sequences: an error shows only
/// for a draft that fails its check, and never while saving.
@MainActor
@Suite struct DraftEditorExplorationTests {
  typealias Editor = DraftEditor<TitleEditing>

  @Test func everyGeneratedSequenceShowsAnErrorOnlyForADraftThatFailsItsCheck() async {
    let result = await TestStore.explore(
      initialState: { Editor.State(mode: .add, draft: "") }, reducer: { Editor() },
      actions: Self.actions, runs: 50, steps: 12,
      invariantName: "DraftEditorExplorationTests.isConsistent", invariant: Self.isConsistent,
      withDependencies: { $0.dismiss = DismissEffect {} })
    print("DraftEditor: \(result)")
  }

  /// What a person does: types (now and then only spaces), saves, cancels.
  static var actions: ActionGenerator<Editor.State, Editor.Action> {
    ActionGenerator(
      .case(weight: 3) { random, _ in
        .binding(.set(\.draft, random.chance(0.3) ? "  " : random.string(length: 0...5)))
      },
      .always(.saveSubmitted, weight: 2),
      .always(.cancelSubmitted)
    )
  }

  /// The contract.
  static func isConsistent(_ state: Editor.State) -> Bool {
    let passes = (try? TitleEditing.check(state.draft)) != nil
    if state.errorMessage != nil, passes || state.isSaving { return false }
    return true
  }
}
