import Foundation

/// A link read from a file (a browser's bookmark export, a CSV), not yet checked: the input of
/// `importLinks`.
///
/// ```swift
/// let summary = try await linkClient.importLinks([
///   ImportedLink(line: 12, title: "Swift", url: "https://swift.org", category: "Dev")
/// ])
/// ```
///
/// The client checks it as it checks a ``LinkDraft`` (a blank title falls back to the address),
/// finds or creates its category by name, and reports a link it rejects by ``line``.
public struct ImportedLink: Equatable, Sendable {
  /// The line of the file the link starts on (1-based), to name it in a rejection.
  public var line: Int
  /// The title; blank to use the address as the title.
  public var title: String
  /// The address, as written in the file.
  public var url: String
  /// The name of its category (found ignoring case, or created); `nil` or blank for none.
  public var category: String?
  /// A note; `nil` or blank for none.
  public var memo: String?
  /// When it was added, if the file says; `nil` for the `date` dependency's now.
  public var createdAt: Date?

  /// Creates an imported link.
  public init(
    line: Int, title: String, url: String, category: String? = nil, memo: String? = nil,
    createdAt: Date? = nil
  ) {
    self.line = line
    self.title = title
    self.url = url
    self.category = category
    self.memo = memo
    self.createdAt = createdAt
  }
}

/// What an import of links did (or, in a dry run, would do).
public struct LinkImportSummary: Equatable, Sendable {
  /// How many links were added.
  public var linksImported: Int
  /// How many comments were added (only a ``LinkArchive`` has comments).
  public var commentsImported: Int
  /// The names of the categories created, in the order they were first needed.
  public var categoriesCreated: [String]
  /// How many links were skipped because they are saved already: the same address (or, from a
  /// ``LinkArchive``, the same id), or an earlier link of the same import.
  public var duplicates: Int
  /// The links left out because they are invalid, in file order.
  public var rejected: [LinkImportRejection]

  /// Creates a summary.
  public init(
    linksImported: Int = 0, commentsImported: Int = 0, categoriesCreated: [String] = [],
    duplicates: Int = 0, rejected: [LinkImportRejection] = []
  ) {
    self.linksImported = linksImported
    self.commentsImported = commentsImported
    self.categoriesCreated = categoriesCreated
    self.duplicates = duplicates
    self.rejected = rejected
  }
}

/// A link an import left out, and why.
public struct LinkImportRejection: Equatable, Sendable {
  /// The line of the file the link starts on.
  public var line: Int
  /// Why: ``LinkError/invalidURL(_:)`` (or ``LinkError/emptyTitle`` when the address is blank
  /// too).
  public var error: LinkError

  /// Creates a rejection.
  public init(line: Int, error: LinkError) {
    self.line = line
    self.error = error
  }
}

/// Everything the links domain stores, as `exportLinks` returns it and `restoreLinks` takes it
/// back: categories, links and comments with their ids, dates and flags.
///
/// Each list is ordered by `createdAt`, then id, so an archive of the same data is always the
/// same value.
public struct LinkArchive: Equatable, Sendable, Codable {
  /// Every category.
  public var categories: [Category]
  /// Every link.
  public var links: [Link]
  /// Every comment.
  public var comments: [Comment]

  /// Creates an archive.
  public init(categories: [Category] = [], links: [Link] = [], comments: [Comment] = []) {
    self.categories = categories
    self.links = links
    self.comments = comments
  }
}
