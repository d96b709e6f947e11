import Testing

@testable import LoopCLI

@Suite struct TableWidthTests {
  @Test(arguments: [
    ("", 0), ("title 7", 7), ("★", 1), ("café", 4), ("e\u{301}", 1), ("日本", 2),
    ("a\r\nb", 3), ("a\rb", 3),
  ])
  func aCellIsAsWideAsItsCharacters(cell: String, width: Int) {
    #expect(Table.width(of: cell) == width)
    #expect(Table.width(of: cell) == cell.count)
  }

  @Test func aPagedTablePadsANonASCIICellByItsCharacters() {
    var table = PagedTable(
      columns: [Table.Column(header: "A"), Table.Column(header: "B")],
      style: Style(isEnabled: false))
    #expect(table.text(cells: ["café", "x", "tea", "y"]) == "A     B\ncafé  x\ntea   y\n")
  }
}
