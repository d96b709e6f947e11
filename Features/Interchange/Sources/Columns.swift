import Foundation

/// Which column of a CSV header holds which field, checked against the columns an import knows.
struct Columns {
  private var positions: [String: Int] = [:]
  let count: Int

  /// Maps a header's names (trimmed, any letter case) to their positions.
  ///
  /// - Throws: ``InterchangeError/invalidHeader(file:reason:)`` for a name not in `known`, a
  ///   name given twice, or a name of `required` missing.
  init(
    header: [String], known: [String], required: [String], kind: String, file: String
  ) throws(InterchangeError) {
    let expected = "\(kind) has the columns \(known.joined(separator: ", "))"
    for (position, raw) in header.enumerated() {
      let name = raw.trimmingCharacters(in: .whitespaces).lowercased()
      guard known.contains(name) else {
        throw .invalidHeader(file: file, reason: "it has the column '\(raw)'; a \(expected)")
      }
      guard positions.updateValue(position, forKey: name) == nil else {
        throw .invalidHeader(file: file, reason: "it has the column '\(raw)' twice")
      }
    }
    for name in required where positions[name] == nil {
      throw .invalidHeader(file: file, reason: "it lacks the column '\(name)'; a \(expected)")
    }
    count = header.count
  }

  /// The field of `column` in a record, trimmed; `nil` when the header has no such column.
  func field(_ column: String, in fields: [String]) -> String? {
    field(at: position(of: column), in: fields)
  }

  /// The field of `column`, `nil` when blank or absent.
  func optionalField(_ column: String, in fields: [String]) -> String? {
    optionalField(at: position(of: column), in: fields)
  }

  /// Where `column` is in a record, for reading many records without looking it up each time;
  /// `nil` when the header has no such column.
  func position(of column: String) -> Int? { positions[column] }

  /// The field at `position` of a record (see ``position(of:)``), trimmed; `nil` for no position.
  func field(at position: Int?, in fields: [String]) -> String? {
    position.map { trimmed(fields[$0]) }
  }

  /// The field at `position`, `nil` when blank or absent.
  func optionalField(at position: Int?, in fields: [String]) -> String? {
    guard let value = field(at: position, in: fields), !value.isEmpty else { return nil }
    return value
  }

  /// Why a record does not fit the header, or `nil` when it has one field per column.
  func mismatch(_ record: CSV.Record) -> String? {
    guard record.fields.count != count else { return nil }
    return "it has \(record.fields.count) fields, but the header has \(count)"
  }
}

/// The text without the whitespace and newlines around it, as
/// `trimmingCharacters(in: .whitespacesAndNewlines)` trims it.
///
/// NB: Foundation trims through `NSString` on Linux, which costs more than reading the CSV; a
/// field without whitespace around it is returned as it is.
func trimmed(_ text: String) -> String {
  // Most fields start and end with a printable ASCII character: nothing to trim.
  if let first = text.utf8.first, let last = text.utf8.last, (0x21...0x7E).contains(first),
    (0x21...0x7E).contains(last)
  {
    return text
  }
  let scalars = text.unicodeScalars
  func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x80
      ? scalar.value == 0x20 || (0x09...0x0D).contains(scalar.value)
      : scalar.properties.isWhitespace
  }
  guard let first = scalars.firstIndex(where: { !isWhitespace($0) }),
    let last = scalars.lastIndex(where: { !isWhitespace($0) })
  else { return "" }
  if first == scalars.startIndex && scalars.index(after: last) == scalars.endIndex {
    return text
  }
  return String(scalars[first...last])
}
