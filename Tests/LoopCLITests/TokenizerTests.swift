import LoopCLI
import Testing

@Suite struct TokenizerTests {
  static let lines: [(String, [String])] = [
    ("", []),
    ("   \t ", []),
    ("habit list", ["habit", "list"]),
    ("  habit   list  ", ["habit", "list"]),
    (#"link add "Swift book" url"#, ["link", "add", "Swift book", "url"]),
    ("link add 'Swift book' url", ["link", "add", "Swift book", "url"]),
    (#"a "say \"hi\"""#, ["a", #"say "hi""#]),
    (#"a "back\\slash""#, ["a", #"back\slash"#]),
    (#"a "keep \n as typed""#, ["a", #"keep \n as typed"#]),
    (#"a 'C:\path'"#, ["a", #"C:\path"#]),
    (#"a two\ words"#, ["a", "two words"]),
    (#"a \"quoted\""#, ["a", #""quoted""#]),
    (#"a"b c"d"#, [#"ab cd"#]),
    (#"a "" ''"#, ["a", "", ""]),
    ("# all comment", []),
    ("habit list # the habits", ["habit", "list"]),
    ("habit add C#", ["habit", "add", "C#"]),
    ("habit add '# not a comment'", ["habit", "add", "# not a comment"]),
    ("이름 '한국어 습관'", ["이름", "한국어 습관"]),
    // NB: "\r\n" is one character, and no space: the ASCII fast path must not split it.
    ("a\r\nb c", ["a\r\nb", "c"]),
    ("a\rb", ["a", "b"]),
  ]

  @Test(arguments: lines)
  func splitsLikeAShell(_ line: String, _ words: [String]) throws {
    #expect(try Tokenizer.words(in: line) == words)
  }

  static let mistakes: [(String, TokenizerError, String)] = [
    (
      "habit add 'Read", .unterminatedQuote("'", column: 11),
      "unterminated single quote: the ' at column 11 is never closed"
    ),
    (
      #"a "b"#, .unterminatedQuote("\"", column: 3),
      #"unterminated double quote: the " at column 3 is never closed"#
    ),
    (
      #"a "b\"#, .unterminatedQuote("\"", column: 3),
      #"unterminated double quote: the " at column 3 is never closed"#
    ),
    (
      #"a b\"#, .trailingBackslash(column: 4),
      "the backslash at column 4 ends the line: there is nothing to escape"
    ),
  ]

  /// A combining mark after a quote makes one character with it, which closes nothing.
  @Test func aQuoteWithACombiningMarkIsNoQuote() {
    #expect(throws: TokenizerError.unterminatedQuote("'", column: 3)) {
      try Tokenizer.words(in: "a 'b'\u{301} c")
    }
    #expect((try? Tokenizer.words(in: "a 'b'\u{301} c'")) == ["a", "b'\u{301} c"])
  }

  @Test(arguments: mistakes)
  func reportsWhereAQuoteWasLeftOpen(_ line: String, _ error: TokenizerError, _ message: String) {
    #expect(throws: error) { try Tokenizer.words(in: line) }
    #expect(error.description == message)
  }
}
