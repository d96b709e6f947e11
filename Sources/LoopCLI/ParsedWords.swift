/// The words of a command line, sorted by what reads them.
///
/// The positional arguments are kept by name, with the options' values and the flags given,
/// as the ``Declaration``s say; ``Parameter``s read their typed values from it. The REPL's
/// commands, the `loop` executable's options and `loop replay`'s are sorted by this one parser.
struct ParsedWords: Sendable, Equatable {
  /// The positional arguments given, by name.
  var arguments: NamedWords = [:]
  /// The options given with a value, by name (without dashes).
  var values: NamedWords = [:]
  /// The flags given, by name (without dashes).
  var flags: Set<String> = []
  /// The words from the first that is no option on, when options end there (the `loop`
  /// executable's one-shot command); otherwise empty.
  var rest: [String] = []

  /// Sorts `words` by `declarations`.
  ///
  /// Options may come anywhere, as `--name value` or `--name=value`; `--` ends them, so that a
  /// later word starting with `--` is an argument. With `optionsEndAtFirstArgument`, the first
  /// word that does not start with `-` ends them instead, and it and every word after it are
  /// ``rest`` (then any word starting with `-` before it is an option).
  ///
  /// - Parameters:
  ///   - words: The words typed.
  ///   - declarations: What reads them: its arguments in order, and its options.
  ///   - optionsEndAtFirstArgument: Whether the words from the first argument on are passed on
  ///     as they are.
  /// - Throws: ``ParseError`` for an unknown or repeated option, a flag given a value, an
  ///   option without one, a value that is not one of the choices, a missing or extra argument.
  init(
    parsing words: some Collection<String>, declarations: [Declaration],
    optionsEndAtFirstArgument: Bool = false
  ) throws(ParseError) {
    var positionals: [String] = []
    var remaining = words[...]
    var optionsEnded = false
    while let word = remaining.popFirst() {
      let isOption = optionsEndAtFirstArgument ? word.hasPrefix("-") : word.hasPrefix("--")
      guard !optionsEnded, isOption else {
        guard !optionsEndAtFirstArgument else {
          rest = [word] + remaining
          break
        }
        positionals.append(word)
        continue
      }
      if word == "--" {
        guard !optionsEndAtFirstArgument else {
          rest = Array(remaining)
          break
        }
        optionsEnded = true
        continue
      }
      let typed = String(word.prefix { $0 != "=" })
      let inlineValue = word.firstIndex(of: "=").map { String(word[word.index(after: $0)...]) }
      guard
        let option = declarations.first(where: {
          !$0.isArgument && ("--\($0.name)" == typed || $0.aliases.contains(typed))
        })
      else { throw .unknownOption(typed) }
      let name = option.name
      guard values[name] == nil, !flags.contains(name) else { throw .repeatedOption(name) }
      guard case .option = option.kind else {
        if inlineValue != nil { throw .unexpectedValue(name) }
        flags.insert(name)
        continue
      }
      guard let value = inlineValue ?? remaining.popFirst() else { throw .missingValue(name) }
      if let choices = option.choices, !choices.contains(value) {
        throw .notAChoice(value, option: name, choices: choices)
      }
      values[name] = value
    }

    // NB: the arguments counted as they come, not filtered into an array of their own: every
    // command of a script parses its words here.
    var argumentCount = 0
    for argument in declarations where argument.isArgument {
      let index = argumentCount
      argumentCount += 1
      guard index < positionals.count else {
        if argument.kind == .argument(isOptional: true) { continue }
        throw .missingArgument(argument)
      }
      let value = positionals[index]
      if let choices = argument.choices, !choices.contains(value) {
        throw .notAChoice(value, option: nil, choices: choices)
      }
      self.arguments[argument.name] = value
    }
    if positionals.count > argumentCount {
      throw .unexpectedArgument(positionals[argumentCount])
    }
  }

  /// Words sorted by hand, for tests.
  init(
    arguments: NamedWords = [:], values: NamedWords = [:], flags: Set<String> = [],
    rest: [String] = []
  ) {
    self.arguments = arguments
    self.values = values
    self.flags = flags
    self.rest = rest
  }
}

/// Words by name: a command's arguments, or its options' values.
///
/// NB: a list searched in order, not a `Dictionary`: a command has a few, and hashing each
/// name to store and to read it cost more than the search (every command of a script is
/// parsed).
struct NamedWords: Sendable, Equatable, ExpressibleByDictionaryLiteral {
  /// The names and words, in the order given.
  private var entries: [(name: String, word: String)] = []

  /// The words of a literal, such as `["title": "Swift", "url": "https://swift.org"]`.
  init(dictionaryLiteral elements: (String, String)...) {
    for (name, word) in elements { self[name] = word }
  }

  /// The word given for `name`, or `nil`; setting one replaces the word given before.
  subscript(name: String) -> String? {
    get { entries.first { $0.name == name }?.word }
    set {
      let index = entries.firstIndex { $0.name == name }
      switch (index, newValue) {
      case (let index?, let word?): entries[index].word = word
      case (let index?, nil): entries.remove(at: index)
      case (nil, let word?): entries.append((name, word))
      case (nil, nil): break
      }
    }
  }

  /// Whether both hold the same words by the same names, in any order.
  static func == (lhs: NamedWords, rhs: NamedWords) -> Bool {
    lhs.entries.count == rhs.entries.count
      && lhs.entries.allSatisfy { rhs[$0.name] == $0.word }
  }
}

/// Why words could not be sorted by their declarations; each front end words it for its
/// readers (``Command/parse(_:)``, ``LaunchOptions/init(arguments:)``).
enum ParseError: Error, Equatable {
  /// An option nothing declares, as typed (`--fromat`).
  case unknownOption(String)
  /// An option given twice, by name.
  case repeatedOption(String)
  /// A flag given a value (`--yes=no`), by name.
  case unexpectedValue(String)
  /// An option given without its value, by name.
  case missingValue(String)
  /// A value that is not one of the choices, of the option named (or `nil`: an argument).
  case notAChoice(String, option: String?, choices: [String])
  /// A required argument left out.
  case missingArgument(Declaration)
  /// A word after the last argument.
  case unexpectedArgument(String)

  /// The sentence for the user, for every case but the two that name what has the option or
  /// the argument (``unknownOption(_:)``, ``missingArgument(_:)``), which its front end words.
  var description: String {
    switch self {
    case .unknownOption(let option): "unknown option '\(option)'"
    case .repeatedOption(let name): "the option '--\(name)' is given twice"
    case .unexpectedValue(let name): "the option '--\(name)' takes no value"
    case .missingValue(let name): "the option '--\(name)' needs a value"
    case .notAChoice(let value, let option?, let choices):
      "'\(value)' is not a value of '--\(option)': use \(Command.list(choices))"
    case .notAChoice(let value, nil, let choices): "'\(value)' is not \(Command.list(choices))"
    case .missingArgument(let argument): "\(argument.synopsis) is missing"
    case .unexpectedArgument(let word): "unexpected argument '\(word)'"
    }
  }
}
