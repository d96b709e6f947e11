import AppFeature

/// A command of the REPL: its words, its typed parameters, what it is for, and what it does.
///
/// Each noun declares its commands in one file (`LinkCommands.swift`, …), one value each, with
/// the handler beside the declaration. The command lists its ``Parameter``s (``Argument``s and
/// ``Option``s); the parser reads and checks every one of them before the handler runs, and the
/// handler receives their values, typed, in the order they are listed:
///
/// ```swift
/// static let show = Command(
///   noun: .habit, verb: "show", summary: "Show a habit's streaks and a heat map.",
///   Argument.ref(.habit), weeks, Option.format
/// ) { session, ref, weeks, format in  // Ref, Int?, OutputFormat
///   …
/// }
/// ```
///
/// A value the command does not declare is no parameter of the handler: asking for one does
/// not compile. A word that is no value of its type (`--weeks many`) is reported with the usage
/// line, and nothing runs.
struct Command: Sendable {
  /// What a command does once its words are read: it drives the session's store and prints.
  typealias Run = @MainActor @Sendable (Session) async throws(CommandError) -> Void

  /// The noun (`habit`), or `nil` for a command of the REPL itself (`help`) or of the whole
  /// database (`import`).
  let noun: Noun?
  /// The verb (`add`), or the whole word of a noun-less command (`help`, `:trace`).
  let verb: String
  /// What its parameters read: its positional arguments in order, and its options in the order
  /// `help` lists them.
  let declarations: [Declaration]
  /// One sentence for `help`.
  let summary: String
  /// Whether the command ends the session (`:quit`, `exit`) instead of running a handler.
  let endsSession: Bool
  /// The usage line: `habit done <ref> [--on YYYY-MM-DD]`.
  let usage: String
  /// Reads the parameters' values from the sorted words, and gives the handler's run on them.
  private let prepare: @Sendable (ParsedWords) throws(CommandError) -> Run

  /// Declares a command whose handler receives the values of `parameters`, in their order.
  ///
  /// - Parameters:
  ///   - noun: The noun, or `nil` for a command of the REPL or of the whole database.
  ///   - verb: The verb, or the whole word of a noun-less command.
  ///   - summary: One sentence for `help`.
  ///   - parameters: The arguments and options, each read before the handler runs.
  ///   - run: The handler: the session, then one value per parameter.
  init<each P: Parameter>(
    noun: Noun? = nil, verb: String, summary: String, _ parameters: repeat each P,
    run:
      @escaping @MainActor @Sendable (Session, repeat (each P).Value) async throws(CommandError)
      -> Void
  ) {
    var declarations: [Declaration] = []
    for parameter in repeat each parameters { declarations += parameter.declarations }
    self.noun = noun
    self.verb = verb
    self.summary = summary
    self.endsSession = false
    self.declarations = declarations
    let usage = Self.usage(noun: noun, verb: verb, declarations: declarations)
    self.usage = usage
    self.prepare = { words throws(CommandError) in
      let values: (repeat (each P).Value)
      do throws(CommandError) {
        values = (repeat try (each parameters).value(in: words))
      } catch {
        throw error.withUsage(usage)
      }
      return { session throws(CommandError) in
        do throws(CommandError) {
          try await run(session, repeat each values)
        } catch {
          throw error.withUsage(usage)
        }
      }
    }
    let names = declarations.map { $0.isArgument ? "<\($0.name)>" : "--\($0.name)" }
    precondition(
      Set(names).count == names.count, "'\(name)' declares a parameter twice: \(names)")
  }

  /// Declares a command without parameters that ends the session (`:quit`, `exit`).
  init(verb: String, summary: String, endsSession: Bool) {
    self.noun = nil
    self.verb = verb
    self.summary = summary
    self.endsSession = endsSession
    self.declarations = []
    self.usage = Self.usage(noun: nil, verb: verb, declarations: [])
    self.prepare = { _ in { _ in } }
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
    find: @escaping @MainActor @Sendable (Session, Ref) async throws(CommandError) -> Item,
    action: @escaping @Sendable (Item) -> AppFeature.Action,
    done: @escaping @MainActor @Sendable (Session, Item) -> String
  ) -> Command {
    Command(noun: noun, verb: verb, summary: summary, Argument.ref(noun)) {
      session, ref throws(CommandError) in
      let item = try await find(session, ref)
      try await session.send(action(item))
      session.console.print(done(session, item))
    }
  }

