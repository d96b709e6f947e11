import Foundation
import LoopCLI
import Testing

/// A Chrome-style bookmark export: nested folders, entities, a repeated address, a bookmarklet.
let bookmarksFile = """
  <!DOCTYPE NETSCAPE-Bookmark-file-1>
  <META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">
  <TITLE>Bookmarks</TITLE>
  <H1>Bookmarks</H1>
  <DL><p>
      <DT><H3 ADD_DATE="1690000000" PERSONAL_TOOLBAR_FOLDER="true">Bookmarks bar</H3>
      <DL><p>
          <DT><A HREF="https://swift.org/" ADD_DATE="1690000100">Swift.org</A>
          <DT><H3 ADD_DATE="1690000200">Tools &amp; Tips</H3>
          <DL><p>
              <DT><A HREF="https://example.com/a?x=1&amp;y=2" ADD_DATE="1690000280">Tom &amp; Jerry&#39;s &quot;tips&quot;</A>
              <DT><A HREF="https://swift.org/" ADD_DATE="1690000290">Swift again</A>
          </DL><p>
      </DL><p>
      <DT><A HREF="javascript:void(0)" ADD_DATE="1690000400">Bookmarklet</A>
  </DL><p>

  """

/// A German bank's export: semicolons, `dd.MM.yyyy`, decimal commas.
let bankFile = """
  date;kind;amount;memo;category
  28.02.2025;income;3.200,00;Gehalt;Arbeit
  01.03.2025;expense;1.234,50;Miete;Wohnen
  03.03.2025;expense;12,5;"Café; Kuchen";Essen

  """

/// `import` and `export` through the REPL, on files in a temporary folder.
@MainActor
@Suite struct InterchangeTranscriptTests {
  /// A folder holding `files` (name, text), removed with the returned value.
  func folder(_ files: [String: String] = [:]) throws -> TemporaryFolder {
    let folder = try TemporaryFolder()
    for (name, text) in files {
      try Data(text.utf8).write(to: URL(fileURLWithPath: folder.path(name)))
    }
    return folder
  }

  func run(_ script: String, in folder: TemporaryFolder, environment: AppEnvironment? = nil)
    async throws -> TranscriptResult
  {
    try await transcript(script, environment: environment, currentDirectory: folder.url.path)
  }

