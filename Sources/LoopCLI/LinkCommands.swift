import AppFeature
import Foundation
import LinkClient
import LinkList

import struct LinkClient.Comment

/// The `link` commands: a ref is looked up through the app (`LinkLookup`), never by loading
/// the links; each command then sends the LinkList feature's action and prints the state, or
/// the feature's answer (``Session/send(_:answer:)``).
enum LinkCommands {
  /// The commands, in the order `help` lists them.
  static let all = [
    add, list, search, recent, show, open, favorite, unfavorite, update, remove, comment,
    InterchangeCommands.importing(
      .links, noun: .link, formats: ["html", "csv", "json"],
      summary: "Import a browser's bookmark file (HTML), a CSV or a Loop export."),
    InterchangeCommands.exporting(
      .links, noun: .link, formats: ["json", "csv", "html"],
      summary: "Export the links as JSON, CSV, or a bookmark file browsers import."),
  ]

  private static let title = Argument(name: "title")
  private static let url = Argument(name: "url")
  private static let category = Option(
    name: "category", valueName: "NAME", summary: "the category's name")
  private static let memo = Option(name: "memo", valueName: "TEXT", summary: "a note")

  /// `link add <title> <url> [--category NAME] [--memo TEXT]`:
  /// ``LinkList/LinkList/Action/addLinkSubmitted(_:)``, answered by the saved link with the
  /// digits its ref needs.
  static let add = Command(
    noun: .link, verb: "add", arguments: [title, url], options: [category, memo],
    summary: "Save a link."
  ) { session, input throws(CommandError) in
    let categoryID = try await session.categoryID(named: input[category])
    let draft = LinkDraft(
      title: input[title], url: input[url], categoryID: categoryID, memo: input[memo] ?? "")
    let added = try await session.send(.links(.addLinkSubmitted(draft))) {
      if case .links(.addLinkResponse(.success(let saved))) = $0 { saved } else { nil }
    }
    guard let added else { return }
    session.console.print("Added link '\(added.link.title)' (\(added.ref)).")
  }

  private static let listCategory = Option(
    name: "category", valueName: "NAME", summary: "only this category's links")

  /// `link list [--category NAME]`: the categories' `categorySelected`, then a page at a time.
  ///
  /// `categorySelected` shows "All links" filtered by the category (or not) and loads its first
  /// page; each page is printed as it arrives, while
  /// ``LinkList/AllLinks/Action/nextPageRequested`` loads the next, until the last (or
  /// `--limit`). The refs are as long as every link's need.
  static let list = Command(
    noun: .link, verb: "list", options: [listCategory] + Option.listing,
    summary: "List the links, newest first."
  ) { session, input throws(CommandError) in
    let categoryID = try await session.categoryID(named: input[listCategory])
    var window = try RowWindow(input)
    try await session.send(.links(.categories(.categorySelected(categoryID))))
    var printer = LinkRowPrinter<AllLinks.Row>(
      session: session, wantsJSON: input.wantsJSON,
      extra: [("CATEGORY", { $0.categoryName ?? "" })])
    var seen = 0
    while true {
      let screen = session.store.state.links.all
      // NB: the rows this page added; those of earlier pages may have been dropped.
      let rows = window.take(screen.rows.elements.dropFirst(seen - screen.droppedRowCount))
      seen = screen.droppedRowCount + screen.rows.count
      // NB: the next page is asked for before this one prints: the client reads it off the main
      // actor while the page prints.
      let next =
        !window.isFull && screen.nextPage != nil
        ? session.store.send(.links(.all(.nextPageRequested))) : nil
      do throws(CommandError) {
        try await printer.print(rows)
      } catch {
        next?.cancel()
        throw error
      }
      guard let next else { break }
      try await session.finish(next)
    }
    printer.finish(
      empty: seen > 0
        ? nil
        : categoryID == nil
          ? "No links yet: add one with 'link add <title> <url>'." : "No links in this category.")
  }

  private static let query = Argument(name: "query")

  /// `link search <query>`: the search screen's `searchSubmitted`, then its rows.
  static let search = Command(
    noun: .link, verb: "search", arguments: [query], options: Option.listing,
    summary: "Find the links whose title contains the query."
  ) { session, input throws(CommandError) in
    let window = try RowWindow(input)
    try await session.send(.links(.search(.searchSubmitted(input[query]))))
    try await session.printLinkRows(
      session.store.state.links.search.rows.elements, input, window: window,
      empty: "No link title contains '\(input[query])'.")
  }

