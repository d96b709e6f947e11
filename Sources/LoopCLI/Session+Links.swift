import AppFeature
import Categories
import CategoryClient
import Foundation
import LinkClient
import LinkList

import struct LinkClient.Comment

// The `link` commands: a ref is looked up through the app (`LinkLookup`), never by loading
// the links; each command then sends the LinkList feature's action and prints the state.
extension Session {
  /// `link add <title> <url> [--category NAME] [--memo TEXT]`:
  /// ``LinkList/LinkList/Action/addLinkSubmitted(_:)``.
  func linkAdd(_ invocation: Invocation) async throws(CommandError) {
    let categoryID = try await invocation[option: "category"].asyncMap(category(named:))?.id
    let draft = LinkDraft(
      title: invocation[argument: "title"] ?? "", url: invocation[argument: "url"] ?? "",
      categoryID: categoryID, memo: invocation[option: "memo"] ?? "")
    try await send(.links(.addLinkSubmitted(draft)))
    guard let link = store.state.links.savedLink else { return }
    console.print("Added link '\(link.title)' (\(try await uniqueRef(of: link.id))).")
  }

  /// `link list [--category NAME]`: the categories' `categorySelected`, which shows "All
  /// links" filtered by it (or not), then the rows.
  func linkList(_ invocation: Invocation) async throws(CommandError) {
    let categoryID = try await invocation[option: "category"].asyncMap(category(named:))?.id
    try await send(.links(.categories(.categorySelected(categoryID))))
    try printLinkRows(
      store.state.links.all.rows.elements, invocation,
      empty: categoryID == nil
        ? "No links yet: add one with 'link add <title> <url>'." : "No links in this category.",
      extra: [("CATEGORY", { $0.categoryName ?? "" })])
  }

  /// `link search <query>`: the search screen's `searchSubmitted`, then its rows.
  func linkSearch(_ invocation: Invocation) async throws(CommandError) {
    let query = invocation[argument: "query"] ?? ""
    try await send(.links(.search(.searchSubmitted(query))))
    try printLinkRows(
      store.state.links.search.rows.elements, invocation,
      empty: "No link title contains '\(query)'.")
  }

  /// `link recent`: ``LinkList/LinkList/Action/screenSelected(_:)`` with the recent screen.
  func linkRecent(_ invocation: Invocation) async throws(CommandError) {
    try await send(.links(.screenSelected(.recent)))
    try printLinkRows(
      store.state.links.recent.rows.elements, invocation,
      empty: "No link opened yet: 'link open <ref>' opens one.",
      extra: [("VIEWED", { self.environment.dateTime($0.lastViewedDate) })])
  }

  /// Prints a screen's rows: as JSON when asked, `empty` when there are none, otherwise a table
  /// of each row's ref, favorite star and title, then the `extra` columns.
  private func printLinkRows<Row: LinkRowItem & Encodable>(
    _ rows: [Row], _ invocation: Invocation, empty: String,
    extra: [(header: String, value: (Row) -> String)] = []
  ) throws(CommandError) {
    if invocation.wantsJSON {
      try printJSON(rows)
      return
    }
    guard !rows.isEmpty else {
      console.print(empty)
      return
    }
    let length = Ref.length(for: rows.map(\.id.rawValue))
    var table = Table(
      columns: [
        Table.Column(header: "REF", style: style.yellow),
        Table.Column(header: "★", style: style.yellow),
        Table.Column(header: "TITLE"),
      ] + extra.map { Table.Column(header: $0.header) })
    for row in rows {
      table.rows.append(
        [Ref.short(row.id.rawValue, length: length), row.isFavorite ? "★" : "", row.title]
          + extra.map { $0.value(row) })
    }
    for line in table.render(style: style) { console.print(line) }
  }

  /// `link show <ref>`: ``LinkList/LinkLookup/Action/previewRequested(_:)`` (no view is
  /// recorded), then the link and its comments.
  func linkShow(_ invocation: Invocation) async throws(CommandError) {
    let link = try await self.link(invocation)
    try await send(.links(.lookup(.previewRequested(link.id))))
    guard let detail = store.state.links.detail, let shown = detail.link else { return }
    if invocation.wantsJSON {
      try printJSON(LinkDetailOutput(link: shown, comments: detail.comments.elements))
      return
    }
    let categoryName = try await categoryName(of: shown)
    let ref = try await uniqueRef(of: shown.id)
    var lines = [
      "\(style.bold(shown.title)) \(style.yellow(ref))\(shown.isFavorite ? " ★" : "")",
      shown.url.absoluteString,
    ]
    if let categoryName { lines.append("category  \(categoryName)") }
    if let memo = shown.memo { lines.append("memo      \(memo)") }
    lines.append("added     \(environment.dateTime(shown.createdAt))")
    lines.append("viewed    \(shown.lastViewedDate.map(environment.dateTime) ?? "never")")
    if detail.comments.isEmpty {
      lines.append("No comments.")
    } else {
      lines.append(detail.comments.count == 1 ? "1 comment:" : "\(detail.comments.count) comments:")
      for comment in detail.comments {
        lines.append("  \(style.dim(environment.dateTime(comment.createdAt)))  \(comment.text)")
      }
    }
    for line in lines { console.print(line) }
  }

