import Foundation

/// Comma-separated values as RFC 4180 defines them, read with line numbers and written back.
///
/// ```swift
/// let table = try CSV.parse("title,url\n\"Hello, world\",https://example.com\n", file: "a.csv")
/// table.header            // ["title", "url"]
/// table.records[0].line   // 2
/// table.records[0].fields // ["Hello, world", "https://example.com"]
/// CSV.write(header: ["title"], rows: [["a \"b\""]])  // "title\n\"a \"\"b\"\"\"\n"
/// ```
///
/// Reading: fields are separated by the delimiter found in the header line (a comma, or a
/// semicolon or a tab when the header has more of those, as European spreadsheets write), and
/// records by LF or CRLF. A field in double quotes may hold the delimiter, newlines and doubled
/// quotes (`""`); a quote inside an unquoted field is kept as it is. Blank lines are skipped.
public struct CSV: Equatable, Sendable {
  /// One record: its fields and the line it starts on.
  public struct Record: Equatable, Sendable {
    /// The line (1-based) the record starts on; a quoted field may continue on later lines.
    public var line: Int
    /// The fields, unquoted.
    public var fields: [String]

    /// Creates a record.
    public init(line: Int, fields: [String]) {
      self.line = line
      self.fields = fields
    }
  }

  /// The first record's fields: the column names.
  public var header: [String]
  /// The records after the header, in file order.
  public var records: [Record]
  /// The delimiter the file uses.
  public var delimiter: Character

  /// Reads CSV text.
  ///
  /// - Parameters:
  ///   - text: The text (already checked to be UTF-8; see ``ImportFile/text(of:file:)``).
  ///   - file: The file's name, for errors.
  /// - Returns: The header and the records.
  /// - Throws: ``InterchangeError/truncated(file:line:reason:)`` when a quoted field is never
  ///   closed, ``InterchangeError/malformedCSV(file:line:reason:)`` for text after a closing
  ///   quote, ``InterchangeError/emptyFile(file:)`` when there is no header.
  /// - Complexity: O(*n*) in the length of the text.
  public static func parse(_ text: String, file: String) throws(InterchangeError) -> CSV {
    var reader = Reader(bytes: Array(text.utf8), file: file)
    reader.delimiter = reader.detectDelimiter()
    var records = try reader.records()
    guard !records.isEmpty else { throw .emptyFile(file: file) }
    let header = records.removeFirst().fields
    return CSV(
      header: header, records: records, delimiter: Character(Unicode.Scalar(reader.delimiter)))
  }

  /// Reads every record of a bank statement: with a delimiter known in advance (the first line
  /// may be a preamble), and forgiving stray quotes.
  ///
  /// A quote inside a quoted field that is not doubled ends the field only before the
  /// delimiter, a line break or the end of the text; anywhere else it is kept as a quote
  /// (`"Kaufland "Süd" 12";` reads as `Kaufland "Süd" 12`), as banks write them. A quote inside
  /// an unquoted field is a quote (`Firma";` reads as `Firma"`), and a quote that opens a field
  /// but is never closed is one too: the field then ends at the delimiter or the line's end.
  ///
  /// - Parameters:
  ///   - text: The text.
  ///   - file: The file's name, for errors.
  ///   - delimiter: The field delimiter, an ASCII character.
  /// - Returns: The records, blank lines left out, each with the line it starts on.
  /// - Throws: ``InterchangeError/truncated(file:line:reason:)`` when a quoted field is never
  ///   closed.
  /// - Complexity: O(*n*) in the length of the text.
  public static func records(
    in text: String, file: String, delimiter: Character
  ) throws(InterchangeError) -> [Record] {
    try records(in: text, file: file, delimiter: delimiter, quotesSpanLines: true)
  }

  /// Reads a statement's records; when `quotesSpanLines` is `false`, a quoted field ends with
  /// its line, and a quote that opens one and is not closed on it is a quote (each line is then
  /// a record of its own).
  static func records(
    in text: String, file: String, delimiter: Character, quotesSpanLines: Bool
  ) throws(InterchangeError) -> [Record] {
    precondition(delimiter.isASCII, "a CSV delimiter is an ASCII character, not '\(delimiter)'")
    var reader = Reader(bytes: Array(text.utf8), file: file)
    reader.delimiter = delimiter.asciiValue ?? reader.delimiter
    reader.forgivesStrayQuotes = true
    reader.quotesSpanLines = quotesSpanLines
    return try reader.records()
  }

  /// Writes a header and rows as CSV, each record ended by a newline (`\n`).
  ///
  /// A field is quoted when it holds the delimiter, a quote, a newline or a carriage return,
  /// or starts or ends with a space; quotes inside are doubled. A record of one empty field is
  /// written `""`, so that it is not read as a blank line.
  ///
  /// - Parameters:
  ///   - header: The column names.
  ///   - rows: The rows, each with as many fields as the header.
  ///   - delimiter: The field delimiter; a comma by default.
  /// - Returns: The text.
  public static func write(header: [String], rows: [[String]], delimiter: Character = ",")
    -> String
  {
    var text = ""
    for row in [header] + rows {
      if row == [""] {
        text += "\"\"\n"
        continue
      }
      text += row.map { quoted($0, delimiter: delimiter) }.joined(separator: String(delimiter))
      text += "\n"
    }
    return text
  }

  private static func quoted(_ field: String, delimiter: Character) -> String {
    let needsQuotes =
      field.contains(delimiter) || field.contains("\"") || field.contains("\n")
      || field.contains("\r") || field.hasPrefix(" ") || field.hasSuffix(" ")
    guard needsQuotes else { return field }
    return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }
}