  /// `link recent`: ``LinkList/LinkList/Action/screenSelected(_:)`` with the recent screen.
  static let recent = Command(
    noun: .link, verb: "recent", options: Option.listing,
    summary: "List the links opened most recently."
  ) { session, input throws(CommandError) in
    let window = try RowWindow(input)
    try await session.send(.links(.screenSelected(.recent)))
    let environment = session.environment
    try await session.printLinkRows(
      session.store.state.links.recent.rows.elements, input, window: window,
      empty: "No link opened yet: 'link open <ref>' opens one.",
      extra: [("VIEWED", { environment.dateTime($0.lastViewedDate) })])
  }

  /// `link show <ref>`: ``LinkList/LinkLookup/Action/previewSubmitted(_:)`` (no view is
  /// recorded), then the link and its comments.
  static let show = Command(
    noun: .link, verb: "show", arguments: [.ref], options: [.format],
    summary: "Show a link with its comments."
  ) { session, input throws(CommandError) in
    let link = try await session.link(input[.ref])
    guard let (shown, comments) = try await session.preview(link) else { return }
    try await session.printListing(
      input, json: LinkDetailOutput(link: shown, comments: comments)
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
      let opened = session.store.state.links.detail?.link ?? link
      return "Opened '\(opened.title)': \(opened.url.absoluteString)"
    })

  /// `link fav <ref>`.
  static let favorite = Command(
    noun: .link, verb: "fav", arguments: [.ref], summary: "Mark a link as a favorite."
  ) { session, input throws(CommandError) in
    try await session.setFavorite(input[.ref], true)
  }

  /// `link unfav <ref>`.
  static let unfavorite = Command(
    noun: .link, verb: "unfav", arguments: [.ref], summary: "Unmark a favorite."
  ) { session, input throws(CommandError) in
    try await session.setFavorite(input[.ref], false)
  }

  private static let newTitle = Option(name: "title", valueName: "TITLE", summary: "the new title")
  private static let newURL = Option(name: "url", valueName: "URL", summary: "the new address")
  private static let noCategory = Option(
    name: "no-category", summary: "take the link out of its category")
  private static let newMemo = Option(
    name: "memo", valueName: "TEXT", summary: "the new note (empty removes it)")

  /// `link update <ref> [--title T] [--url U] [--category NAME | --no-category] [--memo M]`:
  /// the link's values as a draft, changed by the options, then
  /// ``LinkList/LinkList/Action/updateLinkSubmitted(_:_:)``.
  static let update = Command(
    noun: .link, verb: "update", arguments: [.ref],
    options: [newTitle, newURL, category, noCategory, newMemo], summary: "Change a link."
  ) { session, input throws(CommandError) in
    guard !input.hasNoOptions else {
      throw input.command.usageError("there is nothing to change: give at least one option")
    }
    if input[category] != nil, input.has(noCategory) {
      throw input.command.usageError("give either --category or --no-category, not both")
    }
    let link = try await session.link(input[.ref])
    var draft = LinkDraft(link)
    if let title = input[newTitle] { draft.title = title }
    if let url = input[newURL] { draft.url = url }
    if let memo = input[newMemo] { draft.memo = memo }
    if let name = input[category] {
      draft.categoryID = try await session.category(named: name).id
    }
    if input.has(noCategory) { draft.categoryID = nil }
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

  private static let text = Argument(name: "text")

  /// `link comment <ref> <text>`: the link previewed into the detail, then the detail's
  /// `addCommentSubmitted`.
  static let comment = Command(
    noun: .link, verb: "comment", arguments: [.ref, text], summary: "Comment on a link."
  ) { session, input throws(CommandError) in
    let link = try await session.link(input[.ref])
    _ = try await session.preview(link)
    try await session.send(.links(.detail(.presented(.addCommentSubmitted(input[text])))))
    session.console.print("Commented on '\(link.title)'.")
  }
}

// MARK: - Helpers

// NB: every call the commands make to the links' lookups (``LinkList/LinkLookup``) is in these
// helpers.
extension Session {
  /// The link `ref` names, looked up through
  /// ``LinkList/LinkLookup/Action/refSubmitted(_:)``.
  fileprivate func link(_ ref: String) async throws(CommandError) -> Link {
    _ = try Ref.matches(ref, in: [], listing: "link list")
    try await send(.links(.lookup(.refSubmitted(ref))))
    return try Ref.resolve(
      ref, in: store.state.links.lookup.refMatches, id: \.id.rawValue, label: \.title, noun: "link",
      listing: "link list")
  }

  /// The link previewed into the detail with
  /// ``LinkList/LinkLookup/Action/previewSubmitted(_:)`` (no view is recorded): the link
  /// as shown, and its comments.
  fileprivate func preview(_ link: Link) async throws(CommandError) -> (Link, [Comment])? {
    try await send(.links(.lookup(.previewSubmitted(link.id))))
    guard let detail = store.state.links.detail, let shown = detail.link else { return nil }
    return (shown, detail.comments.elements)
  }

