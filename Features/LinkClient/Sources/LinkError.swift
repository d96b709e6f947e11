import Foundation
import Loop

/// Every failure of the links domain: links, their comments, and categories.
///
/// `LinkClient` and `CategoryClient` throw only this error. Each case carries what the user
/// needs to act on it (the id, or the text they typed), and ``description`` is a sentence that
/// can be shown as is.
///
/// ```swift
/// do {
///   _ = try await linkClient.addLink(LinkDraft(title: "Swift", url: "swift.org"))
/// } catch let error as LinkError {
///   print(error)  // 'swift.org' is not a web address: enter an absolute http or https URL, …
/// }
/// ```
public enum LinkError: StorageFailing, Equatable, Sendable, CustomStringConvertible,
  LocalizedError
{
  /// No link has this id.
  case notFound(Link.ID)
  /// No comment has this id.
  case commentNotFound(Comment.ID)
  /// No category has this id.
  case categoryNotFound(Category.ID)
  /// A link's title is blank.
  case emptyTitle
  /// A link's address (as typed) is not an absolute `http` or `https` URL.
  case invalidURL(String)
  /// A comment's text is blank.
  case emptyComment
  /// A category's name is blank.
  case emptyCategoryName
  /// Another category already has this name, ignoring case; it carries the name as typed.
  case duplicateCategoryName(String)
  /// An archive given to `restoreLinks` contradicts itself or the stored links (a blank title,
  /// an address that is not a web address, two entries with one id, a comment on no link, …);
  /// it carries what is wrong, naming the entry. Nothing was written.
  case invalidArchive(String)
  /// The storage failed (it could not be opened, or a read or write failed); it carries the
  /// storage's explanation.
  case storageFailed(String)

  /// Wraps any error as a `LinkError`: itself when it is one, otherwise ``storageFailed(_:)``
  /// with its description.
  public init(_ error: any Error) {
    self = .captured(error)
  }

  /// A sentence for the user, with what they typed in single quotes.
  public var description: String {
    switch self {
    case .notFound(let id):
      return "No link with id '\(id)' exists."
    case .commentNotFound(let id):
      return "No comment with id '\(id)' exists."
    case .categoryNotFound(let id):
      return "No category with id '\(id)' exists."
    case .emptyTitle:
      return "A link needs a title."
    case .invalidURL(let url):
      return
        "'\(url)' is not a web address: enter an absolute http or https URL, such as "
        + "'https://example.com'."
    case .emptyComment:
      return "A comment cannot be empty."
    case .emptyCategoryName:
      return "A category needs a name."
    case .duplicateCategoryName(let name):
      return "A category named '\(name)' already exists."
    case .invalidArchive(let reason):
      return "The links cannot be restored: \(reason)."
    case .storageFailed(let reason):
      return "The links could not be read or saved: \(reason)"
    }
  }

  /// The same sentence as ``description``.
  public var errorDescription: String? { description }
}
