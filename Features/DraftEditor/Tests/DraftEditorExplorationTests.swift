import DraftEditor
import Foundation
import LoopTesting
import Testing

/// A title, saved trimmed; a blank one is refused.
enum TitleEditing: Editing {
  typealias ID = Int

  struct Blank: Error, CustomStringConvertible, Equatable {
    var description: String { "A title cannot be blank." }
  }

  static func check(_ draft: String) throws(Blank) -> String {
    let title = draft.trimmingCharacters(in: .whitespaces)
    guard !title.isEmpty else { throw Blank() }
    return title
  }
}

/// The editor's contract, checked after every step of generated sequences: a failure shows only
/// after a save of a draft that failed its check, and never while saving.
@MainActor
@Suite struct DraftEditorExplorationTests {
  typealias Editor = DraftEditor<TitleEditing>

  @Test func everyGeneratedSequenceShowsAFailureOnlyWhenNotSaving() async {
    let result = await TestStore.explore(
      initialState: { Editor.State(mode: .add, draft: "") }, reducer: { Editor() },
      actions: Self.actions, runs: 50, steps: 12,
      invariantName: "DraftEditorExplorationTests.isConsistent", invariant: Self.isConsistent,
      withDependencies: { $0.dismiss = DismissEffect {} })
    print("DraftEditor: \(result)")
  }

  /// What a person does: types (now and then only spaces), saves, closes the failure, cancels.
  static var actions: ActionGenerator<Editor.State, Editor.Action> {
    ActionGenerator(
      .case(weight: 3) { random, _ in
        .binding(.set(\.draft, random.chance(0.3) ? "  " : random.string(length: 0...5)))
      },
      .always(.saveSubmitted, weight: 2),
      .case { _, state in state.alert == nil ? nil : .alert(.dismiss) },
      .always(.cancelSubmitted)
    )
  }

  /// The contract.
  static func isConsistent(_ state: Editor.State) -> Bool {
    if state.alert != nil, state.isSaving { return false }
    if let alert = state.alert, alert != .failure(TitleEditing.Blank()) { return false }
    return true
  }
}
