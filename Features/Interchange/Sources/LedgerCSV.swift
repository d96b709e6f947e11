import Foundation
import Ledger
import LedgerClient

/// How a ledger CSV writes dates and amounts: `--date-format` and `--decimal-separator`.
public struct LedgerCSVOptions: Equatable, Sendable {
  /// How dates are written; `yyyy-MM-dd` by default.
  public var dateFormat: DateFormat
  /// The character before the cents; a period by default (`1,234.50`), a comma for European
  /// files (`1.234,50`), which then usually separate fields with semicolons.
  public var decimalSeparator: Money.DecimalSeparator

  /// Creates options.
  public init(dateFormat: DateFormat = .iso, decimalSeparator: Money.DecimalSeparator = .period) {
    self.dateFormat = dateFormat
    self.decimalSeparator = decimalSeparator
  }
}

/// Ledger transactions as CSV: a header (`date,kind,amount,memo[,category]`, any order), then
/// one transaction per record.
///
/// ```csv
/// date;kind;amount;memo;category
/// 31.01.2025;expense;1.234,50;Miete;Home
/// ```
///
/// `kind` is `income` or `expense`, `amount` is positive (grouped thousands allowed), `memo`
/// and `category` may be blank. A date is the start of that day in the user's time zone.
public enum LedgerCSV {
  /// The columns, in the order Loop writes them.
  public static let columns = ["date", "kind", "amount", "memo", "category"]

  /// Whether a text is Loop's own ledger CSV rather than a bank statement: its first line names
  /// only Loop's ``columns``, `kind` among them.
  ///
  /// - Parameter text: The file's text, or its start.
  /// - Returns: Whether to read it with ``parse(_:file:options:today:calendar:)``.
  public static func isLoopCSV(_ text: some StringProtocol) -> Bool {
    guard
      let header = text.split(whereSeparator: \.isNewline).first(where: {
        !$0.allSatisfy(\.isWhitespace)
      })
    else { return false }
    let delimiter: Character = [";", "\t"].first { header.contains($0) } ?? ","
    let names = header.split(separator: delimiter, omittingEmptySubsequences: false).map {
      trimmed(String($0)).trimmingCharacters(in: CharacterSet(charactersIn: "\"\u{FEFF}"))
        .lowercased()
    }
    return names.contains("kind") && names.allSatisfy(columns.contains)
  }

  /// One valid record: its line and the checked values of its transaction.
  public struct Row: Equatable, Sendable {
    /// The line the record starts on.
    public var line: Int
    /// The checked values.
    public var fields: TransactionFields

    /// Creates a row.
    public init(line: Int, fields: TransactionFields) {
      self.line = line
      self.fields = fields
    }
  }

  /// Reads and checks every record: all of them are valid, or the import fails.
  ///
  /// Each record is checked as the ledger's editor checks a draft
  /// (``Ledger/TransactionDraft/validated(today:calendar:)``): the amount parses and is
  /// positive, the memo and category fit, the date is from 1970 to ten years after today.
  ///
  /// - Parameters:
  ///   - text: The file's text.
  ///   - file: The file's name, for errors.
  ///   - options: How dates and amounts are written.
  ///   - today: The current date.
  ///   - calendar: The user's calendar, in the user's time zone: which instant a day starts.
  /// - Returns: The rows, in file order.
  /// - Throws: What ``CSV/parse(_:file:)`` throws,
  ///   ``InterchangeError/invalidHeader(file:reason:)`` without `date`, `kind` and `amount`,
  ///   and ``InterchangeError/rowsRejected(file:_:)`` listing every invalid record.
  public static func parse(
    _ text: String, file: String, options: LedgerCSVOptions, today: Date, calendar: Calendar
  ) throws(InterchangeError) -> [Row] {
    let table = try CSV.parse(text, file: file)
    let columns = try Columns(
      header: table.header, known: Self.columns, required: ["date", "kind", "amount"],
      kind: "ledger CSV", file: file)
    var rows: [Row] = []
    var rejected: [ImportRejection] = []
    var days = Days(format: options.dateFormat, calendar: calendar)
    for record in table.records {
      do throws(RowError) {
        rows.append(
          Row(
            line: record.line,
            fields: try fields(
              of: record, columns: columns, options: options, days: &days, today: today,
              calendar: calendar)))
      } catch {
        rejected.append(ImportRejection(line: record.line, reason: error.reason))
      }
    }
    guard rejected.isEmpty else { throw .rowsRejected(file: file, rejected) }
    return rows
  }

  /// Why a record is invalid.
  private struct RowError: Error {
    var reason: String
  }

  /// The instants days start at, computed once per distinct date text (a bank's export has
  /// many rows a day, and the calendar is slow).
  private struct Days {
    let format: DateFormat
    let calendar: Calendar
    var starts: [String: Date] = [:]

    mutating func start(of text: String) -> Date? {
      if let start = starts[text] { return start }
      guard let day = format.day(from: text),
        let start = calendar.date(
          from: DateComponents(year: day.year, month: day.month, day: day.day))
      else { return nil }
      starts[text] = start
      return start
    }
  }

  private static func fields(
    of record: CSV.Record, columns: Columns, options: LedgerCSVOptions, days: inout Days,
    today: Date, calendar: Calendar
  ) throws(RowError) -> TransactionFields {
    if let mismatch = columns.mismatch(record) { throw RowError(reason: mismatch) }
    let dateText = columns.field("date", in: record.fields) ?? ""
    guard let date = days.start(of: dateText) else {
      throw RowError(reason: "'\(dateText)' is not a date written \(options.dateFormat)")
    }
    let kindText = columns.field("kind", in: record.fields) ?? ""
    guard let kind = LedgerTransaction.Kind(rawValue: kindText.lowercased()) else {
      throw RowError(reason: "'\(kindText)' is not a kind: write income or expense")
    }
    do throws(LedgerError) {
      let amount = try Money(
        parsing: columns.field("amount", in: record.fields) ?? "",
        decimalSeparator: options.decimalSeparator)
      let draft = TransactionDraft(
        kind: kind, amount: amount.formatted(), date: date,
        memo: columns.field("memo", in: record.fields) ?? "",
        category: columns.field("category", in: record.fields) ?? "")
      return try draft.validated(today: today, calendar: calendar)
    } catch {
      throw RowError(reason: error.description)
    }
  }

  /// Writes transactions as CSV, in the order given.
  ///
  /// Amounts are written without grouping (`1234.50`, or `1234,50` with a comma, when fields
  /// are separated by semicolons).
  ///
  /// - Parameters:
  ///   - transactions: The transactions.
  ///   - options: How to write dates and amounts.
  ///   - calendar: The user's calendar, in the user's time zone: which day a date falls on.
  /// - Returns: The text.
  public static func write(
    _ transactions: [LedgerTransaction], options: LedgerCSVOptions, calendar: Calendar
  ) -> String {
    let separator = options.decimalSeparator.character
    let rows = transactions.map { transaction in
      let day = calendar.dateComponents([.year, .month, .day], from: transaction.date)
      let units = transaction.amount.minorUnits
      let cents = units % 100
      return [
        options.dateFormat.string(year: day.year ?? 1, month: day.month ?? 1, day: day.day ?? 1),
        transaction.kind.rawValue, "\(units / 100)\(separator)\(cents < 10 ? "0" : "")\(cents)",
        transaction.memo, transaction.category ?? "",
      ]
    }
    return CSV.write(
      header: columns, rows: rows, delimiter: options.decimalSeparator == .comma ? ";" : ",")
  }
}
