// Bookmark files shaped like the browsers' own exports, written for these tests.

/// A Firefox export: a menu with loose bookmarks, a folder with a description (`<DD>` after
/// `<H3>`), a nested folder, a `place:` query, a separator, the toolbar, a title over two
/// lines, and entities (`&amp;`, `&quot;`, `&#39;`, `&#x2014;`).
let firefoxBookmarks = """
  <!DOCTYPE NETSCAPE-Bookmark-file-1>
  <!-- This is an automatically generated file.
       It will be read and overwritten.
       DO NOT EDIT! -->
  <META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">
  <meta http-equiv="Content-Security-Policy"
        content="default-src 'self'; script-src 'none'; img-src data: *; object-src 'none'"></meta>
  <TITLE>Bookmarks</TITLE>
  <H1>Bookmarks Menu</H1>

  <DL><p>
      <DT><A HREF="https://www.mozilla.org/en-US/firefox/central/" ADD_DATE="1700000000" LAST_MODIFIED="1700000001" ICON_URI="https://www.mozilla.org/favicon.ico" ICON="data:image/png;base64,iVBORw0KGgo=">Getting Started</A>
      <DT><H3 ADD_DATE="1700000100" LAST_MODIFIED="1700000200">Reading &amp; Research</H3>
      <DD>Things to read later
      <DL><p>
          <DT><A HREF="https://example.com/search?q=swift&amp;lang=en" ADD_DATE="1700000300" LAST_MODIFIED="1700000300" TAGS="swift,search">Search results for &quot;Swift&quot;</A>
          <DD>Bob&#39;s favourite query &#x2014; really
          <DT><H3 ADD_DATE="1700000400" LAST_MODIFIED="1700000400">Papers</H3>
          <DL><p>
              <DT><A HREF="https://arxiv.org/abs/1706.03762" ADD_DATE="1700000500">Attention Is
                  All You Need</A>
          </DL><p>
          <DT><A HREF="place:parent=unfiled&amp;sort=12" ADD_DATE="1700000600">Recent Tags</A>
          <HR>
      </DL><p>
      <DT><H3 ADD_DATE="1700000700" LAST_MODIFIED="1700000700" PERSONAL_TOOLBAR_FOLDER="true">Bookmarks Toolbar</H3>
      <DL><p>
          <DT><A HREF="https://developer.apple.com/documentation/swift" ADD_DATE="1700000800" SHORTCUTURL="swiftdoc">Swift Documentation</A>
      </DL><p>
  </DL>

  """

/// A Chrome export: the bookmarks bar with folders three deep, a favicon, entities in a
/// folder's name, a title and an address (`&amp;`, `&#39;`, `&quot;`, `&lt;`), the same
/// address twice, a bookmarklet, and a bookmark without a title.
let chromeBookmarks = """
  <!DOCTYPE NETSCAPE-Bookmark-file-1>
  <!-- This is an automatically generated file.
       It will be read and overwritten.
       DO NOT EDIT! -->
  <META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">
  <TITLE>Bookmarks</TITLE>
  <H1>Bookmarks</H1>
  <DL><p>
      <DT><H3 ADD_DATE="1690000000" LAST_MODIFIED="1690000500" PERSONAL_TOOLBAR_FOLDER="true">Bookmarks bar</H3>
      <DL><p>
          <DT><A HREF="https://swift.org/" ADD_DATE="1690000100" ICON="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAYAAAAf8/9hAAAA">Swift.org - Welcome to Swift.org</A>
          <DT><H3 ADD_DATE="1690000200" LAST_MODIFIED="1690000300">Dev</H3>
          <DL><p>
              <DT><A HREF="https://github.com/swiftlang/swift" ADD_DATE="1690000250">GitHub - swiftlang/swift: The Swift Programming Language</A>
              <DT><H3 ADD_DATE="1690000260" LAST_MODIFIED="1690000270">Tools &amp; Tips</H3>
              <DL><p>
                  <DT><A HREF="https://example.com/a?x=1&amp;y=2" ADD_DATE="1690000280">Tom &amp; Jerry&#39;s &quot;tips&quot; &lt;3</A>
                  <DT><A HREF="https://swift.org/" ADD_DATE="1690000290">Swift again</A>
              </DL><p>
          </DL><p>
      </DL><p>
      <DT><H3 ADD_DATE="1690000600" LAST_MODIFIED="1690000700">Other bookmarks</H3>
      <DL><p>
          <DT><A HREF="javascript:alert(document.title)" ADD_DATE="1690000400">Bookmarklet</A>
          <DT><A HREF="https://news.ycombinator.com/" ADD_DATE="1690000500"></A>
      </DL><p>
  </DL><p>

  """

/// The Chrome export's first `count` lines, as a file cut short there.
func chromeBookmarks(firstLines count: Int) -> String {
  chromeBookmarks.split(separator: "\n", omittingEmptySubsequences: false).prefix(count)
    .joined(separator: "\n")
}
