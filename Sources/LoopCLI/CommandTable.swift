import Foundation

/// Every command of the REPL, and how a line's words find theirs.
enum CommandTable {
  /// The commands, in the order `help` lists them.
  static let commands: [Command] =
    REPLCommands.all + InterchangeCommands.all + Noun.allCases.flatMap(\.commands)

  /// The commands without a noun: the REPL's own, then those on the whole database.
  private static let builtins = REPLCommands.all + InterchangeCommands.all

  /// The words a line can start with: the nouns, then the commands without one.
  private static let firstWords =
    Noun.allCases.map(\.rawValue) + InterchangeCommands.all.map(\.verb)
    + REPLCommands.all.map(\.verb)

  /// Finds the command a line's words name.
  ///
  /// - Parameter words: The line's words; not empty.
  /// - Returns: The command and the words after its name.
  /// - Throws: ``CommandError`` for an unknown command (with a suggestion when one is close),
  ///   or a noun without a verb.
  static func command(for words: [String]) throws(CommandError) -> (Command, ArraySlice<String>) {
    guard let first = words.first else { throw CommandError("no command given") }
    // NB: looked up in arrays built once: every line of a script comes through here.
    if let builtin = builtins.first(where: { $0.verb == first }) {
      return (builtin, words.dropFirst())
    }
    guard let noun = Noun(rawValue: first) else {
      if let suggestion = Suggestion.closest(to: first, among: firstWords) {
        throw CommandError(
          "unknown command '\(first)'", hints: ["did you mean '\(suggestion)'?"])
      }
      throw CommandError(
        "unknown command '\(first)'", hints: ["type 'help' to see the commands"])
    }
    guard words.count > 1 else {
      throw CommandError(
        "'\(noun.rawValue)' needs a command: \(Command.list(noun.commands.map(\.verb)))",
        hints: ["type 'help \(noun.rawValue)' to see what each does"])
    }
    let verb = words[1]
    let commands = noun.commands
    guard let command = commands.first(where: { $0.verb == verb }) else {
      let verbs = commands.map(\.verb)
      if let suggestion = Suggestion.closest(to: verb, among: verbs) {
        throw CommandError(
          "unknown command '\(noun.rawValue) \(verb)'",
          hints: ["did you mean '\(noun.rawValue) \(suggestion)'?"])
      }
      throw CommandError(
        "unknown command '\(noun.rawValue) \(verb)'",
        hints: ["'\(noun.rawValue)' takes \(Command.list(verbs))"])
    }
    return (command, words.dropFirst(2))
  }

  /// The words that can complete the word being typed, for tab completion.
  ///
  /// - Parameters:
  ///   - previous: The words before the one being completed.
  ///   - prefix: What is typed of the word being completed.
  ///   - names: The names of a noun's loaded items, offered where its `<ref>` goes (those that
  ///     start with `prefix`, ignoring case; quoted when they hold a space).
  /// - Returns: The candidates that start with `prefix`, in table order, each once.
  static func completions(
    after previous: [String], prefix: String, names: (Noun) -> [String] = { _ in [] }
  ) -> [String] {
    var candidates: [String]
    switch previous.count {
    case 0:
      candidates = firstWords
    case 1:
      if let noun = Noun(rawValue: previous[0]) {
        candidates = noun.commands.map(\.verb)
      } else if previous[0] == "help" {
        candidates = Noun.allCases.map(\.rawValue) + InterchangeCommands.all.map(\.verb)
      } else if previous[0] == ":trace" {
        candidates = ["on", "off"]
      } else {
        candidates = []
      }
    default:
      do {
        let (found, rest) = try command(for: previous)
        if prefix.hasPrefix("-") {
          candidates = found.options.map { "--\($0.name)" }
        } else if let noun = found.noun,
          found.arguments.dropFirst(rest.count(where: { !$0.hasPrefix("-") })).first?.name == "ref"
        {
          return refNames(names(noun), prefix: prefix)
        } else {
          candidates = []
        }
      } catch {
        // NB: the words before are no command: there is nothing to complete.
        candidates = []
      }
    }
    var seen: Set<String> = []
    return candidates.filter { $0.hasPrefix(prefix) && seen.insert($0).inserted }
  }

  /// The names that start with `prefix` (ignoring case), each once, as a word to type: quoted
  /// when it holds a space or a quote.
  private static func refNames(_ names: [String], prefix: String) -> [String] {
    var seen: Set<String> = []
    return names.filter {
      $0.range(of: prefix, options: [.anchored, .caseInsensitive]) != nil
        && seen.insert($0).inserted
    }.map { name in
      guard name.contains(where: { $0.isWhitespace || $0 == "'" || $0 == "\"" }) else {
        return name
      }
      return name.contains("'") ? "\"\(name)\"" : "'\(name)'"
    }
  }
}
