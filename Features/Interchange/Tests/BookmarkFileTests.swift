import Foundation
import Interchange
import LinkClient
import Loop
import TestSupport
import Testing

@Suite struct BookmarkFileTests {
  @Test func readsAFirefoxExport() throws {
    let links = try BookmarkFile.parse(firefoxBookmarks, file: "firefox.html")
    #expect(
      links == [
        ImportedLink(
          line: 12, title: "Getting Started",
          url: "https://www.mozilla.org/en-US/firefox/central/", createdAt: unix(1_700_000_000)),
        ImportedLink(
          line: 16, title: "Search results for \"Swift\"",
          url: "https://example.com/search?q=swift&lang=en", category: "Reading & Research",
          memo: "Bob's favourite query — really", createdAt: unix(1_700_000_300)),
        ImportedLink(
          line: 20, title: "Attention Is All You Need", url: "https://arxiv.org/abs/1706.03762",
          category: "Reading & Research / Papers", createdAt: unix(1_700_000_500)),
        ImportedLink(
          line: 23, title: "Recent Tags", url: "place:parent=unfiled&sort=12",
          category: "Reading & Research", createdAt: unix(1_700_000_600)),
        ImportedLink(
          line: 28, title: "Swift Documentation",
          url: "https://developer.apple.com/documentation/swift", category: "Bookmarks Toolbar",
          createdAt: unix(1_700_000_800)),
      ])
  }

  @Test func readsAChromeExport() throws {
    let links = try BookmarkFile.parse(chromeBookmarks, file: "chrome.html")
    #expect(
      links == [
        ImportedLink(
          line: 11, title: "Swift.org - Welcome to Swift.org", url: "https://swift.org/",
          category: "Bookmarks bar", createdAt: unix(1_690_000_100)),
        ImportedLink(
          line: 14, title: "GitHub - swiftlang/swift: The Swift Programming Language",
          url: "https://github.com/swiftlang/swift", category: "Bookmarks bar / Dev",
          createdAt: unix(1_690_000_250)),
        ImportedLink(
          line: 17, title: "Tom & Jerry's \"tips\" <3", url: "https://example.com/a?x=1&y=2",
          category: "Bookmarks bar / Dev / Tools & Tips", createdAt: unix(1_690_000_280)),
        ImportedLink(
          line: 18, title: "Swift again", url: "https://swift.org/",
          category: "Bookmarks bar / Dev / Tools & Tips", createdAt: unix(1_690_000_290)),
        ImportedLink(
          line: 24, title: "Bookmarklet", url: "javascript:alert(document.title)",
          category: "Other bookmarks", createdAt: unix(1_690_000_400)),
        ImportedLink(
          line: 25, title: "", url: "https://news.ycombinator.com/", category: "Other bookmarks",
          createdAt: unix(1_690_000_500)),
      ])
  }

  @Test(arguments: [
    ("1700000000", 1_700_000_000.0), ("1700000000123", 1_700_000_000.123),
    ("1700000000123456", 1_700_000_000.123456),
  ])
  func readsAddDatesInSecondsMillisecondsOrMicroseconds(_ text: String, _ seconds: Double) throws {
    let file = "<DL><DT><A HREF=\"https://a.example\" ADD_DATE=\"\(text)\">A</A></DL>"
    let link = try #require(try BookmarkFile.parse(file, file: "a.html").first)
    #expect(link.createdAt == unix(seconds))
  }

  @Test func aMissingOrZeroAddDateIsNoDate() throws {
    let file = """
      <DL><DT><A HREF="https://a.example">A</A>
      <DT><A HREF='https://b.example' ADD_DATE=0>B</A>
      <dt><a href=https://c.example add_date="soon">C</a></dl>
      """
    let links = try BookmarkFile.parse(file, file: "a.html")
    #expect(links.map(\.url) == ["https://a.example", "https://b.example", "https://c.example"])
    #expect(links.map(\.createdAt) == [nil, nil, nil])
  }

  @Test func decodesEntitiesAndLeavesUnknownOnesAsTheyAre() throws {
    let file =
      "<DL><DT><A HREF=\"https://a.example/?a=1&amp;b=2\">&lt;b&gt; &amp;amp; &apos;x&apos; "
      + "&#8364; &#X20AC; &nbsp;&copy; &bogus; & done</A></DL>"
    let link = try #require(try BookmarkFile.parse(file, file: "a.html").first)
    #expect(link.url == "https://a.example/?a=1&b=2")
    #expect(link.title == "<b> &amp; 'x' € € &copy; &bogus; & done")
  }

  @Test func aFileOfNoBookmarksIsNotABookmarkFile() {
    #expect(
      throws: InterchangeError.notFormat(
        file: "page.html", format: .html,
        reason: "it has neither <!DOCTYPE NETSCAPE-Bookmark-file-1> nor a <DL> list of bookmarks")
    ) {
      try BookmarkFile.parse("<html><body><p>Hello</p></body></html>", file: "page.html")
    }
  }

  @Test func anEmptyBookmarkFileHasNoLinks() throws {
    let file = "<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<H1>Bookmarks</H1>\n<DL><p>\n</DL><p>\n"
    #expect(try BookmarkFile.parse(file, file: "empty.html") == [])
  }

  static let truncations: [(Int, InterchangeError)] = [
    (
      18,
      .truncated(
        file: "cut.html", line: 16, reason: "a folder's <DL> list is never closed")
    ),
    (
      16,
      .truncated(file: "cut.html", line: 16, reason: "a folder's <DL> list is never closed")
    ),
  ]

  @Test(arguments: truncations)
  func aFileCutShortBeforeItsFoldersCloseIsTruncated(_ lines: Int, _ error: InterchangeError) {
    #expect(throws: error) {
      try BookmarkFile.parse(chromeBookmarks(firstLines: lines), file: "cut.html")
    }
  }

  @Test func aFileCutInsideATagIsTruncated() {
    let cut = chromeBookmarks(firstLines: 16) + "\n      <DT><A HREF=\"https://exam"
    #expect(
      throws: InterchangeError.truncated(
        file: "cut.html", line: 17, reason: "an attribute's quotes are never closed")
    ) {
      try BookmarkFile.parse(cut, file: "cut.html")
    }
    #expect(
      throws: InterchangeError.truncated(
        file: "cut.html", line: 17, reason: "a tag is never closed with '>'")
    ) {
      try BookmarkFile.parse(
        chromeBookmarks(firstLines: 16) + "\n<DT><A HREF=\"https://a.example\"", file: "cut.html")
    }
  }

  @Test func aFileCutInsideATitleIsTruncated() {
    let cut = chromeBookmarks(firstLines: 16) + "\n<DT><A HREF=\"https://a.example\">Tom &amp;"
    #expect(
      throws: InterchangeError.truncated(
        file: "cut.html", line: 17, reason: "a bookmark's title is never closed with </A>")
    ) {
      try BookmarkFile.parse(cut, file: "cut.html")
    }
  }

  @Test func aFileCutInsideACommentIsTruncated() {
    #expect(
      throws: InterchangeError.truncated(
        file: "cut.html", line: 2, reason: "a comment is never closed")
    ) {
      try BookmarkFile.parse(chromeBookmarks(firstLines: 3), file: "cut.html")
    }
  }

  // MARK: Writing

  static let dev = Category(
    id: Category.ID(UUID(counting: 0xC1)), name: "Dev", createdAt: unix(1_700_000_000))
  static let tools = Category(
    id: Category.ID(UUID(counting: 0xC2)), name: "Dev / Tools & Tips",
    createdAt: unix(1_700_000_100))
  static let empty = Category(
    id: Category.ID(UUID(counting: 0xC3)), name: "empty", createdAt: unix(1_700_000_200))
  static let archive = LinkArchive(
    categories: [dev, tools, empty],
    links: [
      Link(
        id: Link.ID(UUID(counting: 1)), title: "Loose <one>", url: url("https://loose.example"),
        createdAt: unix(1_700_000_300.75)),
      Link(
        id: Link.ID(UUID(counting: 2)), title: "Swift", url: url("https://swift.org/?a=1&b=2"),
        categoryID: dev.id, memo: "Bob's \"notes\"", createdAt: unix(1_700_000_400)),
      Link(
        id: Link.ID(UUID(counting: 3)), title: "Instruments", url: url("https://tools.example"),
        categoryID: tools.id, createdAt: unix(1_700_000_500)),
    ])

  @Test func writesABookmarkFileWithCategoriesAsFolders() {
    #expect(
      BookmarkFile.write(Self.archive) == """
        <!DOCTYPE NETSCAPE-Bookmark-file-1>
        <!-- This is an automatically generated file.
             It will be read and overwritten.
             DO NOT EDIT! -->
        <META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">
        <TITLE>Bookmarks</TITLE>
        <H1>Bookmarks</H1>
        <DL><p>
            <DT><A HREF="https://loose.example" ADD_DATE="1700000300">Loose &lt;one&gt;</A>
            <DT><H3 ADD_DATE="1700000000">Dev</H3>
            <DL><p>
                <DT><A HREF="https://swift.org/?a=1&amp;b=2" ADD_DATE="1700000400">Swift</A>
                <DD>Bob&#39;s &quot;notes&quot;
                <DT><H3 ADD_DATE="1700000100">Tools &amp; Tips</H3>
                <DL><p>
                    <DT><A HREF="https://tools.example" ADD_DATE="1700000500">Instruments</A>
                </DL><p>
            </DL><p>
            <DT><H3 ADD_DATE="1700000200">empty</H3>
            <DL><p>
            </DL><p>
        </DL><p>

        """)
  }

  @Test func readingWhatItWritesGivesTheLinksBack() throws {
    let links = try BookmarkFile.parse(BookmarkFile.write(Self.archive), file: "a.html")
    #expect(
      links == [
        ImportedLink(
          line: 9, title: "Loose <one>", url: "https://loose.example",
          createdAt: unix(1_700_000_300)),
        ImportedLink(
          line: 12, title: "Swift", url: "https://swift.org/?a=1&b=2", category: "Dev",
          memo: "Bob's \"notes\"", createdAt: unix(1_700_000_400)),
        ImportedLink(
          line: 16, title: "Instruments", url: "https://tools.example",
          category: "Dev / Tools & Tips", createdAt: unix(1_700_000_500)),
      ])
  }
}
