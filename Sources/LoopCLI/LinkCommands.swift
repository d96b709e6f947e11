import AppFeature
import Categories
import CategoryClient
import Foundation
import Interchange
import LinkClient
import LinkList
import Loop
import Persistence

import struct LinkClient.Comment

/// The `link` commands: a ref is looked up through the app (`LinkLookup`), never by loading
/// the links; each command then sends the LinkList feature's action and prints the state, or
/// the feature's answer (``Session/send(_:answer:)``).
enum LinkCommands {
  /// The commands, in the order `help` lists them.
  static let all = [
    add, list, search, recent, show, open, favorite, unfavorite, update, remove, comment,
    InterchangeCommands.importing(
      .links, noun: .link, formats: [.html, .csv, .json],
      summary: "Import a browser's bookmark file (HTML), a CSV or a Loop export."),
    InterchangeCommands.exporting(
      .links, noun: .link, formats: [.json, .csv, .html],
      summary: "Export the links as JSON, CSV, or a bookmark file browsers import."),
  ]

  private static let category = Option(
    "category", valueName: "NAME", help: "the category's name")

  /// `link add <title> <url> [--category NAME] [--memo TEXT]`:
  /// ``LinkList/LinkList/Action/addLinkSubmitted(_:)``, answered by the saved link with the
  /// digits its ref needs.
  static let add = Command(
    noun: .link, verb: "add", summary: "Save a link.", Argument("title", help: "the link's title"),
    Argument("url", help: "the page's address"), category,
    Option("memo", valueName: "TEXT", help: "a note")
  ) { session, title, url, category, memo throws(CommandError) in
    let categoryID = try await session.categoryID(named: category)
    let draft = LinkDraft(title: title, url: url, categoryID: categoryID, memo: memo ?? "")
    let added = try await session.send(.links(.addLinkSubmitted(draft))) {
      if case .links(.addLinkResponse(.success(let saved))) = $0 { saved } else { nil }
    }
    guard let added else { return }
    session.console.print("Added link '\(added.link.title)' (\(added.ref)).")
  }

  /// `link list [--category NAME]`: the categories' `categorySelected`, then a page at a time.
  ///
  /// `categorySelected` shows "All links" filtered by the category (or not) and loads its first
  /// page; each page is printed as it arrives, while
  /// ``LinkList/AllLinks/Action/nextPageRequested`` loads the next, until the last (or
  /// `--limit`). The refs are as long as every link's need.
  static let list = Command(
    noun: .link, verb: "list", summary: "List the links, newest first.",
    Option("category", valueName: "NAME", help: "only this category's links"), Option.window,
    Option.format
  ) { session, category, window, format throws(CommandError) in
    let categoryID = try await session.categoryID(named: category)
    var window = window
    try await session.send(.links(.categories(.categorySelected(categoryID))))
    var printer = LinkRowPrinter<AllLinks.Row>(
      session: session, format: format,
      extra: [("CATEGORY", { $0.categoryName ?? "" })])
    var seen = 0
    while true {
      // NB: the screen's state is released before the next page arrives: the reducer then drops
      // the oldest ids in place rather than copying them all.
      do {
        let screen = session.store.state.links.all
        // NB: the rows this page added, read through one read of the shared links (not every row
        // of the screen); those of earlier pages may have been dropped.
        let rows = window.take(screen.rows(from: seen - screen.droppedRowCount))
        seen = screen.droppedRowCount + screen.rowIDs.count
        // NB: the refs' length is asked for before the first row: a ref must name its link among
        // every link, not only among those printed so far.
        if !rows.isEmpty { try await printer.prepare() }
        try await printer.print(rows)
        guard !window.isFull, screen.nextPage != nil else { break }
      }
      // NB: asked for once this page is printed. The live client has been reading it meanwhile
      // (it reads the page after each page it answers ahead), and asking earlier would make this
      // page wait: the request reads the categories, which waits for that read to end.
      try await session.send(.links(.all(.nextPageRequested)))
    }
    printer.finish(
      empty: seen > 0
        ? nil
        : categoryID == nil
          ? "No links yet: add one with 'link add <title> <url>'." : "No links in this category.")
  }

  /// `link search <query>`: the search screen's `searchSubmitted`, then its rows.
  static let search = Command(
    noun: .link, verb: "search", summary: "Find the links whose title contains the query.",
    Argument("query", help: "words of the title"), Option.window, Option.format
  ) { session, query, window, format throws(CommandError) in
    try await session.send(.links(.search(.searchSubmitted(query))))
    try await printLinkRows(
      session.store.state.links.search.rows.elements, format, window: window,
      empty: "No link title contains '\(query)'.", in: session)
  }

