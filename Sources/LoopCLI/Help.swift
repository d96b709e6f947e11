/// The text of `help` and `help <noun>`, made from the command table.
enum Help {
  /// Every command with its usage line and summary, by noun, then the REPL's own.
  static func overview(style: Style) -> String {
    var lines: [String] = []
    for noun in Noun.allCases {
      lines.append(style.bold("\(noun.rawValue)") + " — \(noun.summary)")
      lines += commandLines(noun.commands)
      lines.append("")
    }
    lines.append(style.bold("import, export") + " — the whole database, in and out")
    lines += commandLines(InterchangeCommands.all)
    lines.append("")
    lines.append(style.bold("REPL"))
    lines += commandLines(REPLCommands.all)
    lines.append("")
    lines.append("<ref> is the short id a listing shows, or a name: any unique start of either,")
    lines.append("or a unique part of a name.")
    lines.append("Quote words with spaces: \"two words\" or 'two words'.")
    lines.append("'help <noun>' shows a noun's options; '<command> --help' or")
    lines.append("'help <noun> <verb>' one command's, with an example.")
    return lines.joined(separator: "\n")
  }

  /// A noun's commands with their usage lines, summaries and options.
  static func commands(of noun: Noun, style: Style) -> String {
    details(
      of: noun.commands, title: style.bold(noun.rawValue) + " — \(noun.summary)")
  }

  /// A command of the whole database (`import`, `export`) with its usage line, summary and
  /// options.
  static func command(_ command: Command, style: Style) -> String {
    details(of: [command], title: style.bold(command.verb) + " — the whole database")
  }

  /// Commands with their usage lines, summaries, and a line for each argument and option,
  /// under a title.
  private static func details(of commands: [Command], title: String) -> String {
    var lines = [title, ""]
    for command in commands {
      lines.append(command.usage)
      lines.append("    \(command.summary)")
      let parameters = command.arguments + command.options
      let width = parameters.map(\.synopsis.count).max() ?? 0
      for parameter in parameters {
        let synopsis = parameter.synopsis
        lines.append(
          "    \(synopsis)" + String(repeating: " ", count: width - synopsis.count)
            + "  \(parameter.help)")
      }
    }
    return lines.joined(separator: "\n")
  }

  private static func commandLines(_ commands: [Command]) -> [String] {
    let shown = commands.map { command in
      ([command.name] + command.arguments.map(\.usage)).joined(separator: " ")
    }
    let width = shown.map(\.count).max() ?? 0
    return zip(commands, shown).map { command, usage in
      "  " + usage + String(repeating: " ", count: width - usage.count) + "  " + command.summary
    }
  }
}
