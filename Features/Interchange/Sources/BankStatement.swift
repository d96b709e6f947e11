import Foundation
import Ledger
import LedgerClient
import Loop

/// A bank statement read with ``CSVRules``: its transactions, and the rows that are not ones.
///
/// ```swift
/// let rules = try CSVRules(parsing: rulesText, file: "bank.csv.rules")
/// let statement = try BankStatement.read(
///   text, file: "bank.csv", rules: rules, today: now, calendar: calendar)
/// statement.rows     // the transactions, in file order, with their lines and identities
/// statement.skipped  // "line 9: the amount is zero", "line 12: the rule on line 8 …"
/// ```
///
/// Every row after the header is accounted for, in exactly one of ``rows``, ``skipped`` and
/// ``rejected``; blank lines and lines of empty fields are no rows.
///
/// Money out is an expense whatever its sign: a negative `amount` or any `amount-out`; money
/// in is income. A row whose amount is zero or empty is skipped, as is one an `if` block skips,
/// each with its reason. A row that does not have the header's columns (a column missing or
/// one too many, as a stray quote or a bank leaving out a field makes it) is rejected with its
/// line: its values cannot be told apart. Every other row must make a valid transaction (a
/// date that is a day, an amount that is a number, a `balance` that the amounts before it
/// make), or the statement is refused as a whole, listing each invalid row.
public struct BankStatement: Equatable, Sendable {
  /// One transaction of the statement.
  public struct Row: Equatable, Sendable {
    /// The line the record starts on.
    public var line: Int
    /// The checked values.
    public var fields: TransactionFields
    /// Its identity, from its day, signed amount and memo (and how many rows before it in the
    /// statement have the same ones): importing the statement again finds it stored.
    public var id: LedgerTransaction.ID

    /// Creates a row.
    public init(line: Int, fields: TransactionFields, id: LedgerTransaction.ID) {
      self.line = line
      self.fields = fields
      self.id = id
    }
  }

  /// The transactions, in file order.
  public var rows: [Row]
  /// The rows that are not transactions, by line, with the reason.
  public var skipped: [ImportRejection]
  /// The rows whose fields are not the header's columns, by line, with the reason: they are
  /// left out, and listed.
  public var rejected: [ImportRejection]
  /// Whether the rows run from the newest to the oldest (`newest-first`, or the first row's
  /// date is after the last's).
  public var isNewestFirst: Bool

  /// Creates a statement.
  public init(
    rows: [Row], skipped: [ImportRejection], rejected: [ImportRejection] = [],
    isNewestFirst: Bool
  ) {
    self.rows = rows
    self.skipped = skipped
    self.rejected = rejected
    self.isNewestFirst = isNewestFirst
  }

