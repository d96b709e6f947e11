/// A text table: a header row and rows of cells, each column as wide as its widest cell.
///
/// ```
/// REF      NAME  STREAK
/// 3f2a9c1  Read       3
/// ```
///
/// Styles apply after padding, so colours never shift the columns.
struct Table {
  /// How a column's cells line up.
  enum Alignment {
    case left
    case right
  }

  /// A column: its header, alignment and how its cells are styled (`nil`: as they are), and
  /// whether its cells are cut (ending with `…`) when the table is wider than the terminal: a
  /// title, a name, a memo.
  struct Column {
    var header: String
    var alignment: Alignment = .left
    var style: ((String) -> String)? = nil
    var isCut = false
  }

  var columns: [Column]
  var rows: [[String]] = []

  /// How many columns of a terminal `cell` takes: its characters.
  ///
  /// NB: a cell of one-byte characters is as wide as its UTF-8 count, found without walking its
  /// grapheme clusters as `count` does: `link list` measures every cell of 200,000 rows.
  static func width(of cell: String) -> Int {
    cell.hasOneByteCharacters ? cell.utf8.count : cell.count
  }

  /// The table's lines, without trailing spaces; on a terminal (``Style/width``), the columns
  /// that may be cut are narrowed until the lines fit it.
  func render(style: Style) -> [String] {
    let natural = columns.indices.map { index in
      ([columns[index].header] + rows.map { $0[index] }).map(Self.width(of:)).max() ?? 0
    }
    let widths = Self.fitting(natural, columns, into: style.width)
    let fit = { (cells: [String]) in
      widths == natural
        ? cells : cells.indices.map { Self.cut(cells[$0], to: widths[$0]) }
    }
    return [Self.line(fit(columns.map(\.header)), columns, widths, header: true, style: style)]
      + rows.map { Self.line(fit($0), columns, widths, header: false, style: style) }
  }

  /// The widths of `columns` narrowed, the widest cut-able column first, until a line of them
  /// (with two spaces between) fits `limit` columns, or no cut-able column can narrow further
  /// (to one character); `widths` as they are when there is no limit or they fit.
  static func fitting(_ widths: [Int], _ columns: [Column], into limit: Int?) -> [Int] {
    guard let limit else { return widths }
    var widths = widths
    var excess = widths.reduce(2 * max(0, widths.count - 1), +) - limit
    while excess > 0 {
      guard
        let widest = columns.indices.filter({ columns[$0].isCut && widths[$0] > 1 })
          .max(by: { widths[$0] < widths[$1] })
      else { break }
      let others = columns.indices.filter { columns[$0].isCut && $0 != widest && widths[$0] > 1 }
      let next = others.map { widths[$0] }.max() ?? 1
      let step = min(excess, max(1, widths[widest] - next))
      widths[widest] -= step
      excess -= step
    }
    return widths
  }

  /// `cell`, or its start and `…` when it is wider than `width`.
  static func cut(_ cell: String, to width: Int) -> String {
    guard Self.width(of: cell) > width else { return cell }
    guard width > 1 else { return "…" }
    return String(cell.prefix(width - 1)) + "…"
  }

  /// One line of cells padded to `widths`, without trailing spaces.
  ///
  /// NB: built in one string, not joined from padded parts: a listing of 200,000 links makes a
  /// line per link.
  static func line(
    _ cells: [String], _ columns: [Column], _ widths: [Int], header: Bool, style: Style
  ) -> String {
    // The cells after the last one with text would only add trailing spaces.
    var end = cells.count
    while end > 0, cells[end - 1].isEmpty { end -= 1 }
    var text = ""
    text.reserveCapacity(widths.reduce(2 * end, +))
    for index in 0..<end {
      if index > 0 { text += "  " }
      let cell = cells[index]
      let padding = max(0, widths[index] - Self.width(of: cell))
      let styled = header ? style.bold(cell) : columns[index].style?(cell) ?? cell
      switch columns[index].alignment {
      case .left:
        text += styled
        if index < end - 1 { text.append(contentsOf: repeatElement(" ", count: padding)) }
      case .right:
        text.append(contentsOf: repeatElement(" ", count: padding))
        text += styled
      }
    }
    while text.utf8.last == UInt8(ascii: " ") { text.removeLast() }
    return text
  }
}

