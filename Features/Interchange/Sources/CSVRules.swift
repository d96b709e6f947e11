import Foundation
import LedgerClient

/// How to read a bank statement: the part of hledger's CSV rules format that describes one.
///
/// ```
/// # bank.csv.rules
/// skip         4
/// separator    ;
/// encoding     iso-8859-1
/// fields       date, _, payee, description, amount, currency
/// date-format  %d.%m.%Y
/// decimal-mark ,
/// description  %payee %description
///
/// if REWE|EDEKA
///  account2 expenses:Food
/// if %description ^Vormerkung
///  skip
/// ```
///
/// `ledger import bank.csv` reads `bank.csv.rules` when it exists (or the file
/// `--rules-file` names); without one, ``StatementDetector`` infers rules from the statement.
/// Blank lines and lines starting with `#`, `;` or `*` are comments. Loop reads:
///
/// - `skip N`: the first N records are not transactions (a preamble and the header); `skip`
///   alone is 1.
/// - `separator C`: the field separator, one character, or `tab` or `space`.
/// - `encoding NAME`: `utf-8`, `iso-8859-1` (`latin1`, `cp1252`) or `iso-8859-15`.
/// - `fields a, b, …`: names the columns in order (`_` or nothing for a column left alone);
///   a name of a field below also assigns that column to it.
/// - `date-format`: strftime's `%d.%m.%Y`, `%d.%m.%y`, `%Y-%m-%d`, `%-d/%-m/%Y`, … (see
///   ``DateFormat/init(strftime:)``); without it, `2025-03-01`, `2025/03/01` and `2025.03.01`.
/// - `decimal-mark ,` or `decimal-mark .`; without it an amount is read with a period, then
///   with a comma.
/// - `newest-first`: the records run from the newest to the oldest.
/// - Assignments, `FIELD TEXT`, where the text may name columns as `%name`, `%(name)` or `%3`:
///   `date`, `amount` (its sign says income or expense), `amount-in` and `amount-out` (money
///   in and out in two columns, whatever their signs), `description` (the memo), `payee` (the
///   memo when there is no description), `comment` (added to the memo), `account2` (the
///   category: its last `:`-separated part, without hledger's `[…]` or `(…)` around it),
///   `currency` (one per statement), `balance` (the balance after the row: each row's must be
///   the first one's, less its amount, plus the amounts booked since) and `account1` (the
///   statement's own account, which Loop's one ledger does not need). `amount1`,
///   `amount1-in`, `amount1-out` and `currency1` are the same as their names without the 1.
///   `\n` in a value is a line break. hledger's other field names (`date2`, `status`, `code`,
///   `balance1`, `amount2`, `account3`, `comment1`, …) are refused with their line, in a
///   fields list too.
/// - `if` blocks: matchers (a pattern, case-insensitive, anywhere in the record's fields joined
///   by commas, or `%name pattern` in one column; `!` negates, a line starting with `&` must
///   also match), then indented rules: assignments, `skip` (this record, or `skip N` records)
///   or `end` (no record after this one).
///
/// Any other rule is an error naming its line: Loop never ignores a rule it cannot follow.
public struct CSVRules: Equatable, Sendable {
  /// What the rules are called in messages: `'bank.csv.rules'`, or the rules inferred from a
  /// statement.
  public let file: String
  /// The rules' text, as given.
  public let text: String
  /// Whether ``StatementDetector`` inferred them (messages then name "the inferred rules").
  let isInferred: Bool

  /// How many records come before the transactions.
  var skip = 0
  /// The field separator; `nil`: a comma.
  var separator: Character?
  /// The text encoding; `nil`: UTF-8, or Latin-1 when the file is not valid UTF-8.
  var encoding: TextEncoding?
  /// The columns' names, lowercased, in order; empty for an unnamed column.
  var fields: [String] = []
  /// How dates are written; `nil`: `yyyy-MM-dd`, `yyyy/MM/dd` or `yyyy.MM.dd`.
  var dateFormat: DateFormat?
  /// The decimal mark; `nil`: a period, then a comma.
  var decimalMark: Money.DecimalSeparator?
  /// Whether the records run from the newest to the oldest.
  var isNewestFirst = false
  /// The assignments outside `if` blocks, the fields list's first, in the order they apply.
  var assignments: [Assignment] = []
  /// The `if` blocks, in order.
  var blocks: [Block] = []