  /// Reads a statement's text with rules.
  ///
  /// - Parameters:
  ///   - text: The statement's text.
  ///   - file: The statement's name, for errors.
  ///   - rules: How to read it.
  ///   - today: The current date: dates from 1970 to ten years after it are plausible.
  ///   - calendar: The user's calendar, in the user's time zone: which instant a day starts.
  /// - Returns: The transactions, the skipped rows and the rejected ones.
  /// - Throws: What ``CSV/records(in:file:delimiter:)`` throws, and
  ///   ``InterchangeError/rowsRejected(file:_:)`` listing every row that is not a valid
  ///   transaction, and every rejected one (nothing is imported then).
  public static func read(
    _ text: String, file: String, rules: CSVRules, today: Date, calendar: Calendar
  ) throws(InterchangeError) -> BankStatement {
    // NB: as in hledger, `skip` counts records, not blank lines nor lines of one empty field
    // (`""`); a record of empty fields after those is left out as a blank line would be.
    let delimiter = rules.separator ?? ","
    let all = try CSV.records(in: text, file: file, delimiter: delimiter)
      .filter { $0.fields != [""] }
    let header = rules.skip > 0 && rules.skip <= all.count ? all[rules.skip - 1].fields : nil
    let shape = Shape(header: header, records: all.dropFirst(rules.skip), rules: rules)
    let records = try shape.split(
      Array(all.dropFirst(rules.skip)), text: text, file: file, delimiter: delimiter
    )
    .filter { !$0.fields.allSatisfy { trimmed($0).isEmpty } }
    var reader = RowReader(rules: rules, today: today, calendar: calendar)
    var rows: [Row] = []
    var balances: [Money?] = []
    var skipped: [ImportRejection] = []
    var malformed: [ImportRejection] = []
    var rejected: [ImportRejection] = []
    var occurrences: [String: Int] = [:]
    var firstDay = ""
    var lastDay = ""
    for record in records {
      switch reader.read(record, shape: shape) {
      case .skipped(let reason):
        skipped.append(ImportRejection(line: record.line, reason: reason))
      case .malformed(let reason):
        malformed.append(ImportRejection(line: record.line, reason: reason))
      case .rejected(let reason):
        rejected.append(ImportRejection(line: record.line, reason: reason))
      case .transaction(let fields, let day, let balance):
        let key =
          "\(day)|\(fields.kind == .expense ? "-" : "")\(fields.amount.minorUnits)|"
          + fields.memo
        let occurrence = occurrences[key, default: 0]
        occurrences[key] = occurrence + 1
        rows.append(
          Row(
            line: record.line, fields: fields,
            id: LedgerTransaction.ID(identity("\(key)|\(occurrence)"))))
        balances.append(balance)
        if firstDay.isEmpty { firstDay = day }
        lastDay = day
      }
    }
    // NB: the days are `yyyy-MM-dd`, so they compare as text.
    let isNewestFirst = rules.isNewestFirst || firstDay > lastDay
    if rejected.isEmpty {
      rejected = balanceMismatches(
        rows, balances, isNewestFirst: isNewestFirst, mark: rules.decimalMark ?? .period)
    }
    guard rejected.isEmpty else {
      throw .rowsRejected(file: file, (rejected + malformed).sorted { $0.line < $1.line })
    }
    return BankStatement(
      rows: rows, skipped: skipped, rejected: malformed, isNewestFirst: isNewestFirst)
  }

  /// The rows whose `balance` is not the running balance: the first balance given, less its
  /// row's amount, plus each amount in the order the bank booked them.
  ///
  /// After a mismatch the running balance goes on from the row's own, so each place where the
  /// statement's balance breaks is named once.
  static func balanceMismatches(
    _ rows: [Row], _ balances: [Money?], isNewestFirst: Bool, mark: Money.DecimalSeparator
  ) -> [ImportRejection] {
    var order = Array(rows.indices)
    if isNewestFirst { order.reverse() }
    var running: Money?
    var mismatches: [ImportRejection] = []
    for index in order {
      let fields = rows[index].fields
      let signed =
        fields.kind == .expense ? Money(minorUnits: -fields.amount.minorUnits) : fields.amount
      if let current = running {
        // NB: amounts near the limit, thousands of them, could overflow: no sum is checked then.
        let (sum, overflow) = current.minorUnits.addingReportingOverflow(signed.minorUnits)
        running = overflow ? nil : Money(minorUnits: sum)
      }
      guard let balance = balances[index] else { continue }
      guard let expected = running else {
        running = balance
        continue
      }
      let (gap, overflow) = balance.minorUnits.subtractingReportingOverflow(expected.minorUnits)
      if expected != balance, !overflow {
        let difference = Money(minorUnits: gap)
        mismatches.append(
          ImportRejection(
            line: rows[index].line,
            reason:
              "its balance is \(balance.formatted(decimalSeparator: mark)), but the running "
              + "balance is \(expected.formatted(decimalSeparator: mark)) (difference: "
              + "\(difference.formatted(decimalSeparator: mark)))"))
        running = balance
      }
    }
    return mismatches
  }

