import Foundation

/// What the user typed for a link, before it is checked: the input of `addLink` and
/// `updateLink`.
///
/// ```swift
/// let draft = LinkDraft(title: "Swift Testing", url: "https://swift.org/testing")
/// let link = try await linkClient.addLink(draft)
/// ```
///
/// The client trims every field, and rejects a blank title (``LinkError/emptyTitle``), an
/// address that is not an absolute `http`/`https` URL (``LinkError/invalidURL(_:)``) and a
/// category that does not exist (``LinkError/categoryNotFound(_:)``). A blank memo is no memo.
public struct LinkDraft: Equatable, Sendable, Codable {
  /// The title.
  public var title: String
  /// The address, as typed.
  public var url: String
  /// The category, or `nil` for none.
  public var categoryID: Category.ID?
  /// A note; blank for none.
  public var memo: String

  /// Creates a draft.
  public init(
    title: String = "", url: String = "", categoryID: Category.ID? = nil, memo: String = ""
  ) {
    self.title = title
    self.url = url
    self.categoryID = categoryID
    self.memo = memo
  }

  /// A draft holding a saved link's values, for editing it.
  public init(_ link: Link) {
    self.init(
      title: link.title, url: link.url.absoluteString, categoryID: link.categoryID,
      memo: link.memo ?? "")
  }

  /// The checked values: title and memo trimmed, the address parsed.
  struct Checked {
    var title: String
    var url: URL
    var memo: String?
  }

  /// Checks the draft.
  ///
  /// - Returns: The trimmed title and memo and the parsed address.
  /// - Throws: ``LinkError/emptyTitle`` or ``LinkError/invalidURL(_:)`` (the title is checked
  ///   first).
  func checked() throws(LinkError) -> Checked {
    let title = title.trimmedOfWhitespace
    guard !title.isEmpty else { throw .emptyTitle }
    return try Self.checked(
      title: title, address: url.trimmedOfWhitespace, memo: memo.trimmedOfWhitespace)
  }

  /// The checked values of fields already trimmed, the title not blank: the address parsed, a
  /// blank memo no memo.
  ///
  /// - Throws: ``LinkError/invalidURL(_:)``.
  static func checked(title: String, address: String, memo: String) throws(LinkError) -> Checked {
    guard
      !address.unicodeScalars.contains(where: \.isWhitespace),
      let url = URL(string: address),
      let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
      let host = url.host, !host.isEmpty
    else { throw .invalidURL(address) }
    return Checked(title: title, url: url, memo: memo.isEmpty ? nil : memo)
  }
}

extension String {
  /// The string without the whitespace and newlines around it (Unicode's `White_Space`, the
  /// characters `trimmingCharacters(in: .whitespacesAndNewlines)` removes).
  ///
  /// NB: Foundation's trimming goes through `NSString` on Linux, about twenty times slower; an
  /// import checks three strings of each of 100,000 links.
  var trimmedOfWhitespace: String {
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
  var isWhitespace: Bool {
    value < 0x80 ? value == 0x20 || (0x09...0x0D).contains(value) : properties.isWhitespace
  }
}