  /// A part of a transaction that rules assign.
  enum Field: String, CaseIterable, Sendable {
    case date, description, payee, comment, amount, currency, account1, account2, balance
    case amountIn = "amount-in"
    case amountOut = "amount-out"

    /// The field a name assigns, with hledger's first-posting spellings (`amount1`).
    init?(name: String) {
      let aliases: [String: Field] = [
        "amount1": .amount, "amount1-in": .amountIn, "amount1-out": .amountOut,
        "currency1": .currency,
      ]
      guard let field = Field(rawValue: name) ?? aliases[name] else { return nil }
      self = field
    }
  }

  /// `FIELD TEXT`: a field's value, with `%name` and `%N` standing for columns.
  struct Assignment: Equatable, Sendable {
    var field: Field
    var template: String
    var line: Int
  }

  /// One pattern of an `if`: in the whole record, or in one column (`%name pattern`).
  struct Matcher: Equatable, Sendable {
    /// The column's name or 1-based number; `nil` for the whole record.
    var column: String?
    /// A regular expression, matched case-insensitively.
    var pattern: String
    var isNegated: Bool
  }

  /// What an `if` block does to a record it matches.
  enum Action: Equatable, Sendable {
    case assign(Assignment)
    /// Skips this record and the next `count - 1`.
    case skip(count: Int)
    /// Skips this record and every record after it.
    case end
  }

  /// `if` matchers, then indented actions.
  struct Block: Equatable, Sendable {
    /// Any of the groups matches when all of its matchers do.
    var groups: [[Matcher]]
    var actions: [Action]
    /// The line of `if`.
    var line: Int
  }

  /// Reads rules.
  ///
  /// - Parameters:
  ///   - text: The rules.
  ///   - file: What messages call them: the file's name, such as `bank.csv.rules`.
  /// - Throws: ``InterchangeError/invalidRules(file:line:reason:)`` naming the line of a rule
  ///   Loop does not support or cannot read, or saying what is missing (a date, an amount).
  public init(parsing text: String, file: String) throws(InterchangeError) {
    try self.init(parsing: text, file: file, isInferred: false)
  }

  /// Reads rules, inferred ones or not.
  init(parsing text: String, file: String, isInferred: Bool) throws(InterchangeError) {
    self.file = file
    self.text = text
    self.isInferred = isInferred
    // NB: `"\r\n"` is one `Character`, not a `"\n"`: a rules file saved on Windows has those.
    var parser = Parser(
      lines: text.split(
        omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }),
      file: file)
    try parser.parse(into: &self)
  }

  /// The column a reference names (`date`, `3`), as an index into a record; `nil` when it
  /// names none.
  func column(_ reference: String) -> Int? {
    if let number = Int(reference), reference.allSatisfy({ $0.isASCII && $0.isNumber }) {
      return number >= 1 ? number - 1 : nil
    }
    return fields.firstIndex(of: reference.lowercased())
  }

  /// The reason for a rule Loop does not read.
  static func unsupported(_ keyword: some StringProtocol) -> String {
    if let refusal = refusal(of: keyword.lowercased()) { return refusal }
    return "Loop does not support the rule '\(keyword)'; it reads skip, separator, encoding, "
      + "fields, date-format, decimal-mark, newest-first, if blocks, and date, description, "
      + "payee, comment, amount, amount-in, amount-out, currency, balance, account1 and account2"
  }

  /// Why Loop refuses one of hledger's field names (`balance2`, `date2`, `status`), in a
  /// fields list or an assignment; `nil` for a name that is not one of them.
  ///
  /// hledger names the fields of a journal entry: `date2`, `status`, `code`, and for each
  /// posting N (1 to 99) `accountN`, `amountN` (with `-in` and `-out`), `balanceN`,
  /// `commentN` and `currencyN`. Loop's transaction has one date, one amount and one category,
  /// so it follows `account1` (the statement's own account), `account2` (the category),
  /// `amount1` and `currency1` (the statement's side: the same as `amount` and `currency`)
  /// and `balance` (the statement's running balance), and refuses the rest rather than ignore
  /// them.
  static func refusal(of name: String) -> String? {
    let reason: String
    switch name {
    case "date2": reason = "a Loop transaction has one date, 'date'"
    case "status":
      reason =
        "a Loop transaction has no status; leave out pending rows with an if block and skip"
    case "code": reason = "a Loop transaction has no code"
    case "skip", "end": reason = "in Loop, \(name) is a rule, not a column"
    default:
      let stem = name.prefix { !$0.isNumber }
      let rest = name.dropFirst(stem.count)
      let digits = rest.prefix { $0.isASCII && $0.isNumber }
      let suffix = rest.dropFirst(digits.count)
      guard let number = Int(digits), (1...99).contains(number), digits.first != "0" else {
        return nil
      }
      switch (stem, suffix) {
      case ("amount", ""), ("amount", "-in"), ("amount", "-out"):
        guard number > 1 else { return nil }
        reason =
          "a Loop transaction has one amount, the statement's: 'amount', or 'amount-in' and "
          + "'amount-out'"
      case ("account", ""):
        guard number > 2 else { return nil }
        reason = "a Loop transaction has one category, from 'account2'"
      case ("currency", ""):
        guard number > 1 else { return nil }
        reason = "a ledger keeps one currency, 'currency'"
      case ("balance", ""):
        reason = "Loop checks the statement's running balance with 'balance'"
      case ("comment", ""):
        reason = "Loop's memo takes the transaction's 'comment', not a posting's"
      default: return nil
      }
    }
    return "'\(name)' is hledger's and Loop does not follow it: \(reason)"
  }
}

