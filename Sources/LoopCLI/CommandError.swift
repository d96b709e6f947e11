/// A command that failed: a sentence for the user and hint lines that help them fix it.
struct CommandError: Error, Equatable, Sendable {
  /// What went wrong, as one sentence (printed after `error: `).
  var message: String
  /// What to do about it, one line each: a usage line, a suggestion, candidates.
  var hints: [String]
  /// Whether the command was cancelled (Ctrl-C) rather than failed: the message is printed as
  /// it is, without `error:`.
  var isCancellation = false
  /// Whether the command's usage line is the hint: a value a ``Parameter`` cannot read, which
  /// or a handler finds wrong, which the command then reports with its usage.
  var wantsUsage = false

  /// An error with its message and hints.
  init(_ message: String, hints: [String] = []) {
    self.message = message
    self.hints = hints
  }

  /// A mistake in how a command is written (a value its parameter cannot read, options that do
  /// not go together), reported with the command's usage line.
  ///
  /// - Parameter message: What is wrong, such as `'many' is not a number of weeks`.
  /// - Returns: The error.
  static func usage(_ message: String) -> CommandError {
    var error = CommandError(message)
    error.wantsUsage = true
    return error
  }

  /// The error with the usage line as its hint when it ``wantsUsage``; otherwise as it is.
  func withUsage(_ usage: String) -> CommandError {
    wantsUsage ? CommandError(message, hints: ["usage: \(usage)"]) : self
  }

  /// A command cancelled by Ctrl-C, which says what became of its work.
  ///
  /// - Parameter message: What the user reads, such as `Cancelled: nothing imported.`
  /// - Returns: The error.
  static func cancelled(_ message: String = "Cancelled.") -> CommandError {
    var error = CommandError(message)
    error.isCancellation = true
    return error
  }
}
