/// What a command does: one case per command of the table, so that a `switch` over it handles
/// every command.
enum CommandID: Sendable, CaseIterable {
  case help, quit, trace, state, record
  case linkAdd, linkList, linkSearch, linkRecent, linkShow, linkOpen, linkFavorite
  case linkUnfavorite, linkUpdate, linkRemove, linkComment
  case categoryAdd, categoryList, categoryRename, categoryRemove
  case habitAdd, habitList, habitDone, habitUndo, habitRename, habitArchive, habitUnarchive
  case habitShow, habitRemove
  case ledgerAdd, ledgerList, ledgerHome, ledgerUpdate, ledgerRemove, ledgerReport
  case linkImport, linkExport, habitExport, ledgerImport, ledgerExport
  case databaseImport, databaseExport
}

/// A positional argument of a command.
struct ArgumentSpec: Sendable {
  /// The name shown in the usage line, such as `ref` in `<ref>`.
  var name: String
  /// Whether it may be left out.
  var isOptional = false
  /// The only values it accepts, or `nil` for any; shown as `income|expense`.
  var choices: [String]?

  /// How the usage line shows it.
  var usage: String {
    let shown = choices?.joined(separator: "|") ?? "<\(name)>"
    return isOptional ? "[\(shown)]" : shown
  }
}

/// An option of a command: `--name VALUE`, or a flag without a value.
struct OptionSpec: Sendable {
  /// The name without the dashes.
  var name: String
  /// What the value is, such as `YYYY-MM-DD`; `nil` for a flag.
  var valueName: String?
  /// The only values it accepts, or `nil` for any.
  var choices: [String]?
  /// What it does, for `help`.
  var summary: String

  /// How the usage line shows it.
  var usage: String {
    if let choices { return "--\(name) \(choices.joined(separator: "|"))" }
    if let valueName { return "--\(name) \(valueName)" }
    return "--\(name)"
  }

  /// `--format text|json`, which every listing takes.
  static let format = OptionSpec(
    name: "format", valueName: "FORMAT", choices: ["text", "json"],
    summary: "json prints the data as JSON instead of a table")
}

/// A command of the REPL: its words, arguments, options and what it is for.
struct CommandSpec: Sendable {
  /// What the command does.
  var id: CommandID
  /// The noun (`habit`), or `nil` for a command of the REPL itself (`help`).
  var noun: Noun?
  /// The verb (`add`), or the whole word of a REPL command (`help`, `:trace`).
  var verb: String
  /// The positional arguments, in order.
  var arguments: [ArgumentSpec] = []
  /// The options, in the order `help` lists them.
  var options: [OptionSpec] = []
  /// One sentence for `help`.
  var summary: String

  /// The words that name the command: `habit add`, `help`.
  var name: String { noun.map { "\($0.rawValue) \(verb)" } ?? verb }

  /// The usage line: `habit done <ref> [--on YYYY-MM-DD]`.
  var usage: String {
    ([name] + arguments.map(\.usage) + options.map { "[\($0.usage)]" }).joined(separator: " ")
  }

