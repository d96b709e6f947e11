/// A typed value a command declares: the words it reads (its ``Declaration``s, for the usage
/// line, `help` and the parser) and how they become the value the command's handler receives.
///
/// A command lists its parameters, and its handler receives one value per parameter, of the
/// parameter's type, in the same order; a value it did not declare is no name in its scope, so
/// asking for one is a compile error:
///
/// ```swift
/// static let rename = Command(
///   noun: .habit, verb: "rename", summary: "Rename a habit.", Argument.ref(.habit), name
/// ) { session, ref, name in … }
/// ```
///
/// The two kinds are ``Argument`` (a positional word) and ``Option`` (`--name VALUE` or a flag,
/// or a few of them read as one value, such as ``Option/window``).
protocol Parameter<Value>: Sendable {
  /// What the handler receives.
  associatedtype Value

  /// The words it reads, in the order the usage line shows them.
  var declarations: [Declaration] { get }

  /// Reads the value from the words of a command line the parser sorted.
  ///
  /// - Throws: ``CommandError`` for a word that is not a value of the type, such as `--on
  ///   2025-02-30`; ``CommandError/usage(_:)`` when the usage line helps.
  func value(in words: ParsedWords) throws(CommandError) -> Value
}

/// One word or option of a command, as its usage line and `help` show it and the parser reads
/// it: `<ref>`, `[<memo>]`, `income|expense`, `--on YYYY-MM-DD`, `--yes`.
struct Declaration: Sendable, Equatable {
  /// What kind of word it is.
  enum Kind: Sendable, Equatable {
    /// A positional argument, which may be left out when `isOptional`.
    case argument(isOptional: Bool)
    /// `--name VALUE`, `valueName` saying what the value is (`YYYY-MM-DD`).
    case option(valueName: String)
    /// `--name`, without a value.
    case flag
  }

  /// The name: shown as `<name>` for an argument, without the dashes for an option.
  var name: String
  /// What kind of word it is.
  var kind: Kind
  /// The only values it accepts, in the order usage shows them, or `nil` for any.
  var choices: [String]?
  /// What it is, for `help`.
  var help: String
  /// Other words that name the option as typed, such as `-h` for `--help`.
  var aliases: [String] = []

  /// Whether it is a positional argument.
  var isArgument: Bool {
    if case .argument = kind { true } else { false }
  }

  /// How the usage line shows it: `<ref>`, `[<memo>]`, `income|expense`, `[--on YYYY-MM-DD]`.
  var usage: String {
    switch kind {
    case .argument(let isOptional):
      let shown = choices?.joined(separator: "|") ?? "<\(name)>"
      return isOptional ? "[\(shown)]" : shown
    case .option, .flag:
      return "[\(synopsis)]"
    }
  }

  /// How `help` names it: `<ref>`, `income|expense`, `--on YYYY-MM-DD`, `--yes`.
  var synopsis: String {
    switch kind {
    case .argument:
      choices?.joined(separator: "|") ?? "<\(name)>"
    case .option(let valueName):
      "--\(name) \(choices?.joined(separator: "|") ?? valueName)"
    case .flag:
      "--\(name)"
    }
  }
}
