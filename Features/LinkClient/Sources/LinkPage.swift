import Foundation

/// A page of links in the newest-first order (``LinkClient/fetchLinkPage``), and where the next
/// page starts.
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
    public init(after link: Link) {
      self.init(createdAt: link.createdAt, id: link.id)
    }

    /// Whether `link` comes after the cursor's link in the newest-first order, that is on a
    /// page starting here.
    public func precedes(_ link: Link) -> Bool {
      link.createdAt < createdAt || (link.createdAt == createdAt && link.id < id)
    }
  }

  /// The page's links, newest first.
  public var links: [Link]
  /// Where the next page starts; `nil` when this is the last page.
  public var next: Cursor?

  /// Creates a page.
  public init(links: [Link], next: Cursor?) {
    self.links = links
    self.next = next
  }
}
