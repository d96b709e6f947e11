import Foundation
import LinkClient
import LinkList

import Loop
import Persistence
import struct LinkClient.Comment

/// The links as text: a screen's rows as a table, and one link with its comments.
struct LinkRenderer {
  var environment: AppEnvironment
  var style: Style

  /// A screen's rows as a table of each row's ref (of `refLength` digits), favorite star and
  /// title, then the `extra` columns.
  func rows<Row: LinkRowItem>(
    _ rows: [Row], refLength: Int, extra: [(header: String, value: (Row) -> String)] = []
  ) -> [String] {
    var table = Table(columns: columns(extra: extra))
    for row in rows { table.rows.append(cells(row, refLength: refLength, extra: extra)) }
    return table.render(style: style)
  }

  /// The columns of a table of rows: the ref, the favorite star, the title, then `extra`.
  func columns<Row>(extra: [(header: String, value: (Row) -> String)]) -> [Table.Column] {
    // NB: no style at all when colours are off (yellow would write the cell as it is): a table
    // of unstyled columns writes its lines without calling a style for each cell.
    let yellow = style.isEnabled ? style.yellow : nil
    return [
      Table.Column(header: "REF", style: yellow),
      Table.Column(header: "★", style: yellow),
      Table.Column(header: "TITLE", isCut: true),
    ] + extra.map { Table.Column(header: $0.header, isCut: true) }
  }

  /// A row's cells in a table of ``columns(extra:)``.
  func cells<Row: LinkRowItem>(
    _ row: Row, refLength: Int, extra: [(header: String, value: (Row) -> String)]
  ) -> [String] {
    var cells: [String] = []
    appendCells(row, refLength: refLength, extra: extra, to: &cells)
    return cells
  }

  /// Appends a row's cells in a table of ``columns(extra:)`` to `cells`: a page of rows makes
  /// one list of cells (``PagedTable/text(cells:)``), not an array per row.
  func appendCells<Row: LinkRowItem>(
    _ row: Row, refLength: Int, extra: [(header: String, value: (Row) -> String)],
    to cells: inout [String]
  ) {
    cells.append(Ref.short(row.id.rawValue, length: refLength))
    cells.append(row.isFavorite ? "★" : "")
    cells.append(row.title)
    for column in extra { cells.append(column.value(row)) }
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