  /// `link recent`: ``LinkList/LinkList/Action/screenSelected(_:)`` with the recent screen.
  static let recent = Command(
    noun: .link, verb: "recent", summary: "List the links opened most recently.", Option.window,
    Option.format
  ) { session, window, format throws(CommandError) in
    try await session.send(.links(.screenSelected(.recent)))
    let environment = session.environment
    try await printLinkRows(
      session.store.state.links.recent.rows.elements, format, window: window,
      empty: "No link opened yet: 'link open <ref>' opens one.", in: session,
      extra: [("VIEWED", { environment.dateTime($0.lastViewedDate) })])
  }

  /// `link show <ref>`: ``LinkList/LinkLookup/Action/previewSubmitted(_:)`` (no view is
  /// recorded), then the link and its comments.
  static let show = Command(
    noun: .link, verb: "show", summary: "Show a link with its comments.", Argument.ref(.link),
    Option.format
  ) { session, ref, format throws(CommandError) in
    let link = try await session.link(ref)
    guard let (shown, comments) = try await session.preview(link) else { return }
    try await session.printListing(
      format, json: LinkDetailOutput(link: shown, comments: comments)
    ) { () async throws(CommandError) in
      let categoryName = try await session.categoryName(of: shown)
      let ref = try await session.ref(of: shown.id)
      return LinkRenderer(environment: session.environment, style: session.style)
        .detail(shown, comments: comments, ref: ref, categoryName: categoryName)
    }
  }

  /// `link open <ref>`: ``LinkList/LinkList/Action/linkSelected(_:)``, which records the view.
  static let open = onLink(
    "open", summary: "Open a link: print its address and mark it viewed.",
    action: { .linkSelected($0.id) },
    done: { session, link in
      let opened = session.store.state.links.destination?.detail?.link ?? link
      return "Opened '\(opened.title)': \(opened.url.absoluteString)"
    })

  /// `link fav <ref>`.
  static let favorite = Command(
    noun: .link, verb: "fav", summary: "Mark a link as a favorite.", Argument.ref(.link)
  ) { session, ref throws(CommandError) in
    try await setFavorite(ref, true, in: session)
  }

  /// `link unfav <ref>`.
  static let unfavorite = Command(
    noun: .link, verb: "unfav", summary: "Unmark a favorite.", Argument.ref(.link)
  ) { session, ref throws(CommandError) in
    try await setFavorite(ref, false, in: session)
  }

  /// `link update <ref> [--title T] [--url U] [--category NAME | --no-category] [--memo M]`:
  /// the link's values as a draft, changed by the options, then
  /// ``LinkList/LinkList/Action/updateLinkSubmitted(_:_:)``.
  static let update = Command(
    noun: .link, verb: "update", summary: "Change a link.", Argument.ref(.link),
    Option("title", valueName: "TITLE", help: "the new title"),
    Option("url", valueName: "URL", help: "the new address"), category,
    Option(flag: "no-category", help: "take the link out of its category"),
    Option("memo", valueName: "TEXT", help: "the new note (empty removes it)")
  ) { session, ref, title, url, category, noCategory, memo throws(CommandError) in
    guard title != nil || url != nil || category != nil || noCategory || memo != nil else {
      throw .usage("there is nothing to change: give at least one option")
    }
    if category != nil, noCategory {
      throw .usage("give either --category or --no-category, not both")
    }
    let link = try await session.link(ref)
    var draft = LinkDraft(link)
    if let title { draft.title = title }
    if let url { draft.url = url }
    if let memo { draft.memo = memo }
    if let category {
      draft.categoryID = try await session.category(named: category).id
    }
    if noCategory { draft.categoryID = nil }
    let updated = try await session.send(.links(.updateLinkSubmitted(link.id, draft))) {
      if case .links(.updateLinkResponse(.success(let saved))) = $0 { saved } else { nil }
    }
    guard let updated else { return }
    session.console.print("Updated '\(updated.link.title)' (\(updated.ref)).")
  }

  /// `link rm <ref>`: ``LinkList/LinkList/Action/deleteLinkSubmitted(_:)``.
  static let remove = onLink(
    "rm", summary: "Delete a link and its comments.", action: { .deleteLinkSubmitted($0.id) },
    done: { _, link in "Deleted '\(link.title)'." })

  /// A command on the link `<ref>` names: sends one action about it, prints one line.
  private static func onLink(
    _ verb: String, summary: String, action: @escaping @Sendable (Link) -> LinkList.Action,
    done: @escaping @MainActor @Sendable (Session, Link) -> String
  ) -> Command {
    .onRef(
      noun: .link, verb: verb, summary: summary,
      find: { session, ref throws(CommandError) in try await session.link(ref) },
      action: { .links(action($0)) }, done: done)
  }

