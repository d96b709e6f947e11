import AppFeature
import Foundation
import LinkClient
import LinkList

import struct LinkClient.Comment

/// The `link` commands: a ref is looked up through the app (`linkRefEntered`), never by loading
/// the links; each command then sends the LinkList feature's action and prints the state.
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
  /// ``LinkList/LinkList/Action/addLinkSubmitted(_:)``.
  static let add = Command(
    noun: .link, verb: "add", arguments: [title, url], options: [category, memo],
    summary: "Save a link."
  ) { session, input throws(CommandError) in
    let categoryID = try await session.categoryID(named: input[category])
    let draft = LinkDraft(
      title: input[title], url: input[url], categoryID: categoryID, memo: input[memo] ?? "")
    try await session.send(.links(.addLinkSubmitted(draft)))
    guard let link = session.savedLink else { return }
    session.console.print(
      "Added link '\(link.title)' (\(try await session.uniqueRef(of: link.id))).")
  }

  private static let listCategory = Option(
    name: "category", valueName: "NAME", summary: "only this category's links")

  /// `link list [--category NAME]`: the categories' `categorySelected`, which shows "All
  /// links" filtered by it (or not), then the rows.
  static let list = Command(
    noun: .link, verb: "list", options: [listCategory, .format],
    summary: "List the links, newest first."
  ) { session, input throws(CommandError) in
    let categoryID = try await session.categoryID(named: input[listCategory])
    try await session.send(.links(.categories(.categorySelected(categoryID))))
    try await session.printLinkRows(
      session.store.state.links.all.rows.elements, input,
      empty: categoryID == nil
        ? "No links yet: add one with 'link add <title> <url>'." : "No links in this category.",
      extra: [("CATEGORY", { $0.categoryName ?? "" })])
  }

  private static let query = Argument(name: "query")

  /// `link search <query>`: the search screen's `searchSubmitted`, then its rows.
  static let search = Command(
    noun: .link, verb: "search", arguments: [query], options: [.format],
    summary: "Find the links whose title contains the query."
  ) { session, input throws(CommandError) in
    try await session.send(.links(.search(.searchSubmitted(input[query]))))
    try await session.printLinkRows(
      session.store.state.links.search.rows.elements, input,
      empty: "No link title contains '\(input[query])'.")
  }

  /// `link recent`: ``LinkList/LinkList/Action/screenSelected(_:)`` with the recent screen.
  static let recent = Command(
    noun: .link, verb: "recent", options: [.format],
    summary: "List the links opened most recently."
  ) { session, input throws(CommandError) in
    try await session.send(.links(.screenSelected(.recent)))
    let environment = session.environment
    try await session.printLinkRows(
      session.store.state.links.recent.rows.elements, input,
      empty: "No link opened yet: 'link open <ref>' opens one.",
      extra: [("VIEWED", { environment.dateTime($0.lastViewedDate) })])
  }

  /// `link show <ref>`: ``AppFeature/AppFeature/Action/linkPreviewRequested(_:)`` (no view is
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
      let ref = try await session.uniqueRef(of: shown.id)
      return LinkRenderer(environment: session.environment, style: session.style)
        .detail(shown, comments: comments, ref: ref, categoryName: categoryName)
    }
  }

  /// `link open <ref>`: ``LinkList/LinkList/Action/linkOpened(_:)``, which records the view.
  static let open = onLink(
    "open", summary: "Open a link: print its address and mark it viewed.",
    action: { .linkOpened($0.id) },
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
    try await session.send(.links(.updateLinkSubmitted(link.id, draft)))
    let saved = session.savedLink ?? link
    session.console.print(
      "Updated '\(saved.title)' (\(try await session.uniqueRef(of: saved.id))).")
  }

  /// `link rm <ref>`: ``LinkList/LinkList/Action/deleteLinkTapped(_:)``.
  static let remove = onLink(
    "rm", summary: "Delete a link and its comments.", action: { .deleteLinkTapped($0.id) },
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

// NB: every call the commands make to the app's REPL-only link lookups (`linkRefEntered`,
// `linkPreviewRequested`, `savedLink`, `linkRefMatches`) is in these helpers.
extension Session {
  /// The link `ref` names, looked up through
  /// ``AppFeature/AppFeature/Action/linkRefEntered(_:)``.
  fileprivate func link(_ ref: String) async throws(CommandError) -> Link {
    _ = try Ref.matches(ref, in: [], listing: "link list")
    try await send(.linkRefEntered(ref))
    return try Ref.resolve(
      ref, in: store.state.linkRefMatches, id: \.id.rawValue, label: \.title, noun: "link",
      listing: "link list")
  }

  /// The link a command saved last (`add`, `update`).
  fileprivate var savedLink: Link? { store.state.savedLink }

  /// The link previewed into the detail with
  /// ``AppFeature/AppFeature/Action/linkPreviewRequested(_:)`` (no view is recorded): the link
  /// as shown, and its comments.
  fileprivate func preview(_ link: Link) async throws(CommandError) -> (Link, [Comment])? {
    try await send(.linkPreviewRequested(link.id))
    guard let detail = store.state.links.detail, let shown = detail.link else { return nil }
    return (shown, detail.comments.elements)
  }

  /// The shortest ref (of at least ``Ref/minimumLength`` digits) that names only this link
  /// among every stored one, found by looking up ever longer prefixes: the links are never all
  /// loaded.
  fileprivate func uniqueRef(of id: Link.ID) async throws(CommandError) -> String {
    var length = Ref.minimumLength
    while length < 32 {
      let ref = Ref.short(id.rawValue, length: length)
      try await send(.linkRefEntered(ref))
      if store.state.linkRefMatches.count <= 1 { return ref }
      length += 1
    }
    return Ref.short(id.rawValue, length: 32)
  }

  /// `link fav <ref>`, `link unfav <ref>`: the link previewed into the detail, then the
  /// detail's `favoriteTapped` when it changes anything.
  fileprivate func setFavorite(_ ref: String, _ isFavorite: Bool) async throws(CommandError) {
    let link = try await self.link(ref)
    guard let (shown, _) = try await preview(link) else { return }
    guard shown.isFavorite != isFavorite else {
      console.print(
        isFavorite
          ? "'\(shown.title)' is a favorite already." : "'\(shown.title)' is not a favorite.")
      return
    }
    try await send(.links(.detail(.presented(.favoriteTapped))))
    console.print(
      isFavorite
        ? "'\(shown.title)' is a favorite now." : "'\(shown.title)' is no longer a favorite.")
  }

  /// Prints a screen's rows: as JSON when asked, otherwise as ``LinkRenderer/rows(_:empty:extra:)``.
  fileprivate func printLinkRows<Row: LinkRowItem & Encodable>(
    _ rows: [Row], _ input: Invocation, empty: String,
    extra: [(header: String, value: (Row) -> String)] = []
  ) async throws(CommandError) {
    try await printListing(input, json: rows) {
      LinkRenderer(environment: environment, style: style).rows(rows, empty: empty, extra: extra)
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

/// What `link show --format json` prints: the link and its comments.
struct LinkDetailOutput: Encodable {
  var link: Link
  var comments: [Comment]
}
