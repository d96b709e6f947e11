import Foundation
import Interchange
import LinkClient
import Loop
import TestSupport
import Testing

@Suite struct LinkCSVTests {
  @Test func readsLinksAndRejectsRecordsThatDoNotFit() throws {
    let (links, rejected) = try LinkCSV.parse(linksCSV, file: "links.csv")
    #expect(
      links == [
        ImportedLink(
          line: 2, title: "Swift, the language", url: "https://swift.org", category: "Dev",
          memo: "Two\nlines", createdAt: iso("2025-03-15T01:00:00Z")),
        ImportedLink(line: 4, title: "Plain", url: "https://plain.example"),
        ImportedLink(
          line: 5, title: "He said \"hi\"", url: "https://example.com/hi?a=1&b=2",
          category: "Dev, Tools", createdAt: iso("2025-03-15")),
        ImportedLink(line: 6, title: "Broken", url: "not a url"),
        ImportedLink(
          line: 10, title: "Café ☕", url: "https://cafe.example/menu", category: "dev"),
      ])
    #expect(
      rejected == [
        ImportRejection(line: 7, reason: "it has 2 fields, but the header has 5"),
        ImportRejection(
          line: 8,
          reason: "'yesterday' is not a date: write it as 2025-03-15 or 2025-03-15T10:00:00Z"),
      ])
  }

  @Test func readsColumnsInAnyOrderAndCase() throws {
    let (links, rejected) = try LinkCSV.parse(
      " URL ,Title\nhttps://a.example,A\n", file: "links.csv")
    #expect(links == [ImportedLink(line: 2, title: "A", url: "https://a.example")])
    #expect(rejected == [])
  }

  static let badHeaders: [(String, String)] = [
    (
      "title,link\n",
      "it has the column 'link'; a link CSV has the columns title, url, category, memo, created"
    ),
    (
      "title,memo\n",
      "it lacks the column 'url'; a link CSV has the columns title, url, category, memo, created"
    ),
    ("title,url,URL\n", "it has the column 'URL' twice"),
    (
      "<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p>\n",
      "it has the column '<!DOCTYPE NETSCAPE-Bookmark-file-1>'; a link CSV has the columns "
        + "title, url, category, memo, created"
    ),
  ]

  @Test(arguments: badHeaders)
  func aHeaderWithoutTitleAndURLOrWithUnknownColumnsIsRefused(_ text: String, _ reason: String) {
    #expect(throws: InterchangeError.invalidHeader(file: "links.csv", reason: reason)) {
      try LinkCSV.parse(text, file: "links.csv")
    }
  }

  @Test func writesEveryLinkWithItsCategoryName() {
    let dev = Category(id: Category.ID(UUID(counting: 9)), name: "Dev, Tools", createdAt: now)
    let archive = LinkArchive(
      categories: [dev],
      links: [
        Link(
          id: Link.ID(UUID(counting: 1)), title: "Swift", url: url("https://swift.org"),
          categoryID: dev.id, memo: "Two\nlines", createdAt: iso("2025-03-15T01:00:00.5Z")),
        Link(
          id: Link.ID(UUID(counting: 2)), title: "Say \"hi\"", url: url("https://hi.example"),
          createdAt: now),
      ])
    #expect(
      LinkCSV.write(archive) == #"""
        title,url,category,memo,created
        Swift,https://swift.org,"Dev, Tools","Two
        lines",2025-03-15T01:00:00.5Z
        "Say ""hi""",https://hi.example,,,2025-03-15T09:00:00Z

        """#)
  }
}
