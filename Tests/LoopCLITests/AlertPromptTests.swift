import Loop
import Testing

@testable import LoopCLI

/// How the REPL asks an alert's question: its words, and what a yes answers.
@Suite struct AlertPromptTests {
  enum Answer: Equatable { case archive, delete }

  @Test func theQuestionIsTheTitleThenTheMessage() {
    let alert = AlertState<Answer> {
      TextState("Delete 'Read'?")
    } message: {
      TextState("This cannot be undone.")
    }
    #expect(alert.question == "Delete 'Read'? This cannot be undone.")
    #expect(AlertState<Answer> { TextState("Delete 'Read'?") }.question == "Delete 'Read'?")
  }

  @Test func yesAnswersTheFirstButtonThatDoesNotCancel() {
    let alert = AlertState<Answer> {
      TextState("Delete 'Read'?")
    } actions: {
      ButtonState(role: .cancel) { TextState("Keep") }
      ButtonState(role: .destructive, action: .delete) { TextState("Delete") }
      ButtonState(action: .archive) { TextState("Archive") }
    }
    #expect(alert.yes == .delete)
  }

  @Test func anAlertWithOnlyACancelButtonHasNoYes() {
    let alert = AlertState<Answer> {
      TextState("Saved.")
    } actions: {
      ButtonState(role: .cancel) { TextState("OK") }
    }
    #expect(alert.yes == nil)
  }
}