  /// A UUID made from a text, the same for the same text on every machine (version 8, the
  /// version RFC 9562 leaves to applications): two FNV-1a hashes of its UTF-8 bytes.
  static func identity(_ text: String) -> UUID {
    func fnv1a(_ basis: UInt64) -> UInt64 {
      var hash = basis
      for byte in text.utf8 {
        hash ^= UInt64(byte)
        hash &*= 0x100_0000_01B3
      }
      return hash
    }
    let high = fnv1a(0xCBF2_9CE4_8422_2325)
    let low = fnv1a(0x6C62_272E_07BB_0142)
    var bytes =
      (0..<8).map { UInt8(truncatingIfNeeded: high >> (56 - 8 * $0)) }
      + (0..<8).map { UInt8(truncatingIfNeeded: low >> (56 - 8 * $0)) }
    bytes[6] = bytes[6] & 0x0F | 0x80
    bytes[8] = bytes[8] & 0x3F | 0x80
    return UUID(
      uuid: (
        bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
        bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
      ))
  }
}

// MARK: - The columns of a row

/// The columns a statement's rows have: as many as most rows have (on a tie, as many as the
/// header names, or the more).
///
/// NB: the rows, not the header, decide: some banks name fewer columns than every row has.
struct Shape {
  /// The header's fields; `nil` when the rules skip no record.
  let header: [String]?
  /// How many fields a row has; `nil` when there are no rows to tell.
  let width: Int?

  init(header: [String]?, records: some Collection<CSV.Record>, rules: CSVRules) {
    self.header = header
    var counts: [Int: Int] = [:]
    for record in records where !record.fields.allSatisfy({ trimmed($0).isEmpty }) {
      counts[record.fields.count, default: 0] += 1
    }
    let named = header?.count ?? 0
    width =
      counts.max {
        ($0.value, $0.key == named ? 1 : 0, $0.key) < ($1.value, $1.key == named ? 1 : 0, $1.key)
      }?.key
  }

  /// Why a row's fields are not the columns, or `nil` when they are.
  ///
  /// Empty fields past the last column (a separator at the end of a row), or a row that leaves out columns the
  /// header does not name, are no difference.
  func problem(with fields: [String]) -> String? {
    guard let width, fields.count != width else { return nil }
    if fields.count > width, fields[width...].allSatisfy({ trimmed($0).isEmpty }) { return nil }
    if fields.count < width, let header,
      header[min(fields.count, header.count)...].allSatisfy({ trimmed($0).isEmpty })
    {
      return nil
    }
    let others = header?.count == width ? "the header" : "the other rows"
    return
      "it has \(fields.count) field\(fields.count == 1 ? "" : "s") and \(others) \(width): "
      + "a field is missing or one too many (a stray quote, or the separator in an unquoted "
      + "field), so its values cannot be told apart"
  }

  /// The records, with those that span lines read again a line at a time where needed.
  ///
  /// A record with a quoted field's line breaks in it is read again a line at a time when it
  /// does not have the columns, or when each of its lines has them: a quote that opened a field
  /// and was closed on a later line was then a stray one, and the lines are rows of their own. A memo written on two lines keeps them: its first line alone lacks
  /// the columns after it.
  ///
  /// - Complexity: O(*n*) in the length of the text when a record is read again; O(*r*) in
  ///   the number of records otherwise.
  func split(
    _ records: [CSV.Record], text: String, file: String, delimiter: Character
  ) throws(InterchangeError) -> [CSV.Record] {
    func lineBreaks(_ record: CSV.Record) -> Int {
      record.fields.reduce(0) { count, field in
        count + field.utf8.count { $0 == UInt8(ascii: "\n") }
      }
    }
    guard width != nil, records.contains(where: { lineBreaks($0) > 0 }) else { return records }
    // NB: `"\r\n"` is one `Character`, not a `"\n"`: both end a line.
    let lines = text.split(
      omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
    var result: [CSV.Record] = []
    for record in records {
      let breaks = lineBreaks(record)
      guard breaks > 0 else {
        result.append(record)
        continue
      }
      let first = record.line - 1
      let chunk = lines[first..<min(lines.count, first + breaks + 1)].joined(separator: "\n")
      let reread = try CSV.records(
        in: chunk, file: file, delimiter: delimiter, quotesSpanLines: false
      ).filter { $0.fields != [""] }
      guard
        problem(with: record.fields) != nil
          || reread.allSatisfy({ problem(with: $0.fields) == nil })
      else {
        result.append(record)
        continue
      }
      result += reread.map { CSV.Record(line: $0.line + first, fields: $0.fields) }
    }
    return result
  }
}

// MARK: - Reading a record

/// Applies the rules to one record after another.
private struct RowReader {
  let rules: CSVRules
  let today: Date
  let calendar: Calendar
  /// Each block's groups of compiled matchers.
  let matchers: [[[(column: Int?, regex: NSRegularExpression, isNegated: Bool)]]]
  let dateFormats: [DateFormat]
  /// Every template's pieces, read once rather than for every record.
  let pieces: [String: [Template.Piece]]
  /// How many records after this one the last `skip N` or `end` still skips, and why.
  var skipping: (count: Int, reason: String)?
  /// The currency of the first row that names one.
  var currency: String?
  var dayStarts: [String: Date] = [:]

