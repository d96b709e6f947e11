/// The text of `help` and `help <noun>`, made from the command table.
enum Help {
  /// Every command with its usage line and summary, by noun, then the REPL's own.
  static func overview(style: Style) -> String {
    var lines: [String] = []
    for noun in Noun.allCases {
      lines.append(style.bold("\(noun.rawValue)") + " — \(noun.summary)")
      lines += commandLines(CommandTable.commands(of: noun))
      lines.append("")
    }
    lines.append(style.bold("import, export") + " — the whole database, in and out")
    lines += commandLines(CommandTable.databaseCommands)
    lines.append("")
    lines.append(style.bold("REPL"))
    lines += commandLines(CommandTable.builtins)
    lines.append("")
    lines.append("<ref> is the short id a listing shows; any unique start of it works.")
    lines.append("Quote words with spaces: \"two words\" or 'two words'.")
    lines.append("'help <noun>' shows a noun's options.")
    return lines.joined(separator: "\n")
  }

  /// A noun's commands with their usage lines, summaries and options.
  static func commands(of noun: Noun, style: Style) -> String {
    details(
      of: CommandTable.commands(of: noun), title: style.bold(noun.rawValue) + " — \(noun.summary)")
  }

  /// A command of the whole database (`import`, `export`) with its usage line, summary and
  /// options.
  static func command(_ spec: CommandSpec, style: Style) -> String {
    details(of: [spec], title: style.bold(spec.verb) + " — the whole database")
  }

  /// Commands with their usage lines, summaries and options, under a title.
  private static func details(of specs: [CommandSpec], title: String) -> String {
    var lines = [title, ""]
    for spec in specs {
      lines.append(spec.usage)
      lines.append("    \(spec.summary)")
      let width = spec.options.map { $0.usage.count }.max() ?? 0
      for option in spec.options {
        let usage = option.usage
        lines.append(
          "    \(usage)" + String(repeating: " ", count: width - usage.count)
            + "  \(option.summary)")
      }
    }
    return lines.joined(separator: "\n")
  }

  private static func commandLines(_ specs: [CommandSpec]) -> [String] {
    let shown = specs.map { spec in
      ([spec.name] + spec.arguments.map(\.usage)).joined(separator: " ")
    }
    let width = shown.map(\.count).max() ?? 0
    return zip(specs, shown).map { spec, usage in
      "  " + usage + String(repeating: " ", count: width - usage.count) + "  " + spec.summary
    }
  }
}
