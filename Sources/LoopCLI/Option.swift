import HabitClient

/// An option of a command (`--name VALUE`, or a flag without a value), or a few read as one
/// value (``window``): read as a `Value` before the handler runs.
///
/// An option with a value reads as an optional, `nil` when it is not given; a flag reads as
/// whether it is given.
struct Option<Value>: Parameter {
  let declarations: [Declaration]
  private let read: @Sendable (ParsedWords) throws(CommandError) -> Value

  func value(in words: ParsedWords) throws(CommandError) -> Value {
    try read(words)
  }

  /// Options declared by `declarations`, read together by `read`.
  init(
    declarations: [Declaration],
    read: @escaping @Sendable (ParsedWords) throws(CommandError) -> Value
  ) {
    self.declarations = declarations
    self.read = read
  }

  /// `--name VALUE`, read by `parse`; `nil` when it is not given.
  ///
  /// - Parameters:
  ///   - name: The name, without the dashes.
  ///   - valueName: What the value is, for usage: `YYYY-MM-DD`.
  ///   - choices: The only values the parser accepts, or `nil` for any.
  ///   - help: What it is, for `help`.
  ///   - parse: Reads the value typed.
  init<Wrapped>(
    _ name: String, valueName: String, choices: [String]? = nil, help: String,
    parse: @escaping @Sendable (String) throws(CommandError) -> Wrapped
  ) where Value == Wrapped? {
    self.init(
      declarations: [
        Declaration(name: name, kind: .option(valueName: valueName), choices: choices, help: help)
      ]
    ) { words throws(CommandError) in
      guard let text = words.values[name] else { return nil }
      return try parse(text)
    }
  }

  /// `--name VALUE` where the value is one of `choices`, each a word and the value it stands
  /// for; `nil` when it is not given.
  ///
  /// The parser refuses any other word, naming the choices.
  init<Wrapped: Sendable>(
    _ name: String, valueName: String, help: String, choices: [(word: String, value: Wrapped)]
  ) where Value == Wrapped? {
    self.init(name, valueName: valueName, choices: choices.map(\.word), help: help) {
      text throws(CommandError) in
      guard let value = choices.first(where: { $0.word == text })?.value else {
        throw .usage("'\(text)' is not \(Command.list(choices.map(\.word)))")
      }
      return value
    }
  }

  /// An option that reads as nothing and declares nothing: what a command passes where its
  /// kind of command has an option it does not (an export of everything takes no `--format`).
  ///
  /// - Parameter value: The value the handler receives.
  /// - Returns: The option.
  static func absent(_ value: Value) -> Option where Value: Sendable {
    Option(declarations: []) { _ in value }
  }
}

extension Option where Value == String? {
  /// `--name VALUE`, the value as typed; `nil` when it is not given.
  init(_ name: String, valueName: String, choices: [String]? = nil, help: String) {
    self.init(name, valueName: valueName, choices: choices, help: help) { $0 }
  }
}

extension Option where Value == Bool {
  /// `--name`, a flag: whether it is given.
  init(flag name: String, aliases: [String] = [], help: String) {
    self.init(
      declarations: [Declaration(name: name, kind: .flag, help: help, aliases: aliases)]
    ) { $0.flags.contains(name) }
  }

  /// `--yes`: a deletion that asks first is answered yes without asking
  /// (``Session/answer(_:yes:dismiss:deleting:retry:)``).
  static let yes = Option(flag: "yes", help: "delete without asking")
}

extension Option where Value == OutputFormat {
  /// `--format text|json`, which every listing takes.
  static let format = Option(
    declarations: [
      Declaration(
        name: "format", kind: .option(valueName: "FORMAT"), choices: ["text", "json"],
        help: "json prints the data as JSON instead of a table")
    ]
  ) { words in words.values["format"] == "json" ? .json : .text }
}

extension Option where Value == RowWindow {
  /// `--limit N` and `--offset N`, which every listing takes: the rows to print.
  static let window = Option(
    declarations: [
      Declaration(name: "limit", kind: .option(valueName: "N"), help: "print at most N rows"),
      Declaration(name: "offset", kind: .option(valueName: "N"), help: "skip the first N rows"),
    ]
  ) { words throws(CommandError) in
    RowWindow(
      offset: try count(words, "offset") ?? 0, limit: try count(words, "limit"))
  }

  private static func count(_ words: ParsedWords, _ name: String) throws(CommandError) -> Int? {
    guard let text = words.values[name] else { return nil }
    guard let value = Int(text), value >= 0 else {
      throw .usage(
        "'\(text)' is not a number of rows: '--\(name)' takes a whole number, 0 or more")
    }
    return value
  }
}

extension Option where Value == Day? {
  /// `--on YYYY-MM-DD`: the day a habit or a transaction is about.
  static func day(help: String = "the day (today by default)") -> Option {
    Option("on", valueName: "YYYY-MM-DD", help: help) { text throws(CommandError) in
      try Day.parse(text)
    }
  }
}

extension Option where Value == Amount? {
  /// `--amount AMOUNT`: a transaction's new amount, read as an ``Amount``.
  static let amount = Option("amount", valueName: "AMOUNT", help: Amount.help) {
    text throws(CommandError) in try Amount(text)
  }
}

extension Day {
  /// The day `text` writes as `YYYY-MM-DD`.
  ///
  /// - Throws: ``CommandError`` for a text that is no such day, with how to write one.
  static func parse(_ text: String) throws(CommandError) -> Day {
    guard let day = Day(text) else {
      throw CommandError(
        "'\(text)' is not a date", hints: ["write dates as YYYY-MM-DD, such as 2025-03-01"])
    }
    return day
  }
}

/// How a listing prints: a table, or `--format json`.
enum OutputFormat: Sendable, Equatable {
  /// Lines for a person.
  case text
  /// The data as JSON.
  case json
}
