import Loop

/// The REPL's own commands: `help`, `:trace`, `:state`, `:record`, `:quit` and `exit`.
enum REPLCommands {
  /// The commands, in the order `help` lists them.
  static let all = [help, trace, state, record, quit, exit]

  /// `help [noun] [verb]`: every command, or a noun's (or `import`'s, `export`'s) with its
  /// options, or one command's help, as `--help` after it prints.
  static let help = Command(
    verb: "help", summary: "List the commands, a noun's commands, or one command's help.",
    Argument(optional: "noun", help: "a noun, or import or export"),
    Argument(optional: "verb", help: "one of the noun's commands")
  ) { session, topic, verb throws(CommandError) in
    let style = session.style
    guard let topic else {
      session.console.print(Help.overview(style: style))
      return
    }
    if let verb {
      let (command, _) = try CommandTable.command(for: [topic, verb])
      session.console.print(Help.detail(of: command, style: style))
      return
    }
    if let command = InterchangeCommands.all.first(where: { $0.verb == topic }) {
      session.console.print(Help.command(command, style: style))
      return
    }
    // NB: through the table, not `all`, which holds this command.
    if Noun(rawValue: topic) == nil, let (command, _) = try? CommandTable.command(for: [topic]) {
      session.console.print(Help.detail(of: command, style: style))
      return
    }
    guard let noun = Noun(rawValue: topic) else {
      let suggestion = Suggestion.closest(
        to: topic,
        among: Noun.allCases.map(\.rawValue) + InterchangeCommands.all.map(\.verb))
      throw CommandError(
        "there is no help on '\(topic)'",
        hints: [suggestion.map { "did you mean '\($0)'?" } ?? "try 'help' for every command"])
    }
    session.console.print(Help.commands(of: noun, style: style))
  }

  /// `:trace on|off`: prints each action and the state change it caused, or stops.
  static let trace = Command(
    verb: ":trace", summary: "Print each action and the state change it caused.",
    Argument("switch", help: "on starts, off stops", choices: [("on", true), ("off", false)])
  ) { session, isOn throws(CommandError) in
    session.trace.isOn = isOn
    session.console.print("Tracing is \(session.trace.isOn ? "on" : "off").")
  }

  /// `:state`: the whole state, as the trace prints it.
  static let state = Command(verb: ":state", summary: "Print the whole state of the app.") {
    session throws(CommandError) in
    session.console.print(Diff.dump(session.store.state))
  }

  /// `:record FILE` records the session from here into FILE; `:record off` stops.
  static let record = Command(
    verb: ":record",
    summary: "Record the session from here into a file ('off' stops); 'loop replay' replays it.",
    Argument("file", help: "the file to record into, or off")
  ) { session, file throws(CommandError) in
    try await session.record(file)
  }

  /// `:quit`: ends the session.
  static let quit = Command(
    verb: ":quit", summary: "Leave (also 'exit', or Ctrl-D).", endsSession: true)

  /// `exit`: ends the session.
  static let exit = Command(verb: "exit", summary: "Leave.", endsSession: true)
}
