import Foundation
import LedgerClient

/// Infers the ``CSVRules`` of a bank statement that comes without them.
///
/// ```swift
/// let rules = try StatementDetector.rules(for: text, file: "bank.csv", encoding: .latin1)
/// print(rules.text)  // skip 4, separator ;, fields date, _, payee, description, amount, …
/// ```
///
/// It finds, in this order: the separator (`;`, a tab or `,`) and the header row past any
/// preamble, from the columns' names (German and English: `Buchungstag`, `Wertstellung`,
/// `Verwendungszweck`, `Auftraggeber/Empfänger`, `Betrag (€)`, `Soll`/`Haben`, `Date`,
/// `Amount`, `Description`, …); without a header, the date, amount and text columns from their
/// values; then the date format and the decimal mark from the values. Rows marked pending
/// (`Vorgemerkt`, `offen`, `pending`), in a status column or instead of the date, get a rule
/// that skips them.
///
/// When a column cannot be found, or the values leave a doubt (`01/02/2025` can be either day
/// first or month first), it throws, naming what it could not find, instead of guessing: the
/// user then writes the rules.
public enum StatementDetector {
  /// Infers a statement's rules.
  ///
  /// - Parameters:
  ///   - text: The statement's text.
  ///   - file: The statement's name, for the rules' comment and errors.
  ///   - encoding: The encoding the text was read in, for the rules' `encoding`.
  ///   - dateFormat: How dates are written, when the user said so; `nil` to find out.
  ///   - decimalMark: The decimal mark, when the user said so; `nil` to find out.
  /// - Returns: The rules, whose ``CSVRules/text`` is an hledger rules file.
  /// - Throws: ``InterchangeError/unknownStatementLayout(file:reason:)`` saying what could not
  ///   be found, or what is unclear.
  public static func rules(
    for text: String, file: String, encoding: TextEncoding, dateFormat: DateFormat? = nil,
    decimalMark: Money.DecimalSeparator? = nil
  ) throws(InterchangeError) -> CSVRules {
    let layout = try Layout.find(in: text, file: file)
    let dateValues = layout.values(of: layout.date)
    let words = Set(dateValues.filter { !$0.contains(where: \.isNumber) }.map { $0.lowercased() })
    let dates = dateValues.filter { $0.contains(where: \.isNumber) }
    let format =
      if let dateFormat { dateFormat } else {
        try Self.dateFormat(of: dates, column: layout.name(layout.date), file)
      }
    let amountColumns = [layout.amount, layout.amountIn, layout.amountOut].compactMap { $0 }
    let mark =
      if let decimalMark { decimalMark } else {
        try Self.decimalMark(
          of: amountColumns.flatMap(layout.values), column: layout.name(amountColumns[0]),
          separator: layout.separator, file)
      }

    var lines = [
      "# Rules inferred by Loop from '\(file)', in hledger's CSV rules format. Check them, save",
      "# them as '\(file).rules' beside it, and adjust them: 'ledger import' then reads them.",
      "skip \(layout.skip)",
      "separator \(layout.separator == "\t" ? "TAB" : String(layout.separator))",
      "encoding \(encoding.rawValue)",
      "fields \(layout.names.map { $0.isEmpty ? "_" : $0 }.joined(separator: ", "))",
      "date-format \(format.strftime)",
      "decimal-mark \(mark.rawValue)",
    ]
    let days = dates.compactMap { format.day(from: $0) }.map {
      DateFormat.iso.string(year: $0.year, month: $0.month, day: $0.day)
    }
    if let first = days.first, let last = days.last, first > last { lines.append("newest-first") }
    if let memo = layout.memoTemplate { lines.append("description \(memo)") }
    for word in words.sorted() {
      lines += [
        "", "# '\(word)' instead of a date: not a booked transaction",
        "if %date ^\(NSRegularExpression.escapedPattern(for: word))$", " skip",
      ]
    }
    if let column = layout.debitOrCredit {
      lines += [
        "", "# 'S' (Soll) is money out", "if %\(layout.names[column]) ^S$", " amount -%amount",
      ]
    }
    if let status = layout.status {
      let pending = Set(
        layout.values(of: status).map { $0.lowercased() }.filter(Self.pendingWords.contains))
      for word in pending.sorted() {
        lines += [
          "", "# '\(word)': pending, not booked yet",
          "if %\(layout.names[status]) ^\(NSRegularExpression.escapedPattern(for: word))$",
          " skip",
        ]
      }
    }
    return try CSVRules(
      parsing: lines.joined(separator: "\n") + "\n", file: "\(file).rules", isInferred: true)
  }

