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

/// Every listing a person reads at a terminal fits its width: titles, names and memos are cut
/// with `…`, never wrapped; off a terminal nothing is cut.
@MainActor
@Suite struct ListingWidthTests {
  nonisolated static let long =
    "A title that is much longer than any terminal this listing could be shown in"

  static let setup = [
    "category add '\(long)'",
    "link add '\(long)' https://example.com/long --category '\(long)'",
    "link open long",
    "habit add '\(long)'",
    "ledger add expense 12.50 '\(long)' --category 'Food and drinks with friends and family'",
  ]

  nonisolated static let listings = [
    "link list", "link recent", "link search title", "category list", "habit list", "ledger list",
    "ledger home", "link list --category '\(long)'",
  ]

  func output(width: Int?, usesColor: Bool = false, _ command: String) async throws -> String {
    let output = Captured()
    var configuration = Session.Configuration(mode: .interactive, usesColor: usesColor)
    configuration.width = width
    let session = Session(
      environment: try transcriptEnvironment(),
      console: Console(writeOutput: { output.append($0) }, writeError: { output.append($0) }),
      configuration: configuration)
    for line in Self.setup { _ = await session.execute(line) }
    let before = output.value.count
    _ = await session.execute(command)
    return String(output.value.dropFirst(before))
  }

  @Test(arguments: listings)
  func aListingAtATerminalFitsItsWidthCuttingWithAnEllipsis(command: String) async throws {
    let text = try await output(width: 50, command)
    let lines = text.split(separator: "\n")
    #expect(!lines.isEmpty)
    for line in lines {
      #expect(line.count <= 50, "'\(command)' printed \(line.count) columns: \(line)")
    }
    #expect(text.contains("…"))
    #expect(!text.contains(Self.long))
  }

  @Test(arguments: listings)
  func aListingOffATerminalIsNeitherCutNorColoured(command: String) async throws {
    let text = try await output(width: nil, command)
    #expect(text.contains(Self.long))
    #expect(!text.contains("…"))
    #expect(!text.contains("\u{1B}["))
  }

  @Test func aNarrowedColumnLeavesTheOthersWhole() {
    let columns = [
      Table.Column(header: "REF"), Table.Column(header: "NAME", isCut: true),
      Table.Column(header: "MEMO", isCut: true),
    ]
    #expect(Table.fitting([7, 30, 10], columns, into: 40) == [7, 19, 10])
    #expect(Table.fitting([7, 30, 10], columns, into: 25) == [7, 7, 7])
    #expect(Table.fitting([7, 30, 10], columns, into: nil) == [7, 30, 10])
    #expect(Table.cut("Read 20 pages", to: 6) == "Read …")
    #expect(Table.cut("Read", to: 6) == "Read")
  }
}
