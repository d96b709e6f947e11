import AppFeature

/// A positional argument of a command, declared with it and read from its ``Invocation`` by this
/// value (never by its name).
struct Argument: Sendable, Equatable {
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

  /// `<ref>`: the short id a listing shows.
  static let ref = Argument(name: "ref")

  /// `<file>`: the file an import reads or an export writes.
  static let file = Argument(name: "file")
}

/// An option of a command, `--name VALUE` or a flag without a value, declared with it and read
/// from its ``Invocation`` by this value (never by its name).
struct Option: Sendable, Equatable {
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
  static let format = Option(
    name: "format", valueName: "FORMAT", choices: ["text", "json"],
    summary: "json prints the data as JSON instead of a table")

  /// `--limit N`, which every listing takes: print at most N rows.
  static let limit = Option(name: "limit", valueName: "N", summary: "print at most N rows")

  /// `--offset N`, which every listing takes: skip the first N rows.
  static let offset = Option(name: "offset", valueName: "N", summary: "skip the first N rows")

  /// The options every listing takes: `--limit N`, `--offset N` and `--format text|json`.
  static let listing = [limit, offset, format]

  /// `--on YYYY-MM-DD`: the day a habit or a transaction is about.
  static let day = Option(
    name: "on", valueName: "YYYY-MM-DD", summary: "the day (today by default)")
}

/// A command of the REPL: its words, arguments, options, what it is for, and what it does.
///
/// Each noun declares its commands in one file (`LinkCommands.swift`, …), one value each, with
/// the handler beside the declaration; the handler reads its arguments and options through the
/// ``Invocation`` by the very ``Argument`` and ``Option`` values the command declares:
///
/// ```swift
/// static let rename = Command(
///   noun: .habit, verb: "rename", arguments: [.ref, newName], summary: "Rename a habit."
/// ) { session, input in
///   let history = try await session.habit(input[.ref])
///   try await session.send(.habits(.renameSubmitted(history.id, name: input[newName])))
/// }
/// ```
struct Command: Sendable {
  /// What a command does once parsed: it drives the session's store and prints.
  typealias Handler = @MainActor @Sendable (Session, Invocation) async throws(CommandError) -> Void

  /// The noun (`habit`), or `nil` for a command of the REPL itself (`help`) or of the whole
  /// database (`import`).
  var noun: Noun?
  /// The verb (`add`), or the whole word of a noun-less command (`help`, `:trace`).
  var verb: String
  /// The positional arguments, in order.
  var arguments: [Argument] = []
  /// The options, in the order `help` lists them.
  var options: [Option] = []
  /// One sentence for `help`.
  var summary: String
  /// Whether the command ends the session (`:quit`, `exit`) instead of running a handler.
  var endsSession = false
  /// What the command does.
  var run: Handler

  /// Declares a command; a command that only ends the session passes `endsSession` and no handler.
  init(
    noun: Noun? = nil, verb: String, arguments: [Argument] = [], options: [Option] = [],
    summary: String, endsSession: Bool = false, run: @escaping Handler = { _, _ in }
  ) {
    self.noun = noun
    self.verb = verb
    self.arguments = arguments
    self.options = options
    self.summary = summary
    self.endsSession = endsSession
    self.run = run
  }

  /// A command on the one item its `<ref>` names: it finds the item, sends one action about it,
  /// and prints one line.
  ///
  /// - Parameters:
  ///   - noun: The noun.
  ///   - verb: The verb.
  ///   - summary: One sentence for `help`.
  ///   - find: Finds the item a ref names (loading what it needs).
  ///   - action: The action sent about the item.
  ///   - done: The line printed after it, from the item as found and the state the action left.
  /// - Returns: The command.
  static func onRef<Item>(
    noun: Noun, verb: String, summary: String,
    find: @escaping @MainActor @Sendable (Session, String) async throws(CommandError) -> Item,
    action: @escaping @Sendable (Item) -> AppFeature.Action,
    done: @escaping @MainActor @Sendable (Session, Item) -> String
  ) -> Command {
    Command(noun: noun, verb: verb, arguments: [.ref], summary: summary) {
      session, input throws(CommandError) in
      let item = try await find(session, input[.ref])
      try await session.send(action(item))
      session.console.print(done(session, item))
    }
  }

  /// A listing without arguments: it loads the noun's data again (as its list appears), then
  /// prints what `json` reads from the state as JSON with `--format json`, else the lines of
  /// `text`; both get the rows `--offset` and `--limit` leave (``RowWindow``).
  ///
  /// - Parameters:
  ///   - noun: The noun.
  ///   - verb: The verb.
  ///   - summary: One sentence for `help`.
  ///   - options: The options; ``Option/listing`` unless the command shows no rows to window.
  ///   - json: What `--format json` prints.
  ///   - text: The lines printed otherwise.
  /// - Returns: The command.
  static func listing(
    noun: Noun, verb: String = "list", summary: String, options: [Option] = Option.listing,
    json: @escaping @MainActor @Sendable (Session, RowWindow) -> any Encodable,
    text: @escaping @MainActor @Sendable (Session, RowWindow) -> [String]
  ) -> Command {
    Command(noun: noun, verb: verb, options: options, summary: summary) {
      session, input throws(CommandError) in
      let window = options.contains(.limit) ? try RowWindow(input) : .all
      try await session.reload(noun)
      try await session.printListing(input, json: json(session, window)) {
        text(session, window)
      }
    }
  }

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
    return Invocation(self, arguments: arguments, values: values, flags: flags)
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

/// A command as typed: its command, and the values of its arguments and options, read by the
/// ``Argument`` and ``Option`` values the command declares.
///
/// NB: reading an argument or option the command does not declare is a programmer error (a
/// precondition), never a silent `nil`: a handler cannot ask for what its command cannot parse.
struct Invocation: Sendable {
  /// The command.
  let command: Command
  /// The positional arguments given, by name.
  private let arguments: [String: String]
  /// The options given with a value, by name (without dashes).
  private let values: [String: String]
  /// The flags given, by name (without dashes).
  private let flags: Set<String>