  /// What a status column says of a row that is not booked yet.
  static let pendingWords: Set<String> = [
    "vorgemerkt", "vormerkung", "umsatz vorgemerkt", "nicht gebucht", "offen", "ausstehend",
    "pending",
  ]

  /// The date formats a statement may use, in the order they are tried.
  static let dateFormats = [
    "%d.%m.%Y", "%d.%m.%y", "%Y-%m-%d", "%d/%m/%Y", "%m/%d/%Y", "%d/%m/%y", "%m/%d/%y",
    "%Y/%m/%d", "%d-%m-%Y", "%Y.%m.%d", "%Y%m%d", "%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M",
    "%d.%m.%Y %H:%M:%S", "%d.%m.%Y %H:%M",
  ].compactMap { try? DateFormat(strftime: $0) }

  /// The one format that reads the most dates (a date that is no day, such as `31.02.2025`,
  /// is then a rejected row, with its line).
  static func dateFormat(
    of dates: [String], column: String, _ file: String
  ) throws(InterchangeError) -> DateFormat {
    let counts = dateFormats.map { format in dates.count { format.day(from: $0) != nil } }
    let most = counts.max() ?? 0
    let fitting = dateFormats.indices.filter { counts[$0] == most }.map { dateFormats[$0] }
    guard most > 0, let first = fitting.first else {
      throw .unknownStatementLayout(
        file: file,
        reason: "it could not read the dates in the column '\(column)', such as "
          + "'\(dates.first ?? "")'")
    }
    guard fitting.count == 1 else {
      let example = dates.first { first.day(from: $0) != nil } ?? ""
      throw .unknownStatementLayout(
        file: file,
        reason: "it could not tell whether the dates in the column '\(column)', such as "
          + "'\(example)', are written \(first.strftime) or \(fitting[1].strftime)")
    }
    return first
  }

  /// The decimal mark the amounts use: the last mark of an amount with one or two digits after
  /// it; with none of those, a comma in a file separated by semicolons, else a period.
  static func decimalMark(
    of amounts: [String], column: String, separator: Character, _ file: String
  ) throws(InterchangeError) -> Money.DecimalSeparator {
    var marks: Set<Money.DecimalSeparator> = []
    for amount in amounts {
      let digits = amount.filter { $0.isNumber || $0 == "," || $0 == "." }
      guard let index = digits.lastIndex(where: { $0 == "," || $0 == "." }) else { continue }
      let after = digits[digits.index(after: index)...].count
      if after == 1 || after == 2 || digits.contains(",") && digits.contains(".") {
        marks.insert(digits[index] == "," ? .comma : .period)
      }
    }
    guard marks.count <= 1 else {
      throw .unknownStatementLayout(
        file: file,
        reason: "it could not tell whether the amounts in the column '\(column)' have a decimal "
          + "comma or a decimal point")
    }
    return marks.first ?? (separator == ";" ? .comma : .period)
  }
}

// MARK: - The layout

