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
