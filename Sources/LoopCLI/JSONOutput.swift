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

/// One JSON array printed a page of elements at a time, as the pages of a long list arrive:
/// the same text as ``JSONOutput/string(_:)`` of the whole array, without holding it.
struct JSONArrayPrinter {
  let console: Console
  private var isEmpty = true

  /// A printer writing to `console`'s standard output.
  init(console: Console) {
    self.console = console
  }

  /// Prints a page of elements (nothing for none).
  ///
  /// - Throws: ``CommandError`` when an element cannot be encoded.
  mutating func print(_ elements: [some Encodable]) throws(CommandError) {
    guard !elements.isEmpty else { return }
    let text: String
    do {
      text = try JSONOutput.string(elements)
    } catch {
      throw CommandError("the output could not be written as JSON: \(error)")
    }
    // NB: the page's array without its brackets (its first and last lines), joined to the
    // elements printed before by a comma.
    let first = text.firstIndex(of: "\n").map(text.index(after:)) ?? text.endIndex
    let last = text.lastIndex(of: "\n") ?? text.endIndex
    let body = first < last ? text[first..<last] : ""
    console.writeOutput((isEmpty ? "[\n" : ",\n") + body)
    isEmpty = false
  }

  /// Closes the array: `[]` when nothing was printed.
  func finish() {
    console.writeOutput(isEmpty ? "[]\n" : "\n]\n")
  }
}