/// Where a statement's header and columns are.
private struct Layout {
  var separator: Character
  /// The records, from the first.
  var records: [CSV.Record]
  /// How many records come before the transactions.
  var skip: Int
  /// The header's columns, as the rules name them ("" for one not named).
  var names: [String]
  /// The header as it is written, for messages; empty without a header.
  var header: [String]
  var date: Int
  var amount: Int?
  var amountIn: Int?
  var amountOut: Int?
  var payee: Int?
  var description: Int?
  var status: Int?
  /// The column saying `S` for money out, beside an unsigned amount.
  var debitOrCredit: Int?
  /// The memo's template when it joins columns.
  var memoTemplate: String?

  /// The values of a column in the transactions' records, trimmed, empty ones left out.
  func values(of column: Int) -> [String] {
    records.dropFirst(skip).compactMap { record in
      column < record.fields.count ? trimmed(record.fields[column]) : nil
    }.filter { !$0.isEmpty }
  }

  /// What messages call a column: its header, or its number.
  func name(_ column: Int) -> String {
    column < header.count ? trimmed(header[column]) : "\(column + 1)"
  }

  /// The separators tried, in order.
  static let separators: [Character] = [";", "\t", ","]

  static func find(in text: String, file: String) throws(InterchangeError) -> Layout {
    var tables: [(Character, [CSV.Record])] = []
    for separator in separators {
      guard let records = try? CSV.records(in: text, file: file, delimiter: separator) else {
        continue
      }
      // NB: as `BankStatement` counts them for `skip`.
      tables.append((separator, records.filter { $0.fields != [""] }))
    }
    // A header: the first record (within the first 30) naming at least two known columns;
    // of the separators, the one whose header names the most.
    var best: (separator: Character, records: [CSV.Record], index: Int, roles: Roles)?
    for (separator, records) in tables {
      guard
        let index = records.prefix(30).firstIndex(where: { Roles(header: $0.fields).count >= 2 })
      else { continue }
      let roles = Roles(header: records[index].fields)
      if roles.count > best?.roles.count ?? 0 { best = (separator, records, index, roles) }
    }
    if let best {
      return try best.roles.layout(best.separator, best.records, headerAt: best.index, file)
    }
    return try headless(tables, file: file)
  }

  /// The layout of a statement without a header, from its values: the first run of records
  /// (within the first 30) where one column holds only dates and one holds only amounts.
  static func headless(
    _ tables: [(Character, [CSV.Record])], file: String
  ) throws(InterchangeError) -> Layout {
    var why = "no column holds only dates and another only amounts"
    for (separator, records) in tables {
      for start in 0..<min(30, records.count) {
        let rows = records[start...].filter { !$0.fields.allSatisfy { trimmed($0).isEmpty } }
        let width = rows.map(\.fields.count).max() ?? 0
        guard width >= 2, rows.allSatisfy({ $0.fields.count >= 2 }) else { continue }
        func column(_ index: Int) -> [String] {
          rows.map { index < $0.fields.count ? trimmed($0.fields[index]) : "" }
        }
        let dateColumns = (0..<width).filter { index in
          let values = column(index).filter { $0.contains(where: \.isNumber) }
          return !values.isEmpty
            && StatementDetector.dateFormats.contains { format in
              values.allSatisfy { format.day(from: $0) != nil }
            }
        }
        guard let date = dateColumns.first else { continue }
        let amountColumns = (0..<width).filter { index in
          let values = column(index)
          return !dateColumns.contains(index) && values.allSatisfy(Self.isAmount)
            && values.contains { !$0.isEmpty }
        }
        guard amountColumns.count == 1, let amount = amountColumns.first else {
          if amountColumns.count > 1 {
            why =
              "without a header it could not tell which column is the amount: columns "
              + amountColumns.map { "\($0 + 1)" }.joined(separator: " and ") + " hold numbers"
          }
          continue
        }
        let texts = (0..<width).filter { index in
          index != amount && !dateColumns.contains(index) && column(index).contains { !$0.isEmpty }
        }
        guard !texts.isEmpty else {
          why = "without a header it found no column with text for the memo"
          continue
        }
        var names = Array(repeating: "", count: width)
        names[date] = "date"
        names[amount] = "amount"
        var template: String?
        if texts.count == 1 {
          names[texts[0]] = "description"
        } else {
          for (offset, index) in texts.enumerated() { names[index] = "text\(offset + 1)" }
          template = texts.indices.map { "%text\($0 + 1)" }.joined(separator: " ")
        }
        return Layout(
          separator: separator, records: records, skip: start, names: names, header: [],
          date: date, amount: amount, payee: nil, description: texts.first,
          memoTemplate: template)
      }
    }
    throw .unknownStatementLayout(
      file: file,
      reason: "it found no header naming the columns (such as Buchungstag, Betrag and "
        + "Verwendungszweck, or Date, Amount and Description), and \(why)")
  }