// MARK: - Reading

/// Reads a rules file line by line.
private struct Parser {
  let lines: [Substring]
  let file: String
  var index = 0
  var skipSeen = false

  init(lines: [Substring], file: String) {
    self.lines = lines
    self.file = file
  }

  func error(_ line: Int?, _ reason: String) -> InterchangeError {
    .invalidRules(file: file, line: line, reason: reason)
  }

  static func isBlankOrComment(_ line: Substring) -> Bool {
    let body = line.drop { $0 == " " || $0 == "\t" }
    return body.isEmpty || body.first == "#" || body.first == ";" || body.first == "*"
  }

  /// `keyword value`, split at the first run of spaces, tabs or a colon (`date: %1`).
  static func split(_ line: Substring) -> (keyword: Substring, value: String) {
    let body = line.drop { $0 == " " || $0 == "\t" }
    let keyword = body.prefix { $0 != " " && $0 != "\t" && $0 != ":" }
    var rest = body.dropFirst(keyword.count)
    if rest.first == ":" { rest = rest.dropFirst() }
    return (keyword, trimmed(String(rest)))
  }

  mutating func parse(into rules: inout CSVRules) throws(InterchangeError) {
    while index < lines.count {
      let line = lines[index]
      let number = index + 1
      index += 1
      if Self.isBlankOrComment(line) { continue }
      if line.first == " " || line.first == "\t" {
        throw error(number, "an indented rule belongs to an if block, and no if comes before it")
      }
      let (keyword, value) = Self.split(line)
      switch keyword.lowercased() {
      case "skip":
        let count = try skipCount(value, line: number)
        // NB: as in hledger, the first top-level skip wins.
        if !skipSeen { rules.skip = count }
        skipSeen = true
      case "separator": rules.separator = try separator(value, line: number)
      case "encoding":
        guard let encoding = TextEncoding(name: value) else {
          throw error(
            number,
            "Loop reads the encodings utf-8, iso-8859-1 (latin1, cp1252) and iso-8859-15, "
              + "not '\(value)'")
        }
        rules.encoding = encoding
      case "fields":
        rules.fields = try fields(value, line: number)
        rules.assignments.removeAll { $0.line == -1 }
        rules.assignments.insert(contentsOf: fieldAssignments(rules.fields), at: 0)
      case "date-format":
        do {
          rules.dateFormat = try DateFormat(strftime: value)
        } catch {
          throw self.error(
            number,
            "'\(value)' is not a date format Loop reads: use %Y (or %y), %m (or %-m) and %d "
              + "(or %-d) with separators, such as '%d.%m.%Y'")
        }
      case "decimal-mark":
        guard let mark = Money.DecimalSeparator(rawValue: value) else {
          throw error(number, "decimal-mark is ',' or '.', not '\(value)'")
        }
        rules.decimalMark = mark
      case "newest-first":
        guard value.isEmpty else { throw error(number, "newest-first takes no value") }
        rules.isNewestFirst = true
      case "if":
        rules.blocks.append(try block(firstMatcher: value, line: number))
      case "end":
        throw error(number, "end belongs in an if block")
      default:
        guard let field = CSVRules.Field(name: keyword.lowercased()) else {
          throw error(number, CSVRules.unsupported(keyword))
        }
        rules.assignments.append(
          CSVRules.Assignment(field: field, template: value, line: number))
      }
    }
    try check(rules)
  }

