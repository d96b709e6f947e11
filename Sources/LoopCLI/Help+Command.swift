/// The help of one command: what `habit done --help`, `habit done -h` and `help habit done`
/// print.
extension Help {
  /// The words that ask for a command's help instead of running it, wherever they follow it.
  static let helpWords: Set<String> = ["--help", "-h"]

  /// A command's usage line, summary, each argument and option with what it is and the values
  /// it takes, and an example.
  static func detail(of command: Command, style: Style) -> String {
    var lines = ["usage: \(command.usage)", "", command.summary]
    let help = Declaration(
      name: "help", kind: .flag, help: "print this help", aliases: ["-h"])
    let sections: [(String, [Declaration])] = [
      ("arguments", command.arguments), ("options", command.options + [help]),
    ]
    let width = sections.flatMap(\.1).map(\.helpSynopsis.count).max() ?? 0
    for (title, declarations) in sections where !declarations.isEmpty {
      lines += ["", style.bold(title) + ":"]
      for declaration in declarations {
        let synopsis = declaration.helpSynopsis
        lines.append(
          "  \(synopsis)" + String(repeating: " ", count: width - synopsis.count)
            + "  \(declaration.help)")
      }
    }
    lines += ["", style.bold("example") + ":", "  \(example(of: command))"]
    return lines.joined(separator: "\n")
  }

  /// The example `help` shows of `command`: its own, or its name and its arguments' sample
  /// values.
  static func example(of command: Command) -> String {
    if let example = examples[command.name] { return example }
    let words = command.arguments.filter { $0.kind == .argument(isOptional: false) }.map {
      $0.choices?.first ?? "<\($0.name)>"
    }
    return ([command.name] + words).joined(separator: " ")
  }

  /// One example for each command.
  private static let examples: [String: String] = [
    "link add": "link add 'Swift book' https://docs.swift.org/book --category Reading",
    "link list": "link list --category Reading --limit 20",
    "link search": "link search swift",
    "link recent": "link recent",
    "link show": "link show swift",
    "link open": "link open 'Swift book'",
    "link fav": "link fav swift",
    "link unfav": "link unfav swift",
    "link update": "link update swift --title 'The Swift book' --category Reading",
    "link rm": "link rm swift",
    "link comment": "link comment swift 'Chapter 3 next'",
    "link import": "link import bookmarks.html",
    "link export": "link export links.json",
    "category add": "category add Reading",
    "category list": "category list",
    "category rename": "category rename Work Office",
    "category rm": "category rm Office --yes",
    "habit add": "habit add 'Read 20 pages'",
    "habit list": "habit list",
    "habit done": "habit done read --on 2026-11-30",
    "habit undo": "habit undo read --on 2026-11-30",
    "habit rename": "habit rename stretch 'Stretch 10 minutes'",
    "habit archive": "habit archive stretch",
    "habit unarchive": "habit unarchive stretch",
    "habit show": "habit show read --weeks 8",
    "habit rm": "habit rm stretch --yes",
    "habit export": "habit export habits.csv",
    "ledger add": "ledger add expense 12.50 Lunch --category Food --on 2026-11-30",
    "ledger list": "ledger list --limit 20",
    "ledger home": "ledger home",
    "ledger update": "ledger update lunch --amount 14.20",
    "ledger rm": "ledger rm lunch",
    "ledger report": "ledger report --from 2025-01 --to 2025-12 --kind income",
    "ledger import": "ledger import bank.csv --date-format dd.MM.yyyy --decimal-separator ,",
    "ledger export": "ledger export ledger.csv",
    "import": "import backup.json --dry-run",
    "export": "export backup.json",
    "help": "help habit done",
    ":trace": ":trace on",
    ":state": ":state",
    ":record": ":record session.txt",
    ":quit": ":quit",
    "exit": "exit",
  ]
}

extension Declaration {
  /// How a command's help names it: its ``synopsis``, and its aliases (`--help, -h`).
  var helpSynopsis: String {
    ([synopsis] + aliases).joined(separator: ", ")
  }
}