  @Test func importingABookmarkFileSummarizesAndListsTheRejectedLines() async throws {
    let folder = try folder(["bookmarks.html": bookmarksFile])
    let result = try await run(
      "link import bookmarks.html\nlink list\ncategory list\nlink import bookmarks.html", in: folder
    )
    #expect(result.status == 0)
    #expect(
      result.transcript == """
        > link import bookmarks.html
        Imported 2 links, 2 categories; skipped 1 duplicate; rejected 1.
          line 15: 'javascript:void(0)' is not a web address: enter an absolute http or https URL, such as 'https://example.com'.
        > link list
        REF      ★  TITLE                 CATEGORY
        e099ec6     Tom & Jerry's "tips"  Bookmarks bar / Tools & Tips
        f893a2e     Swift.org             Bookmarks bar
        > category list
        CATEGORY                      LINKS
        Bookmarks bar                     1
        Bookmarks bar / Tools & Tips      1
        > link import bookmarks.html
        Imported nothing; skipped 3 duplicates; rejected 1.
          line 15: 'javascript:void(0)' is not a web address: enter an absolute http or https URL, such as 'https://example.com'.

        """)
  }

  @Test func aDryRunSaysWhatWouldHappenAndWritesNothing() async throws {
    let folder = try folder(["bookmarks.html": bookmarksFile])
    let result = try await run(
      "link import bookmarks.html --dry-run\nlink list\ncategory list", in: folder)
    #expect(result.status == 0)
    #expect(
      result.transcript == """
        > link import bookmarks.html --dry-run
        Would import 2 links, 2 categories; skipped 1 duplicate; rejected 1.
          line 15: 'javascript:void(0)' is not a web address: enter an absolute http or https URL, such as 'https://example.com'.
        Nothing was written (--dry-run).
        > link list
        No links yet: add one with 'link add <title> <url>'.
        > category list
        No categories yet: add one with 'category add <name>'.

        """)
  }

  @Test func importingALinkCSVWithQuotedCommasAndNewlines() async throws {
    let folder = try folder([
      "links.csv": #"""
      title,url,category,memo
      "Swift, the language",https://swift.org,Dev,"Two
      lines"
      Broken,not a url,,
      Short,https://short.example

      """#
    ])
    let result = try await run("link import links.csv\nlink list\nlink show f8", in: folder)
    #expect(result.status == 0)
    #expect(
      result.transcript == """
        > link import links.csv
        Imported 1 link, 1 category; skipped 0 duplicates; rejected 2.
          line 4: 'not a url' is not a web address: enter an absolute http or https URL, such as 'https://example.com'.
          line 5: it has 2 fields, but the header has 4
        > link list
        REF      ★  TITLE                CATEGORY
        f893a2e     Swift, the language  Dev
        > link show f8
        Swift, the language f893a2e
        https://swift.org
        category  Dev
        memo      Two
        lines
        added     2025-03-15 10:00
        viewed    never
        No comments.

        """)
  }

  @Test func importingAEuropeanBankExport() async throws {
    let folder = try folder(["bank.csv": bankFile])
    let result = try await run(
      "ledger import bank.csv --date-format dd.MM.yyyy --decimal-separator ,\nledger list",
      in: folder)
    #expect(result.status == 0)
    #expect(
      result.transcript == """
        > ledger import bank.csv --date-format dd.MM.yyyy --decimal-separator ,
        Imported 3 transactions; skipped 0 duplicates; rejected 0.
        > ledger list
        REF      DATE           AMOUNT  CATEGORY  MEMO
        71bb54d  2025-03-03     -12.50  Essen     Café; Kuchen
        f893a2e  2025-03-01  -1,234.50  Wohnen    Miete
        910a2de  2025-02-28  +3,200.00  Arbeit    Gehalt

        """)
  }

  @Test func aLedgerImportWithABadRowImportsNothingAndListsEveryBadRow() async throws {
    let folder = try folder([
      "bank.csv": bankFile + "04.03.2025;gift;1,00;Blumen;\n05.03.2025;expense;-5,00;Kaffee;\n"
    ])
    let result = try await run(
      "ledger add expense 9.99 Before\nledger import bank.csv --date-format dd.MM.yyyy "
        + "--decimal-separator ,\nledger import bank.csv\nledger list",
      in: folder)
    #expect(result.status == 1)
    #expect(
      result.transcript == """
        > ledger add expense 9.99 Before
        Added expense 9.99 'Before' on 2025-03-15 (910a2de).
        > ledger import bank.csv --date-format dd.MM.yyyy --decimal-separator ,
        ! test:2: error: 2 rows of 'bank.csv' are invalid (lines 5, 6), so nothing was imported.
        ! line 5: 'gift' is not a kind: write income or expense
        ! line 6: The amount must be greater than zero, not '-5.00'.
        > ledger import bank.csv
        ! test:3: error: 5 rows of 'bank.csv' are invalid (lines 2, 3, 4, 5, 6), so nothing was imported.
        ! line 2: '28.02.2025' is not a date written yyyy-MM-dd
        ! line 3: '01.03.2025' is not a date written yyyy-MM-dd
        ! line 4: '03.03.2025' is not a date written yyyy-MM-dd
        ! line 5: '04.03.2025' is not a date written yyyy-MM-dd
        ! line 6: '05.03.2025' is not a date written yyyy-MM-dd
        > ledger list
        REF      DATE        AMOUNT  CATEGORY  MEMO
        910a2de  2025-03-15   -9.99            Before

        """)
  }

  @Test func exportingEachDomainWritesItsFile() async throws {
    let folder = try folder()
    let result = try await run(
      """
      category add Dev
      link add Swift https://swift.org --category Dev --memo "the language"
      habit add Read
      habit done 71
      ledger add expense 12.50 Lunch --category Food
      link export links.html
      link export links.csv
      link export links.json
      habit export habits.csv
      ledger export ledger.csv --decimal-separator ,
      ledger export ledger.json --format json
      export everything.json
      """, in: folder)
    #expect(result.status == 0)
    #expect(
      result.transcript == """
        > category add Dev
        Added category 'Dev'.
        > link add Swift https://swift.org --category Dev --memo "the language"
        Added link 'Swift' (f893a2e).
        > habit add Read
        Added habit 'Read' (71bb54d).
        > habit done 71
        Done: 'Read' on 2025-03-15. Streak: 1 day.
        > ledger add expense 12.50 Lunch --category Food
        Added expense 12.50 'Lunch' on 2025-03-15 in Food (e099ec6).
        > link export links.html
        Exported 1 link, 1 category to 'links.html' (bookmark HTML).
        > link export links.csv
        Exported 1 link, 1 category to 'links.csv' (CSV).
        > link export links.json
        Exported 1 link, 1 category to 'links.json' (Loop JSON).
        > habit export habits.csv
        Exported 1 habit, 1 completion to 'habits.csv' (CSV).
        > ledger export ledger.csv --decimal-separator ,
        Exported 1 transaction to 'ledger.csv' (CSV).
        > ledger export ledger.json --format json
        Exported 1 transaction to 'ledger.json' (Loop JSON).
        > export everything.json
        Exported 1 link, 1 category, 1 habit, 1 completion, 1 transaction to 'everything.json' (Loop JSON).

        """)
    let files: [(String, String)] = [
      (
        "links.html",
        """
        <!DOCTYPE NETSCAPE-Bookmark-file-1>
        <!-- This is an automatically generated file.
             It will be read and overwritten.
             DO NOT EDIT! -->
        <META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">
        <TITLE>Bookmarks</TITLE>
        <H1>Bookmarks</H1>
        <DL><p>
            <DT><H3 ADD_DATE="1742000400">Dev</H3>
            <DL><p>
                <DT><A HREF="https://swift.org" ADD_DATE="1742000400">Swift</A>
                <DD>the language
            </DL><p>
        </DL><p>

        """
      ),
      (
        "links.csv",
        "title,url,category,memo,created\nSwift,https://swift.org,Dev,the language,"
          + "2025-03-15T01:00:00Z\n"
      ),
      ("habits.csv", "habit,created,archived,day\nRead,2025-03-15T01:00:00Z,,2025-03-15\n"),
      ("ledger.csv", "date;kind;amount;memo;category\n2025-03-15;expense;12,50;Lunch;Food\n"),
    ]
    for (name, expected) in files {
      #expect(try String(contentsOfFile: folder.path(name), encoding: .utf8) == expected)
    }
    let everything = try String(contentsOfFile: folder.path("everything.json"), encoding: .utf8)
    #expect(everything.hasPrefix("{\n  \"categories\" : [\n"))
    #expect(everything.contains("\"format\" : \"loop-export\""))
  }

  @Test func anExportImportedIntoAnEmptyDatabaseGivesTheSameExport() async throws {
    let folder = try folder()
    let seeding = try await run(
      """
      category add Dev
      link add Swift https://swift.org --category Dev --memo "the language"
      link comment f8 "Chapter 3 next"
      link fav f8
      link open f8
      habit add Read
      habit done e0
      habit add Walk
      habit archive 49
      ledger add income 3,000 Salary --on 2025-03-01
      export before.json
      """, in: folder)
    #expect(seeding.status == 0)
    #expect(
      seeding.transcript.hasSuffix(
        """
        > export before.json
        Exported 1 link, 1 category, 1 comment, 2 habits, 1 completion, 1 transaction to 'before.json' (Loop JSON).

        """))
    let result = try await run(
      "import before.json\nexport after.json\nimport after.json", in: folder)
    #expect(result.status == 0)
    #expect(
      result.transcript == """
        > import before.json
        Imported 1 link, 1 category, 1 comment, 2 habits, 1 completion, 1 transaction; skipped 0 duplicates; rejected 0.
        > export after.json
        Exported 1 link, 1 category, 1 comment, 2 habits, 1 completion, 1 transaction to 'after.json' (Loop JSON).
        > import after.json
        Imported nothing; skipped 5 duplicates; rejected 0.

        """)
    let before = try String(contentsOfFile: folder.path("before.json"), encoding: .utf8)
    let after = try String(contentsOfFile: folder.path("after.json"), encoding: .utf8)
    #expect(before == after)
  }

  @Test func badFilesAndOptionsGetOneClearError() async throws {
    let folder = try folder([
      "empty.html": "",
      "page.html": "<html><body>Hello</body></html>",
      "cut.html": String(bookmarksFile.prefix(400)),
      "links.csv": "title,url\nA,https://a.example\n",
    ])
    try Data([0xFF, 0xFE, 0x3C, 0x00]).write(to: URL(fileURLWithPath: folder.path("utf16.html")))
    try Data(Array("title,url\nCaf".utf8) + [0xE9] + Array(",https://cafe.example\n".utf8))
      .write(to: URL(fileURLWithPath: folder.path("latin1.csv")))
    let result = try await run(
      """
      link import missing.html
      link import empty.html
      link import utf16.html
      link import latin1.csv
      link import page.html
      link import cut.html
      link import links.csv --format html
      link import links.csv --format pdf
      ledger import links.csv --date-format dd.mm.yyyy
      ledger import page.html
      import links.csv
      export everything.csv
      habit export habits.html
      link export no/such/folder/links.json
      link list
      """, in: folder)
    #expect(result.status == 1)
    #expect(
      result.transcript == """
        > link import missing.html
        ! test:1: error: Cannot read 'missing.html': there is no such file.
        > link import empty.html
        ! test:2: error: 'empty.html' is empty.
        > link import utf16.html
        ! test:3: error: 'utf16.html' is encoded in UTF-16: save it as UTF-8 and import it again.
        > link import latin1.csv
        ! test:4: error: 'latin1.csv' is not UTF-8: line 2 holds the byte 0xE9 ('é' in Latin-1). Save it as UTF-8 and import it again.
        > link import page.html
        ! test:5: error: 'page.html' is not a bookmark HTML file: it has neither <!DOCTYPE NETSCAPE-Bookmark-file-1> nor a <DL> list of bookmarks.
        > link import cut.html
        ! test:6: error: 'cut.html' ends early: a tag is never closed with '>' (line 10). It may be cut short; export it again.
        > link import links.csv --format html
        ! test:7: error: 'links.csv' is not a bookmark HTML file: it has neither <!DOCTYPE NETSCAPE-Bookmark-file-1> nor a <DL> list of bookmarks.
        > link import links.csv --format pdf
        ! test:8: error: 'pdf' is not a value of '--format': use 'html', 'csv' or 'json'
        ! usage: link import <file> [--format html|csv|json] [--dry-run] [--quiet]
        > ledger import links.csv --date-format dd.mm.yyyy
        ! test:9: error: 'dd.mm.yyyy' is not a date format: use yyyy, MM and dd with separators, such as 'yyyy-MM-dd', 'dd.MM.yyyy' or 'MM/dd/yyyy'.
        ! usage: ledger import <file> [--format csv|json] [--date-format PATTERN] [--decimal-separator .|,] [--rules-file PATH] [--dry-run] [--quiet]
        > ledger import page.html
        ! test:10: error: A bookmark file holds links, not ledger transactions: import it with 'link import'.
        > import links.csv
        ! test:11: error: A CSV file holds one domain: import it with 'link import' or 'ledger import'.
        > export everything.csv
        ! test:12: error: CSV holds one domain: use 'link export', 'habit export' or 'ledger export' with '--format csv'.
        > habit export habits.html
        ! test:13: error: Only links can be exported as a bookmark file, not habits.
        > link export no/such/folder/links.json
        ! test:14: error: Cannot write 'no/such/folder/links.json': its folder does not exist.
        > link list
        No links yet: add one with 'link add <title> <url>'.

        """)
  }

  @Test func helpDescribesImportAndExport() async throws {
    let result = try await transcript("help import\nhelp export\nhelp expor")
    #expect(
      result.transcript == """
        > help import
        import — the whole database

        import <file> [--dry-run] [--quiet]
            Import a Loop export (JSON) of everything: links, habits and the ledger.
            <file>     the file to read
            --dry-run  say what the import would do, and write nothing
            --quiet    draw no progress bar
        > help export
        export — the whole database

        export <file>
            Export everything as JSON, lossless: 'import' reads it back.
            <file>  the file to write
        > help expor
        ! test:3: error: there is no help on 'expor'
        ! did you mean 'export'?

        """)
  }
}
