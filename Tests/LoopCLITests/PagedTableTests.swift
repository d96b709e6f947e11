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

  @Test func aPageOfUnstyledColumnsPrintsAsTheWholeTableWould() {
    let style = Style(isEnabled: false)
    var paged = PagedTable(columns: Self.columns(styledBy: nil), style: style)
    let table = Table(columns: Self.columns(styledBy: nil), rows: Self.cells)
    #expect(
      paged.text(cells: Self.cells.flatMap { $0 })
        == table.render(style: style).map { $0 + "\n" }.joined())
  }

  @Test func aPageOfStyledColumnsPrintsAsTheWholeTableWould() {
    let style = Style(isEnabled: true)
    var paged = PagedTable(columns: Self.columns(styledBy: style), style: style)
    let table = Table(columns: Self.columns(styledBy: style), rows: Self.cells)
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