  /// What a record is.
  enum Outcome {
    /// A transaction, the day it was booked, and the balance after it when the rules give one.
    case transaction(TransactionFields, day: String, balance: Money?)
    case skipped(String)
    /// Its fields are not the statement's columns: it is left out and listed.
    case malformed(String)
    /// It is not a valid transaction: the statement is refused.
    case rejected(String)
  }

  init(rules: CSVRules, today: Date, calendar: Calendar) {
    self.rules = rules
    self.today = today
    self.calendar = calendar
    matchers = rules.blocks.map { block in
      block.groups.map { group in
        group.compactMap { matcher in
          // NB: every pattern compiled when the rules were read.
          (try? NSRegularExpression(pattern: matcher.pattern, options: [.caseInsensitive])).map {
            (matcher.column.flatMap(rules.column), $0, matcher.isNegated)
          }
        }
      }
    }
    let blockAssignments = rules.blocks.flatMap { block in
      block.actions.compactMap { if case .assign(let assignment) = $0 { assignment } else { nil } }
    }
    pieces = Dictionary(
      (rules.assignments + blockAssignments).map {
        ($0.template, Template.pieces(of: $0.template))
      },
      uniquingKeysWith: { first, _ in first })
    dateFormats =
      rules.dateFormat.map { [$0] }
      ?? ["%Y-%m-%d", "%Y/%m/%d", "%Y.%m.%d"].compactMap { try? DateFormat(strftime: $0) }
  }

  /// "the rule on line 8 of 'bank.csv.rules'".
  func rule(_ line: Int) -> String {
    "the rule on line \(line) of \(rules.isInferred ? "the inferred rules" : "'\(rules.file)'")"
  }

  mutating func read(_ record: CSV.Record, shape: Shape) -> Outcome {
    if let skipping, skipping.count > 0 {
      self.skipping = (skipping.count - 1, skipping.reason)
      return .skipped(skipping.reason)
    }
    let values = record.fields.map(trimmed)
    let matched = rules.blocks.indices.filter { matches(block: $0, values) }
    for index in matched {
      for action in rules.blocks[index].actions {
        switch action {
        case .skip(let count):
          let reason = "\(rule(rules.blocks[index].line)) skips it"
          skipping = (count - 1, reason)
          return .skipped(reason)
        case .end:
          let reason = "\(rule(rules.blocks[index].line)) ends the statement before it"
          skipping = (Int.max, reason)
          return .skipped(reason)
        case .assign: continue
        }
      }
    }
    if let problem = shape.problem(with: record.fields) { return .malformed(problem) }
    let rules = self.rules
    let pieces = self.pieces
    var templates: [CSVRules.Field: String] = [:]
    let inBlocks = matched.flatMap { index in
      rules.blocks[index].actions.compactMap {
        if case .assign(let assignment) = $0 { assignment } else { nil }
      }
    }
    for assignment in rules.assignments + inBlocks {
      templates[assignment.field] = assignment.template
    }
    func value(_ field: CSVRules.Field) -> String {
      guard let template = templates[field] else { return "" }
      return trimmed(
        (pieces[template] ?? Template.pieces(of: template)).map { piece in
          switch piece {
          case .text(let text): text
          case .column(let name):
            rules.column(name).flatMap { $0 < values.count ? values[$0] : nil } ?? ""
          }
        }.joined())
    }
    return transaction(value)
  }