  func skipCount(_ value: String, line: Int) throws(InterchangeError) -> Int {
    if value.isEmpty { return 1 }
    guard let count = Int(value), count >= 0, value.allSatisfy({ $0.isASCII && $0.isNumber }) else {
      throw error(line, "skip takes a number of records, not '\(value)'")
    }
    return count
  }

  func separator(_ value: String, line: Int) throws(InterchangeError) -> Character {
    switch value.lowercased() {
    case "tab", "\t": return "\t"
    case "space": return " "
    default:
      guard value.count == 1, let character = value.first, character.isASCII,
        !character.isLetter, !character.isNumber, character != "\""
      else {
        throw error(
          line, "separator is one character (such as ';' or ','), tab or space, not '\(value)'")
      }
      return character
    }
  }

  func fields(_ value: String, line: Int) throws(InterchangeError) -> [String] {
    let names = value.split(separator: ",", omittingEmptySubsequences: false).map {
      var name = trimmed(String($0))
      if name.count >= 2, name.hasPrefix("\""), name.hasSuffix("\"") {
        name = String(name.dropFirst().dropLast())
      }
      return name.lowercased()
    }
    for name in names where !name.isEmpty && !name.allSatisfy(Self.isNameCharacter) {
      throw error(
        line, "'\(name)' is not a field name: use letters, digits, '_' and '-', no spaces")
    }
    for name in names {
      if let refusal = CSVRules.refusal(of: name) { throw error(line, refusal) }
    }
    return names.map { $0 == "_" ? "" : $0 }
  }

  static func isNameCharacter(_ character: Character) -> Bool {
    character.isLetter || character.isNumber || character == "_" || character == "-"
  }

  /// The assignments a fields list makes: each name of a field, to its column.
  ///
  /// NB: line -1 marks them, so that a later fields list replaces them.
  func fieldAssignments(_ names: [String]) -> [CSVRules.Assignment] {
    names.enumerated().compactMap { offset, name in
      CSVRules.Field(name: name).map {
        CSVRules.Assignment(field: $0, template: "%\(offset + 1)", line: -1)
      }
    }
  }

  /// An `if` block from its first line on: matchers on the `if` line and the non-indented
  /// lines after it, then indented actions.
  mutating func block(firstMatcher: String, line: Int) throws(InterchangeError) -> CSVRules.Block {
    var groups: [[CSVRules.Matcher]] = []
    if !firstMatcher.isEmpty { groups.append(try matchers(firstMatcher, line: line)) }
    var actions: [CSVRules.Action] = []
    while index < lines.count {
      let text = lines[index]
      let number = index + 1
      if Self.isBlankOrComment(text) {
        index += 1
        continue
      }
      let isIndented = text.first == " " || text.first == "\t"
      if !isIndented {
        guard actions.isEmpty else { break }
        var matcherText = trimmed(String(text))
        if matcherText.hasPrefix("&") {
          matcherText = trimmed(String(matcherText.drop { $0 == "&" }))
          guard !groups.isEmpty else {
            throw error(number, "a matcher starting with '&' needs a matcher before it")
          }
          groups[groups.count - 1] += try matchers(matcherText, line: number)
        } else {
          groups.append(try matchers(matcherText, line: number))
        }
        index += 1
        continue
      }
      index += 1
      let (keyword, value) = Self.split(text)
      switch keyword.lowercased() {
      case "skip": actions.append(.skip(count: try max(1, skipCount(value, line: number))))
      case "end":
        guard value.isEmpty else { throw error(number, "end takes no value") }
        actions.append(.end)
      default:
        guard let field = CSVRules.Field(name: keyword.lowercased()) else {
          throw error(number, CSVRules.unsupported(keyword))
        }
        actions.append(.assign(CSVRules.Assignment(field: field, template: value, line: number)))
      }
    }
    guard !groups.isEmpty else { throw error(line, "the if block has no pattern") }
    guard !actions.isEmpty else {
      throw error(line, "the if block has no rules: indent them under its patterns")
    }
    return CSVRules.Block(groups: groups, actions: actions, line: line)
  }

