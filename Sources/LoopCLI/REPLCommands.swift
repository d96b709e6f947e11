import Loop

/// The REPL's own commands: `help`, `:trace`, `:state`, `:quit` and `exit`.
enum REPLCommands {
  /// The commands, in the order `help` lists them.
  static let all = [help, trace, state, quit, exit]

  private static let topic = Argument(name: "noun", isOptional: true)

  /// `help [noun]`: every command, or a noun's (or `import`'s, `export`'s) with its options.
  static let help = Command(
    verb: "help", arguments: [topic],
    summary: "List the commands, or a noun's commands with their options."
  ) { session, input throws(CommandError) in
    let style = session.style
    guard let topic = input[ifGiven: topic] else {
      session.console.print(Help.overview(style: style))
      return
    }
    if let command = InterchangeCommands.all.first(where: { $0.verb == topic }) {
      session.console.print(Help.command(command, style: style))
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

  private static let onOff = Argument(name: "switch", choices: ["on", "off"])

  /// `:trace on|off`: prints each action and the state change it caused, or stops.
  static let trace = Command(
    verb: ":trace", arguments: [onOff],
    summary: "Print each action and the state change it caused."
  ) { session, input throws(CommandError) in
    session.trace.isOn = input[onOff] == "on"
    session.console.print("Tracing is \(session.trace.isOn ? "on" : "off").")
  }

  /// `:state`: the whole state, as the trace prints it.
  static let state = Command(verb: ":state", summary: "Print the whole state of the app.") {
    session, _ throws(CommandError) in
    session.console.print(Diff.dump(session.store.state))
  }

  /// `:quit`: ends the session.
  static let quit = Command(
    verb: ":quit", summary: "Leave (also 'exit', or Ctrl-D).", endsSession: true)

  /// `exit`: ends the session.
  static let exit = Command(verb: "exit", summary: "Leave.", endsSession: true)
}