/// The byte-level reader behind ``CSV/parse(_:file:)``.
private struct Reader {
  let bytes: [UInt8]
  let file: String
  var delimiter = UInt8(ascii: ",")
  /// Whether a quote inside a quoted field ends it only before a delimiter or a line break, and
  /// a quote that opens a field never closed is a quote.
  var forgivesStrayQuotes = false
  /// Whether a quoted field may go on past the end of its line.
  var quotesSpanLines = true

  static let quote = UInt8(ascii: "\"")
  static let newline = UInt8(ascii: "\n")
  static let carriageReturn = UInt8(ascii: "\r")

  /// The most frequent of comma, semicolon and tab outside quotes on the first line; a comma
  /// on a tie.
  func detectDelimiter() -> UInt8 {
    var counts: [UInt8: Int] = [:]
    var inQuotes = false
    for byte in bytes {
      if byte == Self.quote { inQuotes.toggle() }
      if !inQuotes && byte == Self.newline { break }
      if !inQuotes { counts[byte, default: 0] += 1 }
    }
    let candidates = [UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "\t")]
    return candidates.max { counts[$0, default: 0] < counts[$1, default: 0] } ?? delimiter
  }

  /// Whether the byte at `index` ends a field: the delimiter, a line break, or the end.
  private func endsField(at index: Int) -> Bool {
    guard index < bytes.count else { return true }
    let byte = bytes[index]
    return byte == delimiter || byte == Self.newline
      || (byte == Self.carriageReturn
        && (index + 1 == bytes.count || bytes[index + 1] == Self.newline))
  }

  /// Every non-blank record.
  ///
  /// NB: an unquoted field (most of them) becomes a string straight from its bytes in the file;
  /// only a quoted one is copied byte by byte, to drop its quotes.
  func records() throws(InterchangeError) -> [CSV.Record] {
    var records: [CSV.Record] = []
    var fields: [String] = []
    var quoted: [UInt8] = []
    var line = 1
    var recordLine = 1
    var wasQuoted = false
    var start = 0
    var index = 0
    /// Whether the quote at `start` is a character of the field: it opened a quoted field that
    /// was never closed (or not on its line).
    var quoteIsLiteral = false

    func endRecord() {
      let isBlank = fields.count == 1 && fields[0].isEmpty && !wasQuoted
      if !isBlank { records.append(CSV.Record(line: recordLine, fields: fields)) }
      fields.removeAll(keepingCapacity: true)
      wasQuoted = false
    }
    /// Ends the unquoted field from `start` to `end`, without a carriage return before a newline.
    func endField(at end: Int, beforeNewline: Bool) {
      var end = end
      if beforeNewline && end > start && bytes[end - 1] == Self.carriageReturn { end -= 1 }
      fields.append(String(decoding: bytes[start..<end], as: UTF8.self))
    }

    while index < bytes.count {
      let byte = bytes[index]
      if index == start && byte == Self.quote && !quoteIsLiteral {
        // A quoted field: up to the closing quote.
        let opened = line
        let wasQuotedBefore = wasQuoted
        wasQuoted = true
        quoted.removeAll(keepingCapacity: true)
        index += 1
        var closed = false
        while index < bytes.count {
          let inner = bytes[index]
          if inner == Self.quote {
            if index + 1 < bytes.count && bytes[index + 1] == Self.quote {
              quoted.append(Self.quote)
              index += 2
              continue
            }
            if forgivesStrayQuotes && !endsField(at: index + 1) {
              quoted.append(Self.quote)
              index += 1
              continue
            }
            index += 1
            closed = true
            break
          }
          if inner == Self.newline {
            if !quotesSpanLines { break }
            line += 1
          }
          if inner == Self.carriageReturn && index + 1 < bytes.count
            && bytes[index + 1] == Self.newline
          {
            index += 1
            continue
          }
          quoted.append(inner)
          index += 1
        }
        guard closed else {
          guard forgivesStrayQuotes else {
            throw .truncated(
              file: file, line: opened, reason: "a quoted field is never closed")
          }
          // NB: a stray quote, not an opening one: the field is read again, unquoted.
          index = start
          line = opened
          wasQuoted = wasQuotedBefore
          quoteIsLiteral = true
          continue
        }
        // After the closing quote: a delimiter, the end of the record, or the end of the file.
        var next = index < bytes.count ? bytes[index] : Self.newline
        if next == Self.carriageReturn && index + 1 < bytes.count
          && bytes[index + 1] == Self.newline
        {
          index += 1
          next = Self.newline
        }
        guard next == delimiter || next == Self.newline else {
          throw .malformedCSV(
            file: file, line: line,
            reason: "a quoted field is followed by text; quote the whole field and double the "
              + "quotes inside it")
        }
        fields.append(String(decoding: quoted, as: UTF8.self))
        index += 1
        start = index
        quoteIsLiteral = false
        if next == Self.newline {
          endRecord()
          line += 1
          recordLine = line
        }
        continue
      }
      switch byte {
      case delimiter:
        endField(at: index, beforeNewline: false)
        start = index + 1
        quoteIsLiteral = false
      case Self.newline:
        endField(at: index, beforeNewline: true)
        endRecord()
        line += 1
        recordLine = line
        start = index + 1
        quoteIsLiteral = false
      default:
        break
      }
      index += 1
    }
    if start < bytes.count || !fields.isEmpty {
      endField(at: bytes.count, beforeNewline: true)
      endRecord()
    }
    return records
  }
}