  /// The matchers of one line, `&&` between them: `%description rewe && ! %2 storno`.
  func matchers(_ text: String, line: Int) throws(InterchangeError) -> [CSVRules.Matcher] {
    var matchers: [CSVRules.Matcher] = []
    for part in text.components(separatedBy: "&&") {
      var body = Substring(trimmed(part))
      var isNegated = false
      if body.first == "!" {
        isNegated = true
        body = Substring(trimmed(String(body.dropFirst())))
      }
      var column: String?
      if body.first == "%" {
        let name = body.dropFirst().prefix(while: Self.isNameCharacter)
        if !name.isEmpty {
          column = name.lowercased()
          body = Substring(trimmed(String(body.dropFirst(1 + name.count))))
        }
      }
      guard !body.isEmpty else { throw error(line, "the if block has an empty pattern") }
      do {
        _ = try NSRegularExpression(pattern: String(body), options: [.caseInsensitive])
      } catch {
        throw self.error(line, "'\(body)' is not a regular expression")
      }
      matchers.append(CSVRules.Matcher(column: column, pattern: String(body), isNegated: isNegated))
    }
    return matchers
  }

  /// Checks what the rules need as a whole: a date and an amount, and columns for every `%name`.
  func check(_ rules: CSVRules) throws(InterchangeError) {
    let blockAssignments = rules.blocks.flatMap { block in
      block.actions.compactMap { if case .assign(let assignment) = $0 { assignment } else { nil } }
    }
    let all = rules.assignments + blockAssignments
    for assignment in all {
      for reference in Template.references(in: assignment.template)
      where rules.column(reference) == nil {
        throw error(
          assignment.line == -1 ? nil : assignment.line,
          "'%\(reference)' names no column: name it in the fields list, or use its number, "
            + "such as '%1'")
      }
    }
    for block in rules.blocks {
      for matcher in block.groups.joined() {
        if let column = matcher.column, rules.column(column) == nil {
          throw error(
            block.line,
            "'%\(column)' names no column: name it in the fields list, or use its number, "
              + "such as '%1'")
        }
      }
    }
    let assigned = Set(all.map(\.field))
    guard assigned.contains(.date) else {
      throw error(nil, "the rules give no date: name a column 'date' in fields, or write 'date %1'")
    }
    guard
      assigned.contains(.amount) || assigned.contains(.amountIn)
        || assigned.contains(.amountOut)
    else {
      throw error(
        nil,
        "the rules give no amount: name a column 'amount' (or 'amount-in' and 'amount-out') in "
          + "fields, or write 'amount %2'")
    }
  }
}

// MARK: - Templates

/// The text of an assignment, with `%name`, `%(name)` and `%3` standing for columns.
enum Template {
  /// One piece of a template: text as it is, or a column's value.
  enum Piece: Equatable {
    case text(String)
    case column(String)
  }

  /// The pieces of a template, in order.
  static func pieces(of template: String) -> [Piece] {
    var pieces: [Piece] = []
    var text = ""
    var rest = Substring(template)
    while let character = rest.first {
      if character == "%" {
        let afterPercent = rest.dropFirst()
        if afterPercent.first == "(", let close = afterPercent.firstIndex(of: ")") {
          let name = afterPercent[afterPercent.index(after: afterPercent.startIndex)..<close]
          if !name.isEmpty {
            if !text.isEmpty { pieces.append(.text(text)) }
            text = ""
            pieces.append(.column(String(name)))
            rest = afterPercent[afterPercent.index(after: close)...]
            continue
          }
        }
        let name = afterPercent.prefix(while: isNameCharacter)
        if !name.isEmpty {
          if !text.isEmpty { pieces.append(.text(text)) }
          text = ""
          pieces.append(.column(String(name)))
          rest = afterPercent.dropFirst(name.count)
          continue
        }
      }
      // NB: as in hledger, `\n` is a line break (a memo shows it as a space).
      if character == "\\", rest.dropFirst().first == "n" {
        text.append("\n")
        rest = rest.dropFirst(2)
        continue
      }
      text.append(character)
      rest = rest.dropFirst()
    }
    if !text.isEmpty { pieces.append(.text(text)) }
    return pieces
  }

  /// The columns a template names.
  static func references(in template: String) -> [String] {
    pieces(of: template).compactMap { if case .column(let name) = $0 { name } else { nil } }
  }

  private static func isNameCharacter(_ character: Character) -> Bool {
    character.isLetter || character.isNumber || character == "_" || character == "-"
  }
}

extension CSVRules: CustomReflectable {
  /// The rules' file and text: everything else is read from the text.
  public var customMirror: Mirror {
    Mirror(self, children: [("file", file), ("text", text)], displayStyle: .struct)
  }
}
