import LinkClient
import LinkList

import struct LinkClient.Comment

/// The links as text: a screen's rows as a table, and one link with its comments.
struct LinkRenderer {
  var environment: AppEnvironment
  var style: Style

  /// A screen's rows: `empty` when there are none, otherwise a table of each row's ref,
  /// favorite star and title, then the `extra` columns.
  func rows<Row: LinkRowItem>(
    _ rows: [Row], empty: String, extra: [(header: String, value: (Row) -> String)] = []
  ) -> [String] {
    guard !rows.isEmpty else { return [empty] }
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
    return table.render(style: style)
  }

  /// One link: its title, ref and star, address, category, memo, dates, then its comments.
  func detail(
    _ link: Link, comments: [Comment], ref: String, categoryName: String?
  ) -> [String] {
    var lines = [
      "\(style.bold(link.title)) \(style.yellow(ref))\(link.isFavorite ? " ★" : "")",
      link.url.absoluteString,
    ]
    if let categoryName { lines.append("category  \(categoryName)") }
    if let memo = link.memo { lines.append("memo      \(memo)") }
    lines.append("added     \(environment.dateTime(link.createdAt))")
    lines.append("viewed    \(link.lastViewedDate.map(environment.dateTime) ?? "never")")
    if comments.isEmpty {
      lines.append("No comments.")
    } else {
      lines.append(comments.count == 1 ? "1 comment:" : "\(comments.count) comments:")
      for comment in comments {
        lines.append("  \(style.dim(environment.dateTime(comment.createdAt)))  \(comment.text)")
      }
    }
    return lines
  }
}
