/// A positional argument of a command: a word read as a `Value` before the handler runs.
///
/// ```swift
/// let weeks = Argument("weeks", help: "how many weeks") { text throws(CommandError) in
///   guard let count = Int(text) else { throw .usage("'\(text)' is not a number") }
///   return count
/// }
/// ```
///
/// An optional argument (`[<memo>]`) has an optional `Value`, `nil` when it is left out.
struct Argument<Value>: Parameter {
  /// The word, as usage and `help` show it.
  let declaration: Declaration
  private let read: @Sendable (String?) throws(CommandError) -> Value

  var declarations: [Declaration] { [declaration] }

  func value(in words: ParsedWords) throws(CommandError) -> Value {
    try read(words.arguments[declaration.name])
  }

  /// A required argument read by `parse`.
  ///
  /// - Parameters:
  ///   - name: The name usage shows, as `<name>`.
  ///   - help: What it is, for `help`.
  ///   - parse: Reads the word typed.
  init(
    _ name: String, help: String,
    parse: @escaping @Sendable (String) throws(CommandError) -> Value
  ) {
    let declaration = Declaration(name: name, kind: .argument(isOptional: false), help: help)
    self.declaration = declaration
    self.read = { text throws(CommandError) in
      // NB: the parser has checked that a required argument is there.
      guard let text else { throw CommandError("'\(declaration.name)' is missing") }
      return try parse(text)
    }
  }

  /// A required argument that is one of `choices`, each a word and the value it stands for.
  ///
  /// The parser refuses any other word, naming the choices.
  init(_ name: String, help: String, choices: [(word: String, value: Value)])
  where Value: Sendable {
    let declaration = Declaration(
      name: name, kind: .argument(isOptional: false), choices: choices.map(\.word), help: help)
    self.declaration = declaration
    self.read = { text throws(CommandError) in
      guard let value = choices.first(where: { $0.word == text })?.value else {
        throw CommandError("'\(text ?? "")' is not \(Command.list(declaration.choices ?? []))")
      }
      return value
    }
  }
}

extension Argument where Value == String {
  /// A required argument, the word as typed.
  init(_ name: String, help: String) {
    self.init(name, help: help) { $0 }
  }
}

extension Argument where Value == Ref {
  /// `<ref>`: the short id a listing of `noun` shows, or an item's name, read as a ``Ref``;
  /// the parser refuses only a blank word.
  static func ref(_ noun: Noun) -> Argument {
    Argument("ref", help: "the short id a listing shows, or a name (any unique start or part)") {
      text throws(CommandError) in try Ref(text, naming: noun)
    }
  }
}

extension Argument where Value == Amount {
  /// `<amount>`: a transaction's amount, read as an ``Amount``; the parser refuses a word that
  /// is none.
  static let amount = Argument("amount", help: Amount.help) {
    text throws(CommandError) in try Amount(text)
  }
}

extension Argument where Value == String? {
  /// An argument that may be left out, the word as typed or `nil`.
  init(optional name: String, help: String) {
    self.declaration = Declaration(name: name, kind: .argument(isOptional: true), help: help)
    self.read = { $0 }
  }
}