  /// `link comment <ref> <text>`: the link previewed into the detail, then the detail's
  /// `addCommentSubmitted`.
  static let comment = Command(
    noun: .link, verb: "comment", summary: "Comment on a link.", Argument.ref(.link),
    Argument("text", help: "the comment")
  ) { session, ref, text throws(CommandError) in
    let link = try await session.link(ref)
    _ = try await session.preview(link)
    try await session.send(.links(.destination(.presented(.detail(.addCommentSubmitted(text))))))
    session.console.print("Commented on '\(link.title)'.")
  }

  /// `link fav <ref>`, `link unfav <ref>`: the link previewed into the detail, then the
  /// detail's `favoriteSubmitted` when it changes anything.
  @MainActor private static func setFavorite(
    _ ref: Ref, _ isFavorite: Bool, in session: Session
  ) async throws(CommandError) {
    let link = try await session.link(ref)
    guard let (shown, _) = try await session.preview(link) else { return }
    guard shown.isFavorite != isFavorite else {
      session.console.print(
        isFavorite
          ? "'\(shown.title)' is a favorite already." : "'\(shown.title)' is not a favorite.")
      return
    }
    try await session.send(.links(.destination(.presented(.detail(.favoriteSubmitted)))))
    session.console.print(
      isFavorite
        ? "'\(shown.title)' is a favorite now." : "'\(shown.title)' is no longer a favorite.")
  }

  /// Prints a screen's rows in `window`: as JSON when asked, otherwise as
  /// ``LinkRenderer/rows(_:empty:extra:)`` (each ref as long as the whole screen needs).
  @MainActor private static func printLinkRows<Row: LinkRowItem & Encodable>(
    _ rows: [Row], _ format: OutputFormat, window: RowWindow, empty: String, in session: Session,
    extra: [(header: String, value: (Row) -> String)] = []
  ) async throws(CommandError) {
    try await session.printListing(format, json: window.apply(to: rows)) {
      guard !rows.isEmpty else { return [empty] }
      let length = Ref.length(for: rows.map(\.id.rawValue))
      return LinkRenderer(environment: session.environment, style: session.style)
        .rows(window.apply(to: rows), refLength: length, extra: extra)
    }
  }
}

extension SavedLink {
  /// The link's ref: the digits of its id that name it alone, at least ``Ref/minimumLength``.
  var ref: String {
    Ref.short(link.id.rawValue, length: min(32, max(Ref.minimumLength, idPrefixLength)))
  }
}

/// Prints the pages of a listing of links as they arrive: a table whose header comes with the
/// first page and whose refs are as long as every link's need, or one JSON array.
@MainActor
struct LinkRowPrinter<Row: LinkRowItem & Encodable> {
  let session: Session
  let format: OutputFormat
  let extra: [(header: String, value: (Row) -> String)]
  private var table: PagedTable?
  private var refLength: Int?
  private var json: JSONArrayPrinter?

  /// A printer of rows on `session`'s console in `format`, with `extra` columns after the ref,
  /// the star and the title.
  init(session: Session, format: OutputFormat, extra: [(header: String, value: (Row) -> String)]) {
    self.session = session
    self.format = format
    self.extra = extra
  }

  /// Learns what printing rows needs from the database: the length of every ref, in a table.
  ///
  /// Asked once, before the first row: a ref must name its link among every link, not only
  /// among those printed so far. ``print(_:)`` asks for it when it was not asked before.
  mutating func prepare() async throws(CommandError) {
    guard format != .json else { return }
    _ = try await everyRefLength()
  }

  /// The length of every ref, asked for the first time only.
  private mutating func everyRefLength() async throws(CommandError) -> Int {
    if let refLength { return refLength }
    let length = try await session.refLength(of: nil)
    refLength = length
    return length
  }

  /// Prints a page of rows (nothing for none).
  mutating func print(_ rows: some Collection<Row>) async throws(CommandError) {
    guard !rows.isEmpty else { return }
    if format == .json {
      var printer = json ?? JSONArrayPrinter(console: session.console)
      try printer.print(Array(rows))
      json = printer
      return
    }
    let length = try await everyRefLength()
    let renderer = LinkRenderer(environment: session.environment, style: session.style)
    var table =
      self.table ?? PagedTable(columns: renderer.columns(extra: extra), style: session.style)
    var cells: [String] = []
    cells.reserveCapacity(rows.count * table.columns.count)
    for row in rows { renderer.appendCells(row, refLength: length, extra: extra, to: &cells) }
    let text = table.text(cells: cells)
    self.table = table
    session.console.writeOutput(text)
  }

  /// Ends the listing: closes the JSON array, or prints `empty` when no row was printed.
  func finish(empty: String?) {
    if format == .json {
      (json ?? JSONArrayPrinter(console: session.console)).finish()
    } else if table == nil, let empty {
      session.console.print(empty)
    }
  }
}

/// What `link show --format json` prints: the link and its comments.
struct LinkDetailOutput: Encodable {
  var link: Link
  var comments: [Comment]
}