  /// An invocation of `command` with these values by name, as ``Command/parse(_:)`` read them.
  init(
    _ command: Command, arguments: [String: String] = [:], values: [String: String] = [:],
    flags: Set<String> = []
  ) {
    self.command = command
    self.arguments = arguments
    self.values = values
    self.flags = flags
  }

  /// The value of a required argument (the parse guarantees it is there).
  subscript(argument: Argument) -> String {
    precondition(!argument.isOptional, "'\(argument.name)' is optional: read it with ifGiven:")
    return self[ifGiven: argument] ?? ""
  }

  /// The value of an optional argument, or `nil` when it was left out.
  subscript(ifGiven argument: Argument) -> String? {
    precondition(
      command.arguments.contains(argument),
      "'\(command.name)' declares no argument <\(argument.name)>")
    return arguments[argument.name]
  }

  /// The value of the option, or `nil` when it was not given.
  subscript(option: Option) -> String? {
    precondition(
      command.options.contains(option) && option.valueName != nil,
      "'\(command.name)' declares no option '--\(option.name) \(option.valueName ?? "")'")
    return values[option.name]
  }

  /// Whether the flag was given.
  func has(_ flag: Option) -> Bool {
    precondition(
      command.options.contains(flag) && flag.valueName == nil,
      "'\(command.name)' declares no flag '--\(flag.name)'")
    return flags.contains(flag.name)
  }

  /// Whether no option at all was given.
  var hasNoOptions: Bool { values.isEmpty && flags.isEmpty }

  /// Whether `--format json` was given (the command must declare ``Option/format``).
  var wantsJSON: Bool { self[.format] == "json" }
}

extension Invocation: Equatable {
  /// Two invocations of the same command with the same values.
  static func == (lhs: Invocation, rhs: Invocation) -> Bool {
    lhs.command.name == rhs.command.name && lhs.arguments == rhs.arguments
      && lhs.values == rhs.values && lhs.flags == rhs.flags
  }
}

/// A command that failed: a sentence for the user and hint lines that help them fix it.
struct CommandError: Error, Equatable, Sendable {
  /// What went wrong, as one sentence (printed after `error: `).
  var message: String
  /// What to do about it, one line each: a usage line, a suggestion, candidates.
  var hints: [String]
  /// Whether the command was cancelled (Ctrl-C) rather than failed: the message is printed as
  /// it is, without `error:`.
  var isCancellation = false

  /// An error with its message and hints.
  init(_ message: String, hints: [String] = []) {
    self.message = message
    self.hints = hints
  }

  /// A command cancelled by Ctrl-C, which says what became of its work.
  ///
  /// - Parameter message: What the user reads, such as `Cancelled: nothing imported.`
  /// - Returns: The error.
  static func cancelled(_ message: String = "Cancelled.") -> CommandError {
    var error = CommandError(message)
    error.isCancellation = true
    return error
  }
}

/// Which rows a listing prints: after the first `--offset N`, at most `--limit N`.
struct RowWindow: Equatable {
  /// How many rows to skip.
  var offset = 0
  /// The most rows to print, or `nil` for every one.
  var limit: Int?

  /// The whole list.
  static let all = RowWindow()

  /// The window a listing's `--offset` and `--limit` ask for.
  ///
  /// - Throws: ``CommandError`` for a value that is not a whole number, 0 or more.
  init(_ input: Invocation) throws(CommandError) {
    offset = try Self.count(input, .offset) ?? 0
    limit = try Self.count(input, .limit)
  }

  /// A window of these values.
  init(offset: Int = 0, limit: Int? = nil) {
    self.offset = offset
    self.limit = limit
  }

  private static func count(_ input: Invocation, _ option: Option) throws(CommandError) -> Int? {
    guard let text = input[option] else { return nil }
    guard let value = Int(text), value >= 0 else {
      throw input.command.usageError(
        "'\(text)' is not a number of rows: '--\(option.name)' takes a whole number, 0 or more")
    }
    return value
  }

  /// The rows of the next page of a list printed a page at a time that are in the window; the
  /// window then starts after them, so each page gets what the earlier ones left.
  ///
  /// - Parameter rows: The page's rows.
  /// - Returns: Those in the window.
  mutating func take<Rows: Collection>(_ rows: Rows) -> [Rows.Element] {
    let skipped = min(offset, rows.count)
    offset -= skipped
    let rest = rows.dropFirst(skipped)
    guard let limit else { return Array(rest) }
    let taken = Array(rest.prefix(limit))
    self.limit = limit - taken.count
    return taken
  }

  /// Whether the window has taken every row it can: a list printed a page at a time can stop.
  var isFull: Bool { limit == 0 }

  /// The rows of `rows` in the window.
  func apply<Element>(to rows: [Element]) -> [Element] {
    let start = min(offset, rows.count)
    let end = limit.map { min(rows.count, start + min($0, rows.count)) } ?? rows.count
    return Array(rows[start..<end])
  }
}