  /// A listing without arguments: it loads the noun's data again (as its list appears), then
  /// prints what `json` reads from the state as JSON with `--format json`, else the lines of
  /// `text`; both get the rows `--offset` and `--limit` leave (``RowWindow``), when
  /// `isWindowed`, else every row.
  ///
  /// - Parameters:
  ///   - noun: The noun.
  ///   - verb: The verb.
  ///   - summary: One sentence for `help`.
  ///   - isWindowed: Whether it takes ``Option/window``: `false` for a listing of no rows to
  ///     window.
  ///   - json: What `--format json` prints.
  ///   - text: The lines printed otherwise.
  /// - Returns: The command.
  static func listing(
    noun: Noun, verb: String = "list", summary: String, isWindowed: Bool = true,
    json: @escaping @MainActor @Sendable (Session, RowWindow) -> any Encodable,
    text: @escaping @MainActor @Sendable (Session, RowWindow) -> [String]
  ) -> Command {
    Command(
      noun: noun, verb: verb, summary: summary, isWindowed ? Option.window : .absent(.all),
      Option.format
    ) { session, window, format throws(CommandError) in
      try await session.reload(noun)
      try await session.printListing(format, json: json(session, window)) {
        text(session, window)
      }
    }
  }

  /// The words that name the command: `habit add`, `help`.
  var name: String { noun.map { "\($0.rawValue) \(verb)" } ?? verb }

  /// The positional arguments, in order.
  var arguments: [Declaration] { declarations.filter(\.isArgument) }

  /// The options and flags, in the order `help` lists them.
  var options: [Declaration] { declarations.filter { !$0.isArgument } }

  private static func usage(noun: Noun?, verb: String, declarations: [Declaration]) -> String {
    let name = noun.map { "\($0.rawValue) \(verb)" } ?? verb
    let arguments = declarations.filter(\.isArgument)
    let options = declarations.filter { !$0.isArgument }
    return ([name] + arguments.map(\.usage) + options.map(\.usage)).joined(separator: " ")
  }

  /// Reads the words after the command's name into the values of its parameters.
  ///
  /// Options may come anywhere, as `--name value` or `--name=value`; `--` ends them, so that a
  /// later word starting with `--` is an argument.
  ///
  /// - Parameter words: The words after the command's name.
  /// - Returns: The command run on the values read.
  /// - Throws: ``CommandError`` for a missing or extra argument, an unknown or repeated option,
  ///   a missing value, a value that is not one of the choices, or one its parameter cannot
  ///   read.
  func parse(_ words: ArraySlice<String>) throws(CommandError) -> Invocation {
    let sorted: ParsedWords
    do throws(ParseError) {
      sorted = try ParsedWords(parsing: words, declarations: declarations)
    } catch {
      throw self.error(error)
    }
    return Invocation(command: self, words: sorted, run: try prepare(sorted))
  }

  /// An error about how the command was written, with the usage line as its hint.
  func usageError(_ message: String) -> CommandError {
    CommandError(message, hints: ["usage: \(usage)"])
  }

  /// The parser's error, in the words of this command.
  private func error(_ error: ParseError) -> CommandError {
    switch error {
    case .unknownOption(let option):
      let names = options.map { "--\($0.name)" }
      if let suggestion = Suggestion.closest(to: option, among: names) {
        return CommandError(
          "'\(name)' has no option '\(option)'", hints: ["did you mean '\(suggestion)'?"])
      }
      return usageError("'\(name)' has no option '\(option)'")
    case .missingArgument(let argument):
      return usageError(
        "'\(name)' needs \(argument.choices.map(Self.list) ?? "<\(argument.name)>")")
    default:
      return usageError(error.description)
    }
  }

  /// `'a'`, `'a' or 'b'`, `'a', 'b' or 'c'`.
  static func list(_ choices: [String]) -> String {
    let quoted = choices.map { "'\($0)'" }
    guard let last = quoted.last else { return "" }
    return quoted.count == 1 ? last : quoted.dropLast().joined(separator: ", ") + " or " + last
  }
}

/// A command as typed: the command, the words its parameters read, and the handler's run on
/// their values.
struct Invocation: Sendable {
  /// The command.
  let command: Command
  /// The words as the parser sorted them.
  let words: ParsedWords
  /// Runs the handler on the values read.
  let run: Command.Run
}