  func matches(block: Int, _ values: [String]) -> Bool {
    let record = values.joined(separator: ",")
    return matchers[block].contains { group in
      group.allSatisfy { column, regex, isNegated in
        let text = column.map { $0 < values.count ? values[$0] : "" } ?? record
        let found =
          regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
        return found != isNegated
      }
    }
  }

  mutating func transaction(_ value: (CSVRules.Field) -> String) -> Outcome {
    let amount: (kind: LedgerTransaction.Kind, money: Money)
    switch Self.amount(of: value, mark: rules.decimalMark) {
    case .found(let kind, let money): amount = (kind, money)
    case .skipped(let reason): return .skipped(reason)
    case .rejected(let reason): return .rejected(reason)
    }
    let dateText = value(.date)
    guard !dateText.isEmpty else { return .rejected("it has no date") }
    guard let (date, day) = start(of: dateText) else {
      let written = rules.dateFormat?.strftime ?? "%Y-%m-%d"
      return .rejected("'\(dateText)' is not a date written \(written)")
    }
    let rowCurrency = value(.currency)
    if !rowCurrency.isEmpty {
      if let currency, currency.lowercased() != rowCurrency.lowercased() {
        return .rejected(
          "its currency is '\(rowCurrency)', not the statement's '\(currency)': a ledger keeps "
            + "one currency")
      }
      currency = currency ?? rowCurrency
    }
    var balance: Money?
    let balanceText = value(.balance)
    if !balanceText.isEmpty {
      do throws(LedgerError) {
        balance = try Self.money(balanceText, mark: rules.decimalMark)
      } catch {
        return .rejected("its balance '\(balanceText)' is not an amount")
      }
    }
    var account = value(.account2)
    // NB: hledger's virtual accounts, `(assets:cash)` and `[assets:cash]`, are accounts too.
    if account.count >= 2,
      (account.hasPrefix("[") && account.hasSuffix("]"))
        || (account.hasPrefix("(") && account.hasSuffix(")"))
    {
      account = trimmed(String(account.dropFirst().dropLast()))
    }
    let category = account.split(separator: ":").last.map { trimmed(String($0)) }
    let draft = TransactionDraft(
      kind: amount.kind, amount: amount.money.formatted(), date: date, memo: Self.memo(value),
      category: category ?? "")
    do throws(LedgerError) {
      return .transaction(
        try draft.validated(today: today, calendar: calendar), day: day, balance: balance)
    } catch {
      return .rejected(error.description)
    }
  }

  /// The description (or else the payee), then the comment; its whitespace runs made single
  /// spaces (a statement pads and wraps its fields), and cut to the memo's limit.
  static func memo(_ value: (CSVRules.Field) -> String) -> String {
    let description = value(.description)
    let memo = [description.isEmpty ? value(.payee) : description, value(.comment)]
      .filter { !$0.isEmpty }
      .joined(separator: "; ")
      .split(whereSeparator: \.isWhitespace)
      .joined(separator: " ")
    let limit = LedgerTransaction.memoLimit
    return memo.count > limit ? String(memo.prefix(limit - 1)) + "…" : memo
  }

  /// A row's amount, or why it has none (skipped), or why it is invalid (rejected).
  enum Amount {
    case found(LedgerTransaction.Kind, Money)
    case skipped(String)
    case rejected(String)
  }

