import AppFeature
import Foundation
import Loop

extension Session {
  /// Asks an alert's question at the prompt, as a yes-or-no question.
  ///
  /// The prompt is the alert's title and message, then `[y/N]`; only an answer starting with
  /// `y` is a yes.
  ///
  /// - Parameter alert: The alert a feature presents.
  /// - Returns: The action of the alert's yes (its first button that does not cancel), or `nil`
  ///   for a no, for no answer, and outside an interactive session.
  func ask<Action>(_ alert: AlertState<Action>) -> Action? {
    guard configuration.mode == .interactive, let reader else { return nil }
    guard let answer = reader.readLine(prompt: "\(alert.question) [y/N] ") else { return nil }
    recording?.recordAnswer(answer)
    guard answer.trimmingCharacters(in: .whitespaces).lowercased().hasPrefix("y") else {
      return nil
    }
    return alert.yes
  }

  /// The answer to the question a command's deletion presented: the alert's yes with `--yes`,
  /// else the user's answer at the prompt (``ask(_:)``).
  ///
  /// Without an answer (a no, or no one to ask) the alert is dismissed with `dismiss`, so the
  /// state never keeps a question nobody answers. A script or a one-shot command cannot be
  /// asked: without `--yes` its deletion fails, with a hint to add it.
  ///
  /// - Parameters:
  ///   - alert: The question the feature presents.
  ///   - yes: Whether `--yes` was given (``Option/yes``).
  ///   - dismiss: The action that closes the alert without an answer.
  ///   - subject: What is deleted, as the error names it: `'Read'`, `category 'Work'`.
  ///   - retry: The command again with `--yes`, for the hint.
  /// - Returns: The action of the alert's yes, to send; `nil` when the answer is no.
  /// - Throws: ``CommandError`` outside an interactive session without `--yes`, or when sending
  ///   `dismiss` fails.
  func answer<Action>(
    _ alert: AlertState<Action>, yes: Bool, dismiss: AppFeature.Action,
    deleting subject: String, retry: String
  ) async throws(CommandError) -> Action? {
    let answer: Action?
    if yes {
      answer = alert.yes
    } else if configuration.mode == .interactive {
      answer = ask(alert)
    } else {
      try await send(dismiss)
      throw CommandError(
        "deleting \(subject) needs a confirmation",
        hints: ["add --yes to delete without asking: '\(retry)'"])
    }
    if answer == nil { try await send(dismiss) }
    return answer
  }
}
