/// Splits a command line into words, quoting like a shell.
///
/// Words are separated by spaces and tabs. Within a word:
/// - `"double quotes"` keep spaces; inside them `\"` is a quote and `\\` a backslash, and any
///   other backslash stays as typed;
/// - `'single quotes'` keep everything as typed, backslashes included;
/// - outside quotes, a backslash makes the next character literal (`two\ words`);
/// - quoted and unquoted parts next to each other form one word (`a"b c"d` is `ab cd`), and
///   `""` is an empty word;
/// - `#` at the start of a word starts a comment that runs to the end of the line.
///
/// ```swift
/// try Tokenizer.words(in: #"link add "Swift book" 'https://swift.org' # a comment"#)
/// // ["link", "add", "Swift book", "https://swift.org"]
/// ```
public enum Tokenizer {
  /// Splits `line` into words.
  ///
  /// - Parameter line: The command line.
  /// - Returns: The words, quotes removed; empty for a blank line or a comment.
  /// - Throws: ``TokenizerError`` for an unterminated quote or a trailing backslash.
  public static func words(in line: String) throws(TokenizerError) -> [String] {
    // NB: a line of one-byte characters is read by scalar, without breaking it into grapheme
    // clusters (a fiftieth of a scripted command).
    if line.hasOneByteCharacters {
      // NB: and its words gathered as bytes, each made a string once: appending to a string
      // one scalar at a time was the larger part of splitting a line.
      var bytes: [UInt8] = []
      bytes.reserveCapacity(line.utf8.count)
      return try words(
        of: line.unicodeScalars.makeIterator(), into: &bytes,
        appending: { $0.append(UInt8(truncatingIfNeeded: $1.value)) },
        string: { String(decoding: $0, as: UTF8.self) },
        clear: { $0.removeAll(keepingCapacity: true) })
    }
    var characters = ""
    return try words(
      of: Array(line).makeIterator(), into: &characters, appending: { $0.append($1) },
      string: { $0 }, clear: { $0 = "" })
  }

  /// Splits the characters (or, in ASCII, the scalars) `units` yields into words.
  ///
  /// - Parameters:
  ///   - units: The line's characters or scalars.
  ///   - word: Where a word is gathered, empty.
  ///   - append: Adds a character or scalar to the word being gathered.
  ///   - string: The word gathered, as a string.
  ///   - clear: Empties the word gathered, for the next.
  /// - Returns: The words.
  /// - Throws: ``TokenizerError`` for a quote never closed or a backslash ending the line.
  private static func words<Units: IteratorProtocol, Word>(
    of units: Units, into word: inout Word, appending append: (inout Word, Units.Element) -> Void,
    string: (Word) -> String, clear: (inout Word) -> Void
  ) throws(TokenizerError) -> [String]
  where Units.Element: Equatable & ExpressibleByUnicodeScalarLiteral {
    var words: [String] = []
    var isInWord = false
    var units = units
    var column = 0

    func next() -> Units.Element? {
      guard let character = units.next() else { return nil }
      column += 1
      return character
    }

    while let character = next() {
      switch character {
      case " ", "\t", "\r", "\n":
        if isInWord {
          words.append(string(word))
          clear(&word)
          isInWord = false
        }
      case "#" where !isInWord:
        return words
      case "\\":
        let start = column
        guard let escaped = next() else { throw .trailingBackslash(column: start) }
        append(&word, escaped)
        isInWord = true
      case "'":
        let start = column
        isInWord = true
        while true {
          guard let quoted = next() else { throw .unterminatedQuote("'", column: start) }
          if quoted == "'" { break }
          append(&word, quoted)
        }
      case "\"":
        let start = column
        isInWord = true
        while true {
          guard let quoted = next() else { throw .unterminatedQuote("\"", column: start) }
          if quoted == "\"" { break }
          if quoted == "\\" {
            guard let escaped = next() else { throw .unterminatedQuote("\"", column: start) }
            if escaped != "\"" && escaped != "\\" { append(&word, "\\") }
            append(&word, escaped)
          } else {
            append(&word, quoted)
          }
        }
      default:
        append(&word, character)
        isInWord = true
      }
    }
    if isInWord { words.append(string(word)) }
    return words
  }
}

/// Why a command line cannot be split into words.
public enum TokenizerError: Error, Equatable, Sendable, CustomStringConvertible {
  /// A quote (`'` or `"`) opened at a column (counted from 1) is never closed.
  case unterminatedQuote(Character, column: Int)
  /// The line ends with a backslash (at a column counted from 1), which has nothing to escape.
  case trailingBackslash(column: Int)

  /// A sentence for the user.
  public var description: String {
    switch self {
    case .unterminatedQuote(let quote, let column):
      let name = quote == "'" ? "single" : "double"
      return "unterminated \(name) quote: the \(quote) at column \(column) is never closed"
    case .trailingBackslash(let column):
      return "the backslash at column \(column) ends the line: there is nothing to escape"
    }
  }
}