  /// Whether a value reads as an amount (or is empty).
  static func isAmount(_ value: String) -> Bool {
    guard value.contains(where: \.isNumber) else { return value.isEmpty }
    let allowed = Set("0123456789.,+-() €$£")
    let stripped = value.filter { !$0.isLetter }
    return stripped.allSatisfy { allowed.contains($0) }
      && value.filter(\.isLetter).count <= 3
  }
}

// MARK: - Column names

/// The columns a header names, by the roles Loop knows.
private struct Roles {
  var date: Int?
  var valueDate: Int?
  var amount: Int?
  var amountIn: Int?
  var amountOut: Int?
  var payee: Int?
  var description: Int?
  var currency: Int?
  var status: Int?
  var debitOrCredit: Int?
  let header: [String]

  static let dates = [
    "buchungstag", "buchungsdatum", "buchung", "datum", "umsatztag", "belegdatum", "date",
    "booking date", "transaction date", "posting date", "completed date", "started date",
  ]
  static let valueDates = [
    "wertstellung", "wertstellungsdatum", "valuta", "valutadatum", "value date",
  ]
  static let amounts = [
    "betrag", "umsatz", "betrag in eur", "umsatz in eur", "amount", "transaction amount",
    "netto", "brutto", "value",
  ]
  static let amountsOut = [
    "soll", "belastung", "ausgang", "ausgabe", "debit", "withdrawal", "withdrawals", "money out",
    "paid out", "out",
  ]
  static let amountsIn = [
    "haben", "gutschrift", "eingang", "einnahme", "credit", "deposit", "deposits", "money in",
    "paid in", "in",
  ]
  static let payees = [
    "auftraggeber/empfänger", "empfänger/auftraggeber", "auftraggeber/begünstigter",
    "begünstigter/auftraggeber", "zahlungsempfänger", "zahlungsempfänger*in",
    "zahlungspflichtiger", "zahlungspflichtige*r", "begünstigter/zahlungspflichtiger",
    "beguenstigter/zahlungspflichtiger", "name zahlungsbeteiligter", "zahlungsbeteiligter",
    "empfänger", "auftraggeber", "name", "partner name", "payee", "counterparty", "merchant",
    "beneficiary",
  ]
  static let descriptions = [
    "verwendungszweck", "vorgang/verwendungszweck", "beschreibung", "description", "memo",
    "purpose", "payment reference", "reference", "details", "buchungstext", "vorgang", "text",
    "transaction details", "narrative",
  ]
  static let currencies = ["währung", "waehrung", "whg", "currency"]
  static let statuses = ["status", "umsatztyp", "buchungsstatus", "state", "info"]
  /// A column saying whether an unsigned amount is money out (`S`, Soll) or in (`H`, Haben).
  static let debitsAndCredits = ["soll/haben", "s/h", "soll-haben"]

  init(header: [String]) {
    self.header = header
    let names = header.map(Self.normalized)
    func find(_ known: [String]) -> Int? {
      for name in known {
        if let index = names.firstIndex(of: name) { return index }
      }
      return nil
    }
    date = find(Self.dates)
    valueDate = find(Self.valueDates)
    amount = find(Self.amounts)
    amountIn = find(Self.amountsIn)
    amountOut = find(Self.amountsOut)
    payee = find(Self.payees)
    description = find(Self.descriptions)
    currency = find(Self.currencies)
    status = find(Self.statuses)
    debitOrCredit = find(Self.debitsAndCredits)
  }