/// A ``Table`` printed a page of rows at a time, as the pages of a long list arrive: the header
/// with the first page, each column as wide as its widest cell so far.
///
/// A list of one page prints exactly as ``Table/render(style:)`` would. A later page with a wider
/// cell widens its column from that page on (the lines printed before stay as they are), the
/// way chunked listings of other tools do: the first row prints without waiting for the last.
///
/// NB: a page is one flat list of cells, and its text is written into one buffer of bytes, not
/// joined from a string per line and per cell: `link list` prints a line for each of 200,000
/// links, and an array per row cost more than the printing.
struct PagedTable {
  let columns: [Table.Column]
  let style: Style
  // NB: the columns' alignments and styles kept apart: a `Column` read out of `columns` for each
  // cell retained its header and its style, which cost more than writing the cell.
  private let alignments: [Table.Alignment]
  private let styles: [((String) -> String)?]
  private var widths: [Int]
  private var hasHeader = false

  /// A table of `columns`, styled with `style`.
  init(columns: [Table.Column], style: Style) {
    self.columns = columns
    self.style = style
    alignments = columns.map(\.alignment)
    styles = columns.map(\.style)
    widths = columns.map { Table.width(of: $0.header) }
  }

  /// The text of a page of rows, each line ending with a line break: the header first, on the
  /// first page.
  ///
  /// - Parameter cells: The page's cells, row after row, `columns.count` a row.
  /// - Returns: The page's lines.
  mutating func text(cells: [String]) -> String {
    let width = columns.count
    precondition(cells.count % width == 0, "a page's cells fill whole rows")
    // NB: on a terminal, the cut-able columns are narrowed so the page fits; a page that fits
    // as it is (always, off a terminal) is not copied.
    var cells = cells
    if let limit = style.width, columns.contains(where: \.isCut) {
      var natural = widths
      for index in cells.indices {
        natural[index % width] = max(natural[index % width], Table.width(of: cells[index]))
      }
      let fitting = Table.fitting(natural, columns, into: limit)
      let fitted = fitting.indices.map { max(widths[$0], fitting[$0]) }
      if fitted != natural {
        for index in cells.indices where fitted[index % width] < natural[index % width] {
          cells[index] = Table.cut(cells[index], to: fitted[index % width])
        }
      }
    }
    var counts = [Int](repeating: 0, count: cells.count)
    var column = 0
    var byteCount = 0
    for index in cells.indices {
      let count = Table.width(of: cells[index])
      counts[index] = count
      if count > widths[column] { widths[column] = count }
      byteCount &+= cells[index].utf8.count
      column = column == width - 1 ? 0 : column + 1
    }
    var bytes: [UInt8] = []
    // NB: room for every cell's bytes and padding, so the buffer grows once (styles may add more).
    bytes.reserveCapacity(
      byteCount + (cells.count / width + 1) * (widths.reduce(2 * width, +) + 1))
    if !hasHeader {
      hasHeader = true
      let headers = columns.map(\.header)
      append(headers[...], counts: headers.map(Table.width(of:))[...], header: true, to: &bytes)
    }
    if styles.allSatisfy({ $0 == nil }) {
      appendPlainLines(cells, counts: counts, byteCount: byteCount, to: &bytes)
    } else {
      var start = 0
      while start < cells.count {
        let end = start + width
        append(cells[start..<end], counts: counts[start..<end], header: false, to: &bytes)
        start = end
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The lines of `cells` (of `byteCount` bytes in all) when no column is styled, as
  /// ``append(_:counts:header:to:)`` makes them, written through a pointer into room reserved
  /// once.
  ///
  /// NB: `link list` writes four cells and their padding for each of 200,000 rows; appending to
  /// the array a cell at a time checked its uniqueness and capacity each time, which cost more
  /// than copying the bytes.
  private func appendPlainLines(
    _ cells: [String], counts: [Int], byteCount: Int, to bytes: inout [UInt8]
  ) {
    let width = columns.count
    // Each line: its cells' bytes (`byteCount` in all), at most each column's width of padding,
    // the two spaces between cells and the line break.
    let room = byteCount + cells.count / width * (widths.reduce(2 * width, +) + 1)
    let start = bytes.count
    bytes.append(contentsOf: repeatElement(0, count: room))
    var written = 0
    bytes.withUnsafeMutableBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return }
      var out = base + start
      var first = 0
      while first < cells.count {
        // The cells after the last one with text would only add trailing spaces.
        var end = first + width
        while end > first, cells[end - 1].isEmpty { end -= 1 }
        let lineStart = out
        for position in first..<end {
          let index = position - first
          if index > 0 {
            out[0] = UInt8(ascii: " ")
            out[1] = UInt8(ascii: " ")
            out += 2
          }
          let padding = max(0, widths[index] - counts[position])
          if alignments[index] == .right { out = Self.writeSpaces(padding, at: out) }
          out = Self.writeUTF8(cells[position], at: out)
          if alignments[index] == .left, position < end - 1 {
            out = Self.writeSpaces(padding, at: out)
          }
        }
        while out > lineStart, out[-1] == UInt8(ascii: " ") { out -= 1 }
        out[0] = UInt8(ascii: "\n")
        out += 1
        first += width
      }
      written = out - (base + start)
    }
    bytes.removeLast(room - written)
  }

  /// Writes the bytes of `text` at `out`; returns where they end.
  private static func writeUTF8(
    _ text: String, at out: UnsafeMutablePointer<UInt8>
  ) -> UnsafeMutablePointer<UInt8> {
    let end: UnsafeMutablePointer<UInt8>? = text.utf8.withContiguousStorageIfAvailable { source in
      guard let from = source.baseAddress else { return out }
      out.update(from: from, count: source.count)
      return out + source.count
    }
    if let end { return end }
    var next = out
    for byte in text.utf8 {
      next.pointee = byte
      next += 1
    }
    return next
  }

  /// Writes `count` spaces at `out`; returns where they end.
  private static func writeSpaces(
    _ count: Int, at out: UnsafeMutablePointer<UInt8>
  ) -> UnsafeMutablePointer<UInt8> {
    guard count > 0 else { return out }
    out.update(repeating: UInt8(ascii: " "), count: count)
    return out + count
  }

  /// One line, as ``Table/line(_:_:_:header:style:)`` makes it, and its line break.
  private func append(
    _ cells: ArraySlice<String>, counts: ArraySlice<Int>, header: Bool, to bytes: inout [UInt8]
  ) {
    let first = cells.startIndex
    var end = cells.endIndex
    while end > first, cells[end - 1].isEmpty { end -= 1 }
    let start = bytes.count
    for position in first..<end {
      let index = position - first
      if index > 0 {
        bytes.append(UInt8(ascii: " "))
        bytes.append(UInt8(ascii: " "))
      }
      let padding = max(0, widths[index] - counts[counts.startIndex + index])
      let isPadded = position < end - 1
      if alignments[index] == .right { Self.appendSpaces(padding, to: &bytes) }
      if header {
        Self.appendUTF8(style.bold(cells[position]), to: &bytes)
      } else if let style = styles[index] {
        Self.appendUTF8(style(cells[position]), to: &bytes)
      } else {
        Self.appendUTF8(cells[position], to: &bytes)
      }
      if alignments[index] == .left, isPadded { Self.appendSpaces(padding, to: &bytes) }
    }
    while bytes.count > start, bytes.last == UInt8(ascii: " ") { bytes.removeLast() }
    bytes.append(UInt8(ascii: "\n"))
  }

  /// Appends the bytes of `text` in one copy (appending its `utf8` view goes a byte at a time).
  private static func appendUTF8(_ text: String, to bytes: inout [UInt8]) {
    let copied: Void? = text.utf8.withContiguousStorageIfAvailable { bytes.append(contentsOf: $0) }
    if copied == nil { bytes.append(contentsOf: text.utf8) }
  }

  private static func appendSpaces(_ count: Int, to bytes: inout [UInt8]) {
    if count > 0 { bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: count)) }
  }
}
