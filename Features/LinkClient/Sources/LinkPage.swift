import Foundation

/// A page of links in the newest-first order (``LinkClient/fetchLinkPage``), as a list shows
/// them (``LinkSummary``), and where the next page starts.
///
/// ```swift
/// var page = try await linkClient.fetchLinkPage(nil, nil, 500)
/// while let next = page.next {
///   page = try await linkClient.fetchLinkPage(nil, next, 500)
/// }
/// ```
///
/// A page starts after a link, not at a position: a link added or deleted while the pages are
/// read moves no other link to another page, so none is read twice or skipped.
public struct LinkPage: Equatable, Sendable {
  /// Where a page starts: right after this link in the newest-first order (by `createdAt`
  /// descending, then id descending).
  public struct Cursor: Equatable, Hashable, Sendable {
    /// When the link before the page was added.
    public var createdAt: Date
    /// The link before the page.
    public var id: Link.ID

    /// Creates a cursor.
    public init(createdAt: Date, id: Link.ID) {
      self.createdAt = createdAt
      self.id = id
    }

    /// The cursor right after `link`.
    public init(after link: LinkSummary) {
      self.init(createdAt: link.createdAt, id: link.id)
    }

    /// Whether `link` comes after the cursor's link in the newest-first order, that is on a
    /// page starting here.
    public func precedes(_ link: Link) -> Bool {
      link.createdAt < createdAt || (link.createdAt == createdAt && link.id < id)
    }
  }

  /// The page's links, newest first.
  public var links: [LinkSummary]
  /// Where the next page starts; `nil` when this is the last page.
  public var next: Cursor?

  /// Creates a page.
  public init(links: [LinkSummary], next: Cursor?) {
    self.links = links
    self.next = next
  }
}

/// What a list of links shows of a link: its id, title, address, category, favorite flag and
/// date, read without its memo and last view, and with its address as stored (a list of
/// 200,000 links need not parse 200,000 URLs).
public struct LinkSummary: Identifiable, Equatable, Sendable {
  /// The link's id.
  public var id: Link.ID
  /// The title.
  public var title: String
  /// The address, as stored: an absolute `http` or `https` URL's text.
  public var address: String
  /// The category, or `nil` when uncategorized.
  public var categoryID: Category.ID?
  /// Whether the user marked it as a favorite.
  public var isFavorite: Bool
  /// When the link was added.
  public var createdAt: Date

  /// Creates a summary.
  public init(
    id: Link.ID, title: String, address: String, categoryID: Category.ID? = nil,
    isFavorite: Bool = false, createdAt: Date
  ) {
    self.id = id
    self.title = title
    self.address = address
    self.categoryID = categoryID
    self.isFavorite = isFavorite
    self.createdAt = createdAt
  }

  /// The summary of a link.
  public init(_ link: Link) {
    self.init(
      id: link.id, title: link.title, address: link.url.absoluteString,
      categoryID: link.categoryID, isFavorite: link.isFavorite, createdAt: link.createdAt)
  }
}