  /// The amount a row's values give: `amount`, signed; else `amount-in` or `amount-out`.
  static func amount(
    of value: (CSVRules.Field) -> String, mark: Money.DecimalSeparator?
  ) -> Amount {
    do throws(LedgerError) {
      if let signed = try money(value(.amount), mark: mark) {
        guard signed != .zero else { return .skipped("the amount is zero") }
        return signed < .zero
          ? .found(.expense, Money(minorUnits: -signed.minorUnits)) : .found(.income, signed)
      }
      let received = try money(value(.amountIn), mark: mark).map { $0.minorUnits.magnitude }
      let paid = try money(value(.amountOut), mark: mark).map { $0.minorUnits.magnitude }
      switch (received ?? 0, paid ?? 0) {
      case (1..., 1...):
        return .rejected(
          "it has money in ('\(value(.amountIn))') and money out ('\(value(.amountOut))'); "
            + "a row has one amount")
      case (let received, 0) where received > 0:
        return .found(.income, Money(minorUnits: Int64(received)))
      case (0, let paid) where paid > 0:
        return .found(.expense, Money(minorUnits: Int64(paid)))
      default:
        return .skipped(received == nil && paid == nil ? "it has no amount" : "the amount is zero")
      }
    } catch {
      return .rejected(error.description)
    }
  }

  /// An amount as a statement writes it, or `nil` when there is none.
  ///
  /// A currency around it (`-12,50 EUR`, `€ 5`) is dropped, `(5.00)` and a trailing minus are
  /// negative, `--5` is 5. Without a decimal mark, a period is tried first, then a comma.
  static func money(_ text: String, mark: Money.DecimalSeparator?) throws(LedgerError) -> Money? {
    var body = Substring(text.filter { !$0.isWhitespace })
    var isNegative = false
    var changed = true
    while changed, !body.isEmpty {
      changed = false
      let isCurrency = { (character: Character) in
        character.isLetter
          || character.unicodeScalars.contains { $0.properties.generalCategory == .currencySymbol }
      }
      let core = body.drop(while: isCurrency).reversed().drop(while: isCurrency)
      if core.count != body.count {
        body = Substring(String(core.reversed()))
        changed = true
      }
      if body.first == "+" {
        body = body.dropFirst()
        changed = true
      } else if body.first == "-" {
        body = body.dropFirst()
        isNegative.toggle()
        changed = true
      } else if body.last == "-" {
        body = body.dropLast()
        isNegative.toggle()
        changed = true
      } else if body.first == "(", body.last == ")", body.count >= 2 {
        body = body.dropFirst().dropLast()
        isNegative.toggle()
        changed = true
      }
    }
    guard !body.isEmpty else {
      // NB: a currency or a sign alone (`EUR`, `-`), or a word, is no amount, not an empty one.
      let written = trimmed(text)
      if written.isEmpty { return nil }
      throw .invalidAmount(written)
    }
    let number = String(body)
    let parsed: Money
    if let mark {
      parsed = try Money(parsing: withoutExtraZeros(number, mark: mark), decimalSeparator: mark)
    } else if let withPeriod = try? Money(parsing: number, decimalSeparator: .period) {
      parsed = withPeriod
    } else if let withComma = try? Money(parsing: number, decimalSeparator: .comma) {
      parsed = withComma
    } else {
      parsed = try Money(
        parsing: withoutExtraZeros(number, mark: .period), decimalSeparator: .period)
    }
    return isNegative ? Money(minorUnits: -parsed.minorUnits) : parsed
  }

  /// `number` without the zeros after its cents: `1.000` → `1.00`, `2,5000` → `2,50`.
  ///
  /// Those zeros change nothing. Other digits past the cents are left, for the parsing to refuse.
  static func withoutExtraZeros(_ number: String, mark: Money.DecimalSeparator) -> String {
    let separator: Character = mark == .period ? "." : ","
    guard let dot = number.lastIndex(of: separator) else { return number }
    let fraction = number[number.index(after: dot)...]
    guard fraction.count > 2, fraction.dropFirst(2).allSatisfy({ $0 == "0" }) else { return number }
    return String(number[...dot]) + fraction.prefix(2)
  }

  /// The instant the day a date text names starts, and the day as `yyyy-MM-dd`.
  mutating func start(of text: String) -> (Date, String)? {
    for format in dateFormats {
      guard let day = format.day(from: text) else { continue }
      let key = DateFormat.iso.string(year: day.year, month: day.month, day: day.day)
      if let start = dayStarts[key] { return (start, key) }
      guard
        let start = calendar.date(
          from: DateComponents(year: day.year, month: day.month, day: day.day))
      else { return nil }
      dayStarts[key] = start
      return (start, key)
    }
    return nil
  }
}
