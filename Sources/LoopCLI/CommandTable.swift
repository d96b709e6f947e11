/// The nouns the REPL's commands act on.
enum Noun: String, Sendable, CaseIterable {
  case link, category, habit, ledger

  /// What the noun is about, for `help`.
  var summary: String {
    switch self {
    case .link: "web pages to keep, with comments, favorites and categories"
    case .category: "the categories links are filed in"
    case .habit: "habits to do every day, their streaks and a heat map"
    case .ledger: "income and expenses, this month's balance and a yearly report"
    }
  }
}

/// Every command of the REPL, and how a line's words find theirs.
enum CommandTable {
  /// The commands, in the order `help` lists them.
  static let commands: [CommandSpec] =
    builtins + databaseCommands + linkCommands + categoryCommands + habitCommands
    + ledgerCommands

  /// The REPL's own commands.
  static let builtins: [CommandSpec] = [
    CommandSpec(
      id: .help, verb: "help", arguments: [ArgumentSpec(name: "noun", isOptional: true)],
      summary: "List the commands, or a noun's commands with their options."),
    CommandSpec(
      id: .trace, verb: ":trace",
      arguments: [ArgumentSpec(name: "switch", choices: ["on", "off"])],
      summary: "Print each action and the state change it caused."),
    CommandSpec(id: .state, verb: ":state", summary: "Print the whole state of the app."),
    CommandSpec(
      id: .record, verb: ":record", arguments: [ArgumentSpec(name: "file")],
      summary: "Record the session from here into a file ('off' stops); 'loop replay' replays it."),
    CommandSpec(id: .quit, verb: ":quit", summary: "Leave (also 'exit', or Ctrl-D)."),
    CommandSpec(id: .quit, verb: "exit", summary: "Leave."),
  ]

  private static let ref = ArgumentSpec(name: "ref")
  private static let file = ArgumentSpec(name: "file")
  private static let dryRun = OptionSpec(
    name: "dry-run", summary: "say what the import would do, and write nothing")
  private static let quiet = OptionSpec(name: "quiet", summary: "draw no progress bar")

  /// `--format` of an import or an export, with the formats it takes.
  private static func fileFormat(_ formats: [String], forImport isImport: Bool) -> OptionSpec {
    OptionSpec(
      name: "format", valueName: "FORMAT", choices: formats,
      summary: isImport
        ? "the file's format (found from its content by default)"
        : "the format to write (from the file's extension by default, else json)")
  }

  /// `--date-format` and `--decimal-separator` of a ledger CSV.
  private static let ledgerCSVOptions = [
    OptionSpec(
      name: "date-format", valueName: "PATTERN",
      summary: "how the CSV writes dates, such as dd.MM.yyyy (yyyy-MM-dd by default)"),
    OptionSpec(
      name: "decimal-separator", valueName: "SEPARATOR", choices: [".", ","],
      summary: "the character before the cents (. by default; , for 1.234,50)"),
  ]

  /// The commands on the whole database, which take no noun.
  static let databaseCommands: [CommandSpec] = [
    CommandSpec(
      id: .databaseImport, verb: "import", arguments: [file], options: [dryRun, quiet],
      summary: "Import a Loop export (JSON) of everything: links, habits and the ledger."),
    CommandSpec(
      id: .databaseExport, verb: "export", arguments: [file],
      summary: "Export everything as JSON, lossless: 'import' reads it back."),
  ]
  private static let day = OptionSpec(
    name: "on", valueName: "YYYY-MM-DD", summary: "the day (today by default)")

  private static let linkCategory = OptionSpec(
    name: "category", valueName: "NAME", summary: "the category's name")

  static let linkCommands: [CommandSpec] = [
    CommandSpec(
      id: .linkAdd, noun: .link, verb: "add",
      arguments: [ArgumentSpec(name: "title"), ArgumentSpec(name: "url")],
      options: [linkCategory, OptionSpec(name: "memo", valueName: "TEXT", summary: "a note")],
      summary: "Save a link."),
    CommandSpec(
      id: .linkList, noun: .link, verb: "list",
      options: [
        OptionSpec(name: "category", valueName: "NAME", summary: "only this category's links"),
        .format,
      ],
      summary: "List the links, newest first."),
    CommandSpec(
      id: .linkSearch, noun: .link, verb: "search", arguments: [ArgumentSpec(name: "query")],
      options: [.format], summary: "Find the links whose title contains the query."),
    CommandSpec(
      id: .linkRecent, noun: .link, verb: "recent", options: [.format],
      summary: "List the links opened most recently."),
    CommandSpec(
      id: .linkShow, noun: .link, verb: "show", arguments: [ref], options: [.format],
      summary: "Show a link with its comments."),
    CommandSpec(
      id: .linkOpen, noun: .link, verb: "open", arguments: [ref],
      summary: "Open a link: print its address and mark it viewed."),
    CommandSpec(
      id: .linkFavorite, noun: .link, verb: "fav", arguments: [ref],
      summary: "Mark a link as a favorite."),
    CommandSpec(
      id: .linkUnfavorite, noun: .link, verb: "unfav", arguments: [ref],
      summary: "Unmark a favorite."),
    CommandSpec(
      id: .linkUpdate, noun: .link, verb: "update", arguments: [ref],
      options: [
        OptionSpec(name: "title", valueName: "TITLE", summary: "the new title"),
        OptionSpec(name: "url", valueName: "URL", summary: "the new address"),
        linkCategory,
        OptionSpec(name: "no-category", summary: "take the link out of its category"),
        OptionSpec(name: "memo", valueName: "TEXT", summary: "the new note (empty removes it)"),
      ],
      summary: "Change a link."),
    CommandSpec(
      id: .linkRemove, noun: .link, verb: "rm", arguments: [ref],
      summary: "Delete a link and its comments."),
    CommandSpec(
      id: .linkComment, noun: .link, verb: "comment",
      arguments: [ref, ArgumentSpec(name: "text")], summary: "Comment on a link."),
    CommandSpec(
      id: .linkImport, noun: .link, verb: "import", arguments: [file],
      options: [fileFormat(["html", "csv", "json"], forImport: true), dryRun, quiet],
      summary: "Import a browser's bookmark file (HTML), a CSV or a Loop export."),
    CommandSpec(
      id: .linkExport, noun: .link, verb: "export", arguments: [file],
      options: [fileFormat(["json", "csv", "html"], forImport: false)],
      summary: "Export the links as JSON, CSV, or a bookmark file browsers import."),
  ]