  /// How many of the roles that make a header it names.
  var count: Int {
    [date ?? valueDate, amount ?? amountIn ?? amountOut, payee, description, currency]
      .compactMap { $0 }.count
  }

  /// A column's name as the lists hold it: lowercased, without a currency in parentheses or
  /// `€`, spaces collapsed, none around a slash.
  static func normalized(_ name: String) -> String {
    var text = name.lowercased()
    while let open = text.firstIndex(of: "("), let close = text[open...].firstIndex(of: ")") {
      text.removeSubrange(open...close)
    }
    return text.replacingOccurrences(of: "€", with: "").split(whereSeparator: \.isWhitespace)
      .joined(separator: " ").replacingOccurrences(of: " / ", with: "/")
  }

  /// The layout of a statement whose header is record `index`, or why it is unclear.
  func layout(
    _ separator: Character, _ records: [CSV.Record], headerAt index: Int, _ file: String
  ) throws(InterchangeError) -> Layout {
    let line = records[index].line
    func missing(_ what: String) -> InterchangeError {
      .unknownStatementLayout(
        file: file,
        reason: "it could not find the \(what) in the header on line \(line), "
          + "'\(header.joined(separator: String(separator)))'")
    }
    guard let dateColumn = date ?? valueDate else {
      throw missing("date column (such as Buchungstag, Buchungsdatum, Datum or Date)")
    }
    let split = amountIn != nil && amountOut != nil
    guard amount != nil || split else {
      throw missing(
        "amount column (such as Betrag, Umsatz or Amount, or Soll and Haben)")
    }
    guard payee != nil || description != nil else {
      throw missing(
        "memo column (such as Verwendungszweck, Auftraggeber/Empfänger, Description or Payee)")
    }
    var names = header.map(Self.fieldName)
    var taken = Set<String>()
    let roles: [(Int?, String)] = [
      (dateColumn, "date"), (split ? nil : amount, "amount"), (split ? amountIn : nil, "amount-in"),
      (split ? amountOut : nil, "amount-out"), (payee, "payee"), (description, "description"),
      (currency, "currency"),
    ]
    for case (let column?, let name) in roles {
      names[column] = name
      taken.insert(name)
    }
    let reserved = Set(
      CSVRules.Field.allCases.map(\.rawValue)
        + ["date2", "status", "code", "balance", "comment", "skip", "end"])
    for column in names.indices where !roles.contains(where: { $0.0 == column }) {
      var name = names[column]
      guard !name.isEmpty else { continue }
      while reserved.contains(name) || taken.contains(name) || CSVRules.refusal(of: name) != nil {
        name += "_"
      }
      names[column] = name
      taken.insert(name)
    }
    return Layout(
      separator: separator, records: records, skip: index + 1, names: names, header: header,
      date: dateColumn, amount: split ? nil : amount, amountIn: split ? amountIn : nil,
      amountOut: split ? amountOut : nil, payee: payee, description: description,
      status: status, debitOrCredit: split ? nil : debitOrCredit,
      memoTemplate: payee != nil && description != nil ? "%payee %description" : nil)
  }

  /// A column's name as a rules file can write it: lowercase letters, digits and `_`.
  static func fieldName(_ header: String) -> String {
    var name = ""
    for character in header.lowercased() {
      switch character {
      case "ä": name += "ae"
      case "ö": name += "oe"
      case "ü": name += "ue"
      case "ß": name += "ss"
      case "a"..."z", "0"..."9": name.append(character)
      default: if !name.hasSuffix("_") { name += "_" }
      }
    }
    return String(name.drop { $0 == "_" }.reversed().drop { $0 == "_" }.reversed())
  }
}
