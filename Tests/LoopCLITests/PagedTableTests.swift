import Testing

@testable import LoopCLI

@Suite struct PagedTableTests {
  /// Cells that exercise padding both ways, empty cells at the end of a line, a cell ending with
  /// spaces at the end of a line, and characters wider than a byte.
  static let cells = [
    ["3f2a", "★", "Tea  ", "", "12"],
    ["9c1", "", "café au lait", "cat", "3"],
    ["a", "", "x", "", ""],
  ]

  static func columns(styledBy style: Style?) -> [Table.Column] {
    [
      Table.Column(header: "REF", style: style.map { $0.yellow }),
      Table.Column(header: "★", style: style.map { $0.yellow }),
      Table.Column(header: "TITLE"),
      Table.Column(header: "CATEGORY"),
      Table.Column(header: "N", alignment: .right),
    ]
  }

  /// With colours off the columns have no style (the plain lines' fast path); with colours on
  /// the REF and star columns are styled.
  @Test(arguments: [false, true])
  func aPageOfColumnsPrintsAsTheWholeTableWould(coloured: Bool) {
    let style = Style(isEnabled: coloured)
    let columns = Self.columns(styledBy: coloured ? style : nil)
    var paged = PagedTable(columns: columns, style: style)
    let table = Table(columns: columns, rows: Self.cells)
    #expect(
      paged.text(cells: Self.cells.flatMap { $0 })
        == table.render(style: style).map { $0 + "\n" }.joined())
  }

  @Test func aLaterPageWithAWiderCellWidensItsColumnFromThatPageOn() {
    var paged = PagedTable(
      columns: [Table.Column(header: "A"), Table.Column(header: "B", alignment: .right)],
      style: Style(isEnabled: false))
    #expect(paged.text(cells: ["x", "1"]) == "A  B\nx  1\n")
    #expect(paged.text(cells: ["long", "22", "y", "3"]) == "long  22\ny      3\n")
  }
}