  static let categoryCommands: [CommandSpec] = [
    CommandSpec(
      id: .categoryAdd, noun: .category, verb: "add", arguments: [ArgumentSpec(name: "name")],
      summary: "Add a category."),
    CommandSpec(
      id: .categoryList, noun: .category, verb: "list", options: [.format],
      summary: "List the categories with their numbers of links."),
    CommandSpec(
      id: .categoryRename, noun: .category, verb: "rename",
      arguments: [ArgumentSpec(name: "name"), ArgumentSpec(name: "new name")],
      summary: "Rename a category."),
    CommandSpec(
      id: .categoryRemove, noun: .category, verb: "rm", arguments: [ArgumentSpec(name: "name")],
      summary: "Delete a category; its links stay, uncategorized."),
  ]

  static let habitCommands: [CommandSpec] = [
    CommandSpec(
      id: .habitAdd, noun: .habit, verb: "add", arguments: [ArgumentSpec(name: "name")],
      summary: "Start tracking a habit."),
    CommandSpec(
      id: .habitList, noun: .habit, verb: "list", options: [.format],
      summary: "List the habits with today's progress and streaks."),
    CommandSpec(
      id: .habitDone, noun: .habit, verb: "done", arguments: [ref], options: [day],
      summary: "Mark a habit done today, or on an earlier day."),
    CommandSpec(
      id: .habitUndo, noun: .habit, verb: "undo", arguments: [ref], options: [day],
      summary: "Take back a habit's completion."),
    CommandSpec(
      id: .habitRename, noun: .habit, verb: "rename",
      arguments: [ref, ArgumentSpec(name: "name")], summary: "Rename a habit."),
    CommandSpec(
      id: .habitArchive, noun: .habit, verb: "archive", arguments: [ref],
      summary: "Archive a habit: it keeps its history but takes no completions."),
    CommandSpec(
      id: .habitUnarchive, noun: .habit, verb: "unarchive", arguments: [ref],
      summary: "Make an archived habit active again."),
    CommandSpec(
      id: .habitShow, noun: .habit, verb: "show", arguments: [ref],
      options: [
        OptionSpec(name: "weeks", valueName: "N", summary: "how many weeks the heat map shows"),
        .format,
      ],
      summary: "Show a habit's streaks and a heat map of its last weeks."),
    CommandSpec(
      id: .habitRemove, noun: .habit, verb: "rm", arguments: [ref],
      options: [OptionSpec(name: "yes", summary: "delete without asking")],
      summary: "Delete a habit and its history (asks first)."),
    CommandSpec(
      id: .habitExport, noun: .habit, verb: "export", arguments: [file],
      options: [fileFormat(["json", "csv"], forImport: false)],
      summary: "Export the habits and their completions as JSON or CSV."),
  ]

  private static let category = OptionSpec(
    name: "category", valueName: "NAME", summary: "the category, such as Food")

