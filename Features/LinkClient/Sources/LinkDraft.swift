import Foundation
import Loop

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
  ///
  /// NB: `package`, as the checks are: the live module checks what it stores with them.
  package struct Checked {
    package var title: String
    package var url: URL
    package var memo: String?
  }

  /// Checks the draft.
  ///
  /// - Returns: The trimmed title and memo and the parsed address.
  /// - Throws: ``LinkError/emptyTitle`` or ``LinkError/invalidURL(_:)`` (the title is checked
  ///   first).
  package func checked() throws(LinkError) -> Checked {
    let title = title.trimmedOfWhitespace
    guard !title.isEmpty else { throw .emptyTitle }
    return try Self.checked(
      title: title, address: url.trimmedOfWhitespace, memo: memo.trimmedOfWhitespace)
  }

  /// The checked values of fields already trimmed, the title not blank: the address parsed, a
  /// blank memo no memo.
  ///
  /// - Throws: ``LinkError/invalidURL(_:)``.
  package static func checked(title: String, address: String, memo: String) throws(LinkError)
    -> Checked
  {
    guard
      !address.unicodeScalars.contains(where: \.isWhitespace),
      let url = URL(string: address),
      let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
      let host = url.host, !host.isEmpty
    else { throw .invalidURL(address) }
    return Checked(title: title, url: url, memo: memo.isEmpty ? nil : memo)
  }
}
