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

  /// A column: its header, alignment and how its cells are styled.
  struct Column {
    var header: String
    var alignment: Alignment = .left
    var style: (String) -> String = { $0 }
  }

  var columns: [Column]
  var rows: [[String]] = []

  /// The table's lines, without trailing spaces.
  func render(style: Style) -> [String] {
    let widths = columns.indices.map { index in
      ([columns[index].header] + rows.map { $0[index] }).map(\.count).max() ?? 0
    }
    func line(_ cells: [String], header: Bool) -> String {
      var parts: [String] = []
      for (index, cell) in cells.enumerated() {
        let padding = String(repeating: " ", count: widths[index] - cell.count)
        let isLast = index == cells.count - 1
        let styled = header ? style.bold(cell) : columns[index].style(cell)
        switch columns[index].alignment {
        case .left: parts.append(isLast ? styled : styled + padding)
        case .right: parts.append(padding + styled)
        }
      }
      var text = parts.joined(separator: "  ")
      while text.last == " " { text.removeLast() }
      return text
    }
    return [line(columns.map(\.header), header: true)] + rows.map { line($0, header: false) }
  }
}
