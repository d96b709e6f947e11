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
}
