import Foundation

// NB: here, where every client's interface can use them (they all import Loop), as `package`:
// not in `Loop`'s public surface.

extension String {
  /// The string without the whitespace and newlines around it (Unicode's `White_Space`, the
  /// characters `trimmingCharacters(in: .whitespacesAndNewlines)` removes).
  ///
  /// NB: Foundation's trimming goes through `NSString` on Linux, about twenty times slower; an
  /// import checks three strings of each of 100,000 links, and every `add` of a script trims
  /// what it was given.
  package var trimmedOfWhitespace: String {
    let scalars = unicodeScalars
    guard let first = scalars.firstIndex(where: { !$0.isWhitespace }),
      let last = scalars.lastIndex(where: { !$0.isWhitespace })
    else { return "" }
    if first == scalars.startIndex && scalars.index(after: last) == scalars.endIndex {
      return self
    }
    return String(scalars[first...last])
  }
}

extension Unicode.Scalar {
  /// Whether this is whitespace or a newline (Unicode's `White_Space`), answered without a
  /// property lookup for ASCII.
  package var isWhitespace: Bool {
    value < 0x80 ? value == 0x20 || (0x09...0x0D).contains(value) : properties.isWhitespace
  }
}