  static let ledgerCommands: [CommandSpec] = [
    CommandSpec(
      id: .ledgerAdd, noun: .ledger, verb: "add",
      arguments: [
        ArgumentSpec(name: "kind", choices: ["income", "expense"]), ArgumentSpec(name: "amount"),
        ArgumentSpec(name: "memo", isOptional: true),
      ],
      options: [day, category], summary: "Record income or an expense."),
    CommandSpec(
      id: .ledgerList, noun: .ledger, verb: "list", options: [.format],
      summary: "List every transaction, newest first."),
    CommandSpec(
      id: .ledgerHome, noun: .ledger, verb: "home", options: [.format],
      summary: "Show this month's balance and the 4 most recent transactions."),
    CommandSpec(
      id: .ledgerUpdate, noun: .ledger, verb: "update", arguments: [ref],
      options: [
        OptionSpec(
          name: "kind", valueName: "KIND", choices: ["income", "expense"],
          summary: "income or expense"),
        OptionSpec(name: "amount", valueName: "AMOUNT", summary: "the amount, such as 12.50"),
        OptionSpec(name: "memo", valueName: "TEXT", summary: "what it was"),
        OptionSpec(name: "on", valueName: "YYYY-MM-DD", summary: "the day"),
        category,
        OptionSpec(name: "no-category", summary: "remove the category"),
      ],
      summary: "Change a transaction."),
    CommandSpec(
      id: .ledgerRemove, noun: .ledger, verb: "rm", arguments: [ref],
      summary: "Delete a transaction."),
    CommandSpec(
      id: .ledgerReport, noun: .ledger, verb: "report",
      options: [
        OptionSpec(
          name: "kind", valueName: "KIND", choices: ["expense", "income"],
          summary: "which kind the category totals sum (expense by default)"),
        .format,
      ],
      summary: "Chart the last 12 months and total the categories."),
    CommandSpec(
      id: .ledgerImport, noun: .ledger, verb: "import", arguments: [file],
      options: [fileFormat(["csv", "json"], forImport: true)] + ledgerCSVOptions + [dryRun, quiet],
      summary: "Import transactions from a CSV or a Loop export; one bad row imports none."),
    CommandSpec(
      id: .ledgerExport, noun: .ledger, verb: "export", arguments: [file],
      options: [fileFormat(["json", "csv"], forImport: false)] + ledgerCSVOptions,
      summary: "Export the transactions as JSON or CSV."),
  ]

  /// The commands of a noun, in table order.
  static func commands(of noun: Noun) -> [CommandSpec] {
    commands.filter { $0.noun == noun }
  }

  /// Finds the command a line's words name.
  ///
  /// - Parameter words: The line's words; not empty.
  /// - Returns: The command and the words after its name.
  /// - Throws: ``CommandError`` for an unknown command (with a suggestion when one is close),
  ///   or a noun without a verb.
  static func command(for words: [String]) throws(CommandError) -> (CommandSpec, ArraySlice<String>)
  {
    guard let first = words.first else { throw CommandError("no command given") }
    // NB: looked up without building arrays: every line of a script comes through here.
    if let builtin = builtins.first(where: { $0.verb == first })
      ?? databaseCommands.first(where: { $0.verb == first })
    {
      return (builtin, words.dropFirst())
    }
    guard let noun = Noun(rawValue: first) else {
      let candidates =
        Noun.allCases.map(\.rawValue) + databaseCommands.map(\.verb) + builtins.map(\.verb)
      if let suggestion = Suggestion.closest(to: first, among: candidates) {
        throw CommandError(
          "unknown command '\(first)'", hints: ["did you mean '\(suggestion)'?"])
      }
      throw CommandError(
        "unknown command '\(first)'", hints: ["type 'help' to see the commands"])
    }
    guard words.count > 1 else {
      throw CommandError(
        "'\(noun.rawValue)' needs a command: \(CommandSpec.list(commands(of: noun).map(\.verb)))",
        hints: ["type 'help \(noun.rawValue)' to see what each does"])
    }
    let verb = words[1]
    guard let spec = commands.first(where: { $0.noun == noun && $0.verb == verb }) else {
      let verbs = commands(of: noun).map(\.verb)
      if let suggestion = Suggestion.closest(to: verb, among: verbs) {
        throw CommandError(
          "unknown command '\(noun.rawValue) \(verb)'",
          hints: ["did you mean '\(noun.rawValue) \(suggestion)'?"])
      }
      throw CommandError(
        "unknown command '\(noun.rawValue) \(verb)'",
        hints: ["'\(noun.rawValue)' takes \(CommandSpec.list(verbs))"])
    }
    return (spec, words.dropFirst(2))
  }

  /// The words that can complete the word being typed, for tab completion.
  ///
  /// - Parameters:
  ///   - previous: The words before the one being completed.
  ///   - prefix: What is typed of the word being completed.
  /// - Returns: The candidates that start with `prefix`, in table order, each once.
  static func completions(after previous: [String], prefix: String) -> [String] {
    var candidates: [String]
    switch previous.count {
    case 0:
      candidates =
        Noun.allCases.map(\.rawValue) + databaseCommands.map(\.verb) + builtins.map(\.verb)
    case 1:
      if let noun = Noun(rawValue: previous[0]) {
        candidates = commands(of: noun).map(\.verb)
      } else if previous[0] == "help" {
        candidates = Noun.allCases.map(\.rawValue) + databaseCommands.map(\.verb)
      } else if previous[0] == ":trace" {
        candidates = ["on", "off"]
      } else {
        candidates = []
      }
    default:
      do {
        let (spec, _) = try command(for: previous)
        candidates = prefix.hasPrefix("-") ? spec.options.map { "--\($0.name)" } : []
      } catch {
        // NB: the words before are no command: there is nothing to complete.
        candidates = []
      }
    }
    var seen: Set<String> = []
    return candidates.filter { $0.hasPrefix(prefix) && seen.insert($0).inserted }
  }
}