  /// The shortest ref (of at least ``Ref/minimumLength`` digits) that names only this link
  /// among every stored one, from ``LinkList/LinkLookup/Action/refLengthRequested(_:)``: one
  /// lookup of the link's neighbours in the id index.
  fileprivate func ref(of id: Link.ID) async throws(CommandError) -> String {
    Ref.short(id.rawValue, length: try await refLength(of: id))
  }

  /// How many digits the refs of `id` (or, `nil`, of every link) need: at least
  /// ``Ref/minimumLength``.
  fileprivate func refLength(of id: Link.ID?) async throws(CommandError) -> Int {
    let length = try await send(.links(.lookup(.refLengthRequested(id)))) {
      if case .links(.lookup(.refLengthResponse(.success(let length)))) = $0 { length } else { nil }
    }
    return min(32, max(Ref.minimumLength, length ?? 32))
  }

  /// `link fav <ref>`, `link unfav <ref>`: the link previewed into the detail, then the
  /// detail's `favoriteSubmitted` when it changes anything.
  fileprivate func setFavorite(_ ref: String, _ isFavorite: Bool) async throws(CommandError) {
    let link = try await self.link(ref)
    guard let (shown, _) = try await preview(link) else { return }
    guard shown.isFavorite != isFavorite else {
      console.print(
        isFavorite
          ? "'\(shown.title)' is a favorite already." : "'\(shown.title)' is not a favorite.")
      return
    }
    try await send(.links(.detail(.presented(.favoriteSubmitted))))
    console.print(
      isFavorite
        ? "'\(shown.title)' is a favorite now." : "'\(shown.title)' is no longer a favorite.")
  }

  /// Prints a screen's rows in `window`: as JSON when asked, otherwise as
  /// ``LinkRenderer/rows(_:empty:extra:)`` (each ref as long as the whole screen needs).
  fileprivate func printLinkRows<Row: LinkRowItem & Encodable>(
    _ rows: [Row], _ input: Invocation, window: RowWindow, empty: String,
    extra: [(header: String, value: (Row) -> String)] = []
  ) async throws(CommandError) {
    try await printListing(input, json: window.apply(to: rows)) {
      guard !rows.isEmpty else { return [empty] }
      let length = Ref.length(for: rows.map(\.id.rawValue))
      return LinkRenderer(environment: environment, style: style)
        .rows(window.apply(to: rows), refLength: length, extra: extra)
    }
  }

  /// The id of the category named `name`, or `nil` when no name is given.
  ///
  /// NB: an `if`, not a generic `async` map over the optional: a nonisolated async function
  /// called from the main actor hops to the global executor and back, which cost a `link add`
  /// a third of its time even when no category was given.
  fileprivate func categoryID(named name: String?) async throws(CommandError) -> Category.ID? {
    guard let name else { return nil }
    return try await category(named: name).id
  }

  /// The name of a link's category, from the categories (loaded for it).
  fileprivate func categoryName(of link: Link) async throws(CommandError) -> String? {
    guard let id = link.categoryID else { return nil }
    try await reload(.category)
    return store.state.links.categories.rows[id: id]?.category.name
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
  let wantsJSON: Bool
  let extra: [(header: String, value: (Row) -> String)]
  private var table: PagedTable?
  private var refLength: Int?
  private var json: JSONArrayPrinter?

  /// A printer of rows on `session`'s console, as JSON when `wantsJSON`, with `extra` columns
  /// after the ref, the star and the title.
  init(session: Session, wantsJSON: Bool, extra: [(header: String, value: (Row) -> String)]) {
    self.session = session
    self.wantsJSON = wantsJSON
    self.extra = extra
  }

  /// Prints a page of rows (nothing for none).
  mutating func print(_ rows: some Collection<Row>) async throws(CommandError) {
    guard !rows.isEmpty else { return }
    if wantsJSON {
      var printer = json ?? JSONArrayPrinter(console: session.console)
      try printer.print(Array(rows))
      json = printer
      return
    }
    // NB: asked once, before the first row: a ref must name its link among every link, not
    // only among those printed so far.
    let length: Int
    if let refLength {
      length = refLength
    } else {
      length = try await session.refLength(of: nil)
      refLength = length
    }
    let renderer = LinkRenderer(environment: session.environment, style: session.style)
    var table =
      self.table ?? PagedTable(columns: renderer.columns(extra: extra), style: session.style)
    let text = table.text(rows.map { renderer.cells($0, refLength: length, extra: extra) })
    self.table = table
    session.console.writeOutput(text)
  }

  /// Ends the listing: closes the JSON array, or prints `empty` when no row was printed.
  func finish(empty: String?) {
    if wantsJSON {
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
