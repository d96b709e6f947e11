/// Text in a feature's state, such as an alert's title: a value a test compares, that a view
/// (or the REPL) shows.
///
/// ```swift
/// TextState("Delete '\(name)'?")
/// TextState("Delete ") + TextState(name) + TextState("?")
/// String(state: title)  // "Delete 'Read'?"
/// ```
///
/// Two texts are equal when they read the same, however they were put together. Loop has no
/// view layer, so a text has no styling: it is the words shown.
public struct TextState: Equatable, Hashable, Sendable, CustomStringConvertible {
  /// The words.
  private var text: String

  /// Text shown exactly as given.
  ///
  /// - Parameter content: The text.
  public init(verbatim content: String) {
    self.text = content
  }

  /// Text shown exactly as given.
  ///
  /// - Parameter content: The text.
  public init<S: StringProtocol>(_ content: S) {
    self.init(verbatim: String(content))
  }

  /// The text of `lhs` followed by that of `rhs`.
  ///
  /// - Parameters:
  ///   - lhs: The first text.
  ///   - rhs: The text that follows it.
  /// - Returns: The two texts as one.
  public static func + (lhs: Self, rhs: Self) -> Self {
    TextState(verbatim: lhs.text + rhs.text)
  }

  /// The text as one string.
  public var description: String { text }
}

extension String {
  /// The text a ``TextState`` shows.
  ///
  /// - Parameter state: The text.
  public init(state: TextState) {
    self = state.description
  }
}
