import AppFeature
import Loop

extension AlertState {
  /// The alert as one question at the prompt: its title, then its message.
  var question: String {
    guard let message else { return String(state: title) }
    return "\(String(state: title)) \(String(state: message))"
  }

  /// What answering yes sends: the action of the first button that does not cancel.
  var yes: Action? {
    buttons.first { $0.role != .cancel }?.action.action
  }
}

extension Option {
  /// `--yes`: a deletion that asks first is answered yes without asking.
  static let yes = Option(name: "yes", summary: "delete without asking")
}

extension Session {
  /// The answer to the question a command's deletion presented: the alert's yes with `--yes`,
  /// else the user's answer at the prompt (``ask(_:)``).
  ///
  /// Without an answer (a no, or no one to ask) the alert is dismissed with `dismiss`, so the
  /// state never keeps a question nobody answers. A script or a one-shot command cannot be
  /// asked: without `--yes` its deletion fails, with a hint to add it.
  ///
  /// - Parameters:
  ///   - alert: The question the feature presents.
  ///   - input: The command, read for `--yes`.
  ///   - dismiss: The action that closes the alert without an answer.
  ///   - subject: What is deleted, as the error names it: `'Read'`, `category 'Work'`.
  ///   - retry: The command again with `--yes`, for the hint.
  /// - Returns: The action of the alert's yes, to send; `nil` when the answer is no.
  /// - Throws: ``CommandError`` outside an interactive session without `--yes`, or when sending
  ///   `dismiss` fails.
  func answer<Action>(
    _ alert: AlertState<Action>, _ input: Invocation, dismiss: AppFeature.Action,
    deleting subject: String, retry: String
  ) async throws(CommandError) -> Action? {
    let answer: Action?
    if input.has(.yes) {
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
