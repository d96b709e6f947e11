import Foundation
import LinkClient
import Loop

/// What the links part loaded about a link: the facts every screen that shows the link reads.
///
/// ``LinkList`` keeps one identified array of them, shared with its screens
/// (``LinkList/LinkList/State/links``): a screen keeps only which links it shows, in its order,
/// and what it alone adds (a category's name, where a query matched), so a link deleted,
/// favorited or saved is one change to the shared array, which every screen shows at once.
///
/// A page of "All links" reads a link's summary (``LinkClient/LinkSummary``); a search, "Recent",
/// an opened link and a save read the whole link, and bring its ``Details`` too.
@dynamicMemberLookup
public struct LoadedLink: Identifiable, Equatable, Sendable {
  /// What every read of the link brings: its id, title, address, category, favorite flag and
  /// date, read through the loaded link itself (`loaded.title`).
  public var summary: LinkSummary
  /// What only a read of the whole link brings; `nil` when only a page of "All links" read it.
  public var details: Details?

  /// What a read of the whole link brings beside its summary.
  public struct Details: Equatable, Sendable {
    /// The link's note, or `nil` when it has none.
    public var memo: String?
    /// When the link was last opened, or `nil` when never.
    public var lastViewedDate: Date?

    /// Creates the details.
    public init(memo: String?, lastViewedDate: Date?) {
      self.memo = memo
      self.lastViewedDate = lastViewedDate
    }
  }

  /// Creates a loaded link.
  public init(summary: LinkSummary, details: Details?) {
    self.summary = summary
    self.details = details
  }

  /// Creates a loaded link from its summary's values.
  public init(
    id: Link.ID, title: String, address: String, categoryID: Category.ID?, isFavorite: Bool,
    createdAt: Date, details: Details?
  ) {
    self.init(
      summary: LinkSummary(
        id: id, title: title, address: address, categoryID: categoryID, isFavorite: isFavorite,
        createdAt: createdAt),
      details: details)
  }

  /// A link read whole.
  public init(_ link: Link) {
    self.init(
      summary: LinkSummary(link),
      details: Details(memo: link.memo, lastViewedDate: link.lastViewedDate))
  }

  /// A link as a page reads it: no details.
  public init(_ summary: LinkSummary) {
    self.init(summary: summary, details: nil)
  }

  /// The link's id.
  public var id: Link.ID { summary.id }

  /// A value of the link's summary (`title`, `address`, `categoryID`, `isFavorite`,
  /// `createdAt`), read and changed in place.
  public subscript<Value>(dynamicMember keyPath: WritableKeyPath<LinkSummary, Value>) -> Value {
    get { summary[keyPath: keyPath] }
    set { summary[keyPath: keyPath] = newValue }
  }

  /// The link's address as a URL; `nil` only if the address stored is not one.
  public var url: URL? { URL(string: summary.address) }

  /// The whole link, when it was read whole (it has its ``details``).
  public var link: Link? {
    guard let details, let url else { return nil }
    return Link(
      id: id, title: summary.title, url: url, categoryID: summary.categoryID,
      memo: details.memo, isFavorite: summary.isFavorite, createdAt: summary.createdAt,
      lastViewedDate: details.lastViewedDate)
  }
}

extension IdentifiedArray where Element == LoadedLink, ID == Link.ID {
  /// Keeps what a read of the whole link brought, in place of what was loaded of it.
  ///
  /// - Parameter link: The link read.
  public mutating func show(_ link: Link) {
    self[id: link.id] = LoadedLink(link)
  }

  /// Keeps what a page brought of a link; the details read before stay, as a page reads none.
  ///
  /// - Parameter summary: The link as the page read it.
  public mutating func show(_ summary: LinkSummary) {
    // NB: appended first: one look-up of the id when the link is new, as a page's links are.
    guard !append(LoadedLink(summary)) else { return }
    modify(id: summary.id) { $0.summary = summary }
  }

  /// Keeps a saved link, if a screen shows it: the save is then every screen's.
  ///
  /// - Parameter link: The link as saved.
  public mutating func update(_ link: Link) {
    guard contains(id: link.id) else { return }
    show(link)
  }
}
