extension Session {
  /// How the session runs.
  public struct Configuration: Sendable {
    /// Where the commands come from.
    public enum Mode: Sendable, Equatable {
      /// A person at a terminal: a prompt, confirmations, errors do not end the session.
      case interactive
      /// A script (`--script FILE`, or standard input that is not a terminal), named in error
      /// locations: no prompt; the first failing command ends it unless `keepGoing`.
      case script(name: String)
      /// One command from the process arguments.
      case oneShot
    }

    /// Where the commands come from.
    public var mode: Mode
    /// In a script, whether to run the commands after a failing one (the exit status is still
    /// 1).
    public var keepGoing: Bool
    /// Whether output may have colours.
    public var usesColor: Bool
    /// How many columns the terminal the output goes to has, which tables fit by cutting their
    /// titles, names and memos; `nil` when the output is no terminal (nothing is cut).
    public var width: Int? = nil
    /// Where the data lives, for messages about storage failures: a path, or `nil` in memory.
    public var databasePath: String?
    /// Whether imports draw a progress bar on standard error (a terminal without `NO_COLOR`).
    public var showsProgress: Bool
    /// Where relative file paths of `import` and `export` start; `nil` for the process's
    /// current directory.
    public var currentDirectory: String?
    /// What cancels a running command in an interactive session (Ctrl-C); `nil` for nothing.
    var interrupts: Interrupts?

    /// A configuration with these values.
    public init(
      mode: Mode, keepGoing: Bool = false, usesColor: Bool = false, databasePath: String? = nil,
      showsProgress: Bool = false, currentDirectory: String? = nil
    ) {
      self.init(
        mode: mode, keepGoing: keepGoing, usesColor: usesColor, databasePath: databasePath,
        showsProgress: showsProgress, currentDirectory: currentDirectory, interrupts: nil)
    }

    /// A configuration with these values, cancelling commands on `interrupts`.
    init(
      mode: Mode, keepGoing: Bool = false, usesColor: Bool = false, databasePath: String? = nil,
      showsProgress: Bool = false, currentDirectory: String? = nil, interrupts: Interrupts?
    ) {
      self.interrupts = interrupts
      self.mode = mode
      self.keepGoing = keepGoing
      self.usesColor = usesColor
      self.databasePath = databasePath
      self.showsProgress = showsProgress
      self.currentDirectory = currentDirectory
    }
  }
}
