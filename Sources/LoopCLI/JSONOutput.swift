import Foundation

/// The REPL's machine-readable output (`--format json`): the models as they encode themselves,
/// with their own field names.
///
/// Keys are sorted and the text indented, so that the same data always prints the same;
/// dates are ISO 8601 in UTC, ids UUID strings, amounts integer minor units (as `Money`
/// encodes).
enum JSONOutput {
  /// `value` as JSON text.
  ///
  /// - Parameter value: What to print.
  /// - Returns: The JSON, without a trailing newline.
  /// - Throws: What `JSONEncoder` throws for a value it cannot encode.
  static func string(_ value: some Encodable) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    let text = String(decoding: try encoder.encode(value), as: UTF8.self)
    // NB: Foundation pretty-prints an empty array or object as a bracket, a blank line and a
    // bracket; print `[]` and `{}` like every other JSON tool.
    return text.replacing(#/\[\n\s*\n\s*\]/#, with: "[]").replacing(#/\{\n\s*\n\s*\}/#, with: "{}")
  }
}
