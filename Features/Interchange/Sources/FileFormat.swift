/// The kinds of file Loop imports and exports.
///
/// ```swift
/// let format = FileFormat(rawValue: "html")          // --format html
/// let detected = FileFormat.detect(in: "title,url\n")  // .csv
/// ```
public enum FileFormat: String, Equatable, Sendable, CaseIterable, Codable,
  CustomStringConvertible
{
  /// Comma-separated values with a header row (RFC 4180): one domain per file.
  case csv
  /// The Netscape bookmark file every browser exports and imports: links only.
  case html
  /// Loop's own export (see ``LoopExport``): versioned and lossless.
  case json

  /// What a file holds, judged from its first character that is not whitespace: `{` or `[` is
  /// JSON, `<` is HTML, anything else is CSV.
  ///
  /// The parser of the detected format then checks the rest and says clearly when the file is
  /// not what it seemed.
  ///
  /// - Parameter text: The file's text.
  /// - Returns: The format.
  public static func detect(in text: String) -> FileFormat {
    switch text.unicodeScalars.first(where: { !$0.properties.isWhitespace }) {
    case "{", "[": .json
    case "<": .html
    default: .csv
    }
  }

  /// The name people know the format by: `CSV`, `bookmark HTML`, `Loop JSON`.
  public var description: String {
    switch self {
    case .csv: "CSV"
    case .html: "bookmark HTML"
    case .json: "Loop JSON"
    }
  }
}