  /// Reads the words after the command's name into its arguments and options.
  ///
  /// Options may come anywhere, as `--name value` or `--name=value`; `--` ends them, so that a
  /// later word starting with `--` is an argument.
  ///
  /// - Parameter words: The words after the command's name.
  /// - Returns: The arguments and options.
  /// - Throws: ``CommandError`` for a missing or extra argument, an unknown or repeated option,
  ///   a missing value, or a value that is not one of the choices.
  func parse(_ words: ArraySlice<String>) throws(CommandError) -> Invocation {
    var positionals: [String] = []
    var values: [String: String] = [:]
    var flags: Set<String> = []
    var remaining = words[...]
    var optionsEnded = false
    while let word = remaining.popFirst() {
      guard !optionsEnded, word.hasPrefix("--") else {
        positionals.append(word)
        continue
      }
      if word == "--" {
        optionsEnded = true
        continue
      }
      let body = word.dropFirst(2)
      let name = String(body.prefix { $0 != "=" })
      let inlineValue = body.firstIndex(of: "=").map { String(body[body.index(after: $0)...]) }
      guard let option = options.first(where: { $0.name == name }) else {
        throw unknownOption("--\(name)")
      }
      guard values[name] == nil, !flags.contains(name) else {
        throw usageError("the option '--\(name)' is given twice")
      }
      guard option.valueName != nil else {
        if inlineValue != nil { throw usageError("the option '--\(name)' takes no value") }
        flags.insert(name)
        continue
      }
      guard let value = inlineValue ?? remaining.popFirst() else {
        throw usageError("the option '--\(name)' needs a value")
      }
      if let choices = option.choices, !choices.contains(value) {
        throw usageError(
          "'\(value)' is not a value of '--\(name)': use \(Self.list(choices))")
      }
      values[name] = value
    }

    var arguments: [String: String] = [:]
    for (index, argument) in self.arguments.enumerated() {
      guard index < positionals.count else {
        if argument.isOptional { continue }
        throw usageError(
          "'\(name)' needs \(argument.choices.map(Self.list) ?? "<\(argument.name)>")")
      }
      let value = positionals[index]
      if let choices = argument.choices, !choices.contains(value) {
        throw usageError("'\(value)' is not \(Self.list(choices))")
      }
      arguments[argument.name] = value
    }
    if positionals.count > self.arguments.count {
      let extra = positionals[self.arguments.count]
      throw usageError("unexpected argument '\(extra)'")
    }
    return Invocation(spec: self, arguments: arguments, values: values, flags: flags)
  }

  /// An error about how the command was written, with the usage line as its hint.
  func usageError(_ message: String) -> CommandError {
    CommandError(message, hints: ["usage: \(usage)"])
  }

  private func unknownOption(_ option: String) -> CommandError {
    let names = options.map { "--\($0.name)" }
    if let suggestion = Suggestion.closest(to: option, among: names) {
      return CommandError(
        "'\(name)' has no option '\(option)'", hints: ["did you mean '\(suggestion)'?"])
    }
    return usageError("'\(name)' has no option '\(option)'")
  }

  /// `'a'`, `'a' or 'b'`, `'a', 'b' or 'c'`.
  static func list(_ choices: [String]) -> String {
    let quoted = choices.map { "'\($0)'" }
    guard let last = quoted.last else { return "" }
    return quoted.count == 1 ? last : quoted.dropLast().joined(separator: ", ") + " or " + last
  }
}

/// A command as typed: its spec, and the values of its arguments and options.
struct Invocation: Sendable {
  /// The command.
  var spec: CommandSpec
  /// The positional arguments given, by name.
  var arguments: [String: String]
  /// The options given with a value, by name (without dashes).
  var values: [String: String]
  /// The flags given, by name (without dashes).
  var flags: Set<String>

  /// The argument named `name`, or `nil` when it was left out.
  subscript(argument name: String) -> String? { arguments[name] }

  /// The value of the option `--name`, or `nil` when it was not given.
  subscript(option name: String) -> String? { values[name] }

  /// Whether the flag `--name` was given.
  func has(_ name: String) -> Bool { flags.contains(name) }

  /// Whether `--format json` was given.
  var wantsJSON: Bool { values["format"] == "json" }
}

/// A command that failed: a sentence for the user and hint lines that help them fix it.
struct CommandError: Error, Equatable, Sendable {
  /// What went wrong, as one sentence (printed after `error: `).
  var message: String
  /// What to do about it, one line each: a usage line, a suggestion, candidates.
  var hints: [String]

  /// Creates an error.
  ///
  /// - Parameters:
  ///   - message: What went wrong.
  ///   - hints: What to do about it.
  init(_ message: String, hints: [String] = []) {
    self.message = message
    self.hints = hints
  }
}