  /// `link open <ref>`: ``LinkList/LinkList/Action/linkOpened(_:)``, which records the view.
  func linkOpen(_ invocation: Invocation) async throws(CommandError) {
    let link = try await self.link(invocation)
    try await send(.links(.linkOpened(link.id)))
    let opened = store.state.links.detail?.link ?? link
    console.print("Opened '\(opened.title)': \(opened.url.absoluteString)")
  }

  /// `link fav <ref>`, `link unfav <ref>`: the link previewed into the detail, then the
  /// detail's `favoriteTapped` when it changes anything.
  func linkFavorite(_ invocation: Invocation, _ isFavorite: Bool) async throws(CommandError) {
    let link = try await self.link(invocation)
    try await send(.links(.lookup(.previewRequested(link.id))))
    guard let shown = store.state.links.detail?.link else { return }
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

  /// `link update <ref> [--title T] [--url U] [--category NAME | --no-category] [--memo M]`:
  /// the link's values as a draft, changed by the options, then
  /// ``LinkList/LinkList/Action/updateLinkSubmitted(_:_:)``.
  func linkUpdate(_ invocation: Invocation) async throws(CommandError) {
    guard !invocation.values.isEmpty || !invocation.flags.isEmpty else {
      throw invocation.spec.usageError("there is nothing to change: give at least one option")
    }
    if invocation[option: "category"] != nil, invocation.has("no-category") {
      throw invocation.spec.usageError("give either --category or --no-category, not both")
    }
    let link = try await self.link(invocation)
    var draft = LinkDraft(link)
    if let title = invocation[option: "title"] { draft.title = title }
    if let url = invocation[option: "url"] { draft.url = url }
    if let memo = invocation[option: "memo"] { draft.memo = memo }
    if let name = invocation[option: "category"] {
      draft.categoryID = try await category(named: name).id
    }
    if invocation.has("no-category") { draft.categoryID = nil }
    try await send(.links(.updateLinkSubmitted(link.id, draft)))
    let saved = store.state.links.savedLink ?? link
    console.print("Updated '\(saved.title)' (\(try await uniqueRef(of: saved.id))).")
  }

  /// `link rm <ref>`: ``LinkList/LinkList/Action/deleteLinkTapped(_:)``.
  func linkRemove(_ invocation: Invocation) async throws(CommandError) {
    let link = try await self.link(invocation)
    try await send(.links(.deleteLinkTapped(link.id)))
    console.print("Deleted '\(link.title)'.")
  }

  /// `link comment <ref> <text>`: the link previewed into the detail, then the detail's
  /// `addCommentSubmitted`.
  func linkComment(_ invocation: Invocation) async throws(CommandError) {
    let link = try await self.link(invocation)
    try await send(.links(.lookup(.previewRequested(link.id))))
    try await send(
      .links(.detail(.presented(.addCommentSubmitted(invocation[argument: "text"] ?? "")))))
    console.print("Commented on '\(link.title)'.")
  }

  // MARK: - Helpers

  /// The link the command's `<ref>` names, looked up through
  /// ``LinkList/LinkLookup/Action/refEntered(_:)``.
  private func link(_ invocation: Invocation) async throws(CommandError) -> Link {
    let ref = invocation[argument: "ref"] ?? ""
    _ = try Ref.matches(ref, in: [], listing: "link list")
    try await send(.links(.lookup(.refEntered(ref))))
    return try Ref.resolve(
      ref, in: store.state.links.lookup.refMatches, id: \.id.rawValue, label: \.title, noun: "link",
      listing: "link list")
  }

  /// The shortest ref (of at least ``Ref/minimumLength`` digits) that names only this link
  /// among every stored one, found by looking up ever longer prefixes: the links are never all
  /// loaded.
  private func uniqueRef(of id: Link.ID) async throws(CommandError) -> String {
    var length = Ref.minimumLength
    while length < 32 {
      let ref = Ref.short(id.rawValue, length: length)
      try await send(.links(.lookup(.refEntered(ref))))
      if store.state.links.lookup.refMatches.count <= 1 { return ref }
      length += 1
    }
    return Ref.short(id.rawValue, length: 32)
  }

  /// The name of a link's category, from the categories (loaded for it).
  private func categoryName(of link: Link) async throws(CommandError) -> String? {
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

extension Optional {
  /// The value transformed by an asynchronous function, or `nil`.
  func asyncMap<T>(
    _ transform: (Wrapped) async throws(CommandError) -> T
  ) async throws(CommandError) -> T? {
    guard let value = self else { return nil }
    return try await transform(value)
  }
}
