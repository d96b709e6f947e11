import Foundation
import LoopCLI
import Testing

/// Every `link` and `category` command, run through a session.
///
/// The seeded ids make the links Swift book `71bb54d`, Loop `e099ec6` and Composable Architecture `491718d`.
@MainActor
@Suite struct LinkTranscriptTests {
  static let setup = """
    category add Swift
    category add Reading
    link add "Swift book" https://docs.swift.org/book --category swift --memo "the language"
    link add Loop https://example.com/loop
    link add 'Composable Architecture' https://github.com/pointfreeco --category Swift
    """

  static let setupTranscript = """
    > category add Swift
    Added category 'Swift'.
    > category add Reading
    Added category 'Reading'.
    > link add "Swift book" https://docs.swift.org/book --category swift --memo "the language"
    Added link 'Swift book' (71bb54d).
    > link add Loop https://example.com/loop
    Added link 'Loop' (e099ec6).
    > link add 'Composable Architecture' https://github.com/pointfreeco --category Swift
    Added link 'Composable Architecture' (491718d).

    """

  @Test func offsetAndLimitPrintPartOfTheCategories() async throws {
    let result = try await transcript(
      Self.setup + "\ncategory list --offset 1\ncategory list --limit 1 --format json")
    #expect(result.status == 0)
    #expect(
      result.transcript == Self.setupTranscript
        + """
        > category list --offset 1
        CATEGORY  LINKS
        Swift         2
        > category list --limit 1 --format json
        [
          {
            "category" : {
              "createdAt" : "2025-03-15T01:00:00Z",
              "id" : "F893A2EE-FB32-555E-71C1-8690EE42C90B",
              "name" : "Reading"
            },
            "linkCount" : 0
          }
        ]

        """)
  }

  @Test func listingShowingOpeningAndCommenting() async throws {
    let result = try await transcript(
      Self.setup + "\n"
        + """
        link list
        link show 71
        link open 71
        link recent
        link fav 71
        link fav 71
        link comment 71 "Great read"
        link show 71
        link unfav 71
        link search ARCH
        link search nothing
        """)
    #expect(result.status == 0)
    #expect(
      result.transcript == Self.setupTranscript
        + """
        > link list
        REF      ★  TITLE                    CATEGORY
        e099ec6     Loop
        71bb54d     Swift book               Swift
        491718d     Composable Architecture  Swift
        > link show 71
        Swift book 71bb54d
        https://docs.swift.org/book
        category  Swift
        memo      the language
        added     2025-03-15 10:00
        viewed    never
        No comments.
        > link open 71
        Opened 'Swift book': https://docs.swift.org/book
        > link recent
        REF      ★  TITLE       VIEWED
        71bb54d     Swift book  2025-03-15 10:00
        > link fav 71
        'Swift book' is a favorite now.
        > link fav 71
        'Swift book' is a favorite already.
        > link comment 71 "Great read"
        Commented on 'Swift book'.
        > link show 71
        Swift book 71bb54d ★
        https://docs.swift.org/book
        category  Swift
        memo      the language
        added     2025-03-15 10:00
        viewed    2025-03-15 10:00
        1 comment:
          2025-03-15 10:00  Great read
        > link unfav 71
        'Swift book' is no longer a favorite.
        > link search ARCH
        REF      ★  TITLE
        491718d     Composable Architecture
        > link search nothing
        No link title contains 'nothing'.

        """)
  }

  @Test func updatingRemovingAndCategories() async throws {
    let result = try await transcript(
      Self.setup + "\n"
        + """
        link update e0 --title "Loop app" --category Reading --memo "the REPL"
        link list --category reading
        category list
        link update e0 --no-category --memo ""
        category rename reading Books
        category rm swift --yes
        link rm 49
        link list
        category list
        """)
    #expect(result.status == 0)
    #expect(
      result.transcript == Self.setupTranscript
        + """
        > link update e0 --title "Loop app" --category Reading --memo "the REPL"
        Updated 'Loop app' (e099ec6).
        > link list --category reading
        REF      ★  TITLE     CATEGORY
        e099ec6     Loop app  Reading
        > category list
        CATEGORY  LINKS
        Reading       1
        Swift         2
        > link update e0 --no-category --memo ""
        Updated 'Loop app' (e099ec6).
        > category rename reading Books
        Renamed category 'Reading' to 'Books'.
        > category rm swift --yes
        Deleted category 'Swift': its 2 links are uncategorized now.
        > link rm 49
        Deleted 'Composable Architecture'.
        > link list
        REF      ★  TITLE       CATEGORY
        e099ec6     Loop app
        71bb54d     Swift book
        > category list
        CATEGORY  LINKS
        Books         0

        """)
  }

  @Test func removingACategoryWithLinksInAScriptNeedsYes() async throws {
    let result = try await transcript(Self.setup + "\ncategory rm swift\ncategory list")
    #expect(result.status == 1)
    #expect(
      result.transcript == Self.setupTranscript
        + """
        > category rm swift
        ! test:6: error: deleting category 'Swift' needs a confirmation
        ! add --yes to delete without asking: 'category rm swift --yes'
        > category list
        CATEGORY  LINKS
        Reading       0
        Swift         2

        """)
  }

  @Test func aCategoryTheClientRefusesFailsTheScriptWithTheAlertsSentence() async throws {
    // NB: the categories present the failure as their alert; the REPL reads it from the
    // response, and the script goes on, then ends with status 1.
    let result = try await transcript(Self.setup + "\ncategory add swift\ncategory list")
    #expect(result.status == 1)
    #expect(
      result.transcript == Self.setupTranscript
        + """
        > category add swift
        ! test:6: error: A category named 'swift' already exists.
        > category list
        CATEGORY  LINKS
        Reading       0
        Swift         2

        """)
  }

  @Test func aFailedCategoryCommandIsNotAskedAgainByTheNextDeletion() async throws {
    // NB: the failure stays presented in the categories' alert; it asks nothing.
    let result = try await transcript(
      Self.setup + "\ncategory add swift\ncategory rm Reading\ncategory list", mode: .interactive)
    #expect(result.status == 0)
    #expect(
      result.transcript == Self.setupTranscript
        + """
        > category add swift
        ! error: A category named 'swift' already exists.
        > category rm Reading
        Deleted category 'Reading'.
        > category list
        CATEGORY  LINKS
        Swift         2

        """)
  }

  @Test func removingACategoryWithLinksInteractivelyAsksFirst() async throws {
    let result = try await transcript(
      Self.setup
        + "\ncategory rm swift\nno\ncategory rm Reading\ncategory rm swift\ny\ncategory list",
      mode: .interactive)
    #expect(result.status == 0)
    #expect(
      result.transcript == Self.setupTranscript
        + """
        > category rm swift
        Delete category 'Swift'? Its 2 links stay, uncategorized. [y/N] no
        Kept category 'Swift'.
        > category rm Reading
        Deleted category 'Reading'.
        > category rm swift
        Delete category 'Swift'? Its 2 links stay, uncategorized. [y/N] y
        Deleted category 'Swift': its 2 links are uncategorized now.
        > category list
        No categories yet: add one with 'category add <name>'.

        """)
  }

  @Test func linksAndCategoriesAsJSON() async throws {
    let result = try await transcript(
      """
      category add Swift
      link add "Swift book" https://docs.swift.org/book --category Swift
      link open f8
      link list --format json
      link search book --format json
      link recent --format json
      link show f8 --format json
      category list --format json
      """)
    #expect(result.status == 0)
    #expect(
      result.transcript == """
        > category add Swift
        Added category 'Swift'.
        > link add "Swift book" https://docs.swift.org/book --category Swift
        Added link 'Swift book' (f893a2e).
        > link open f8
        Opened 'Swift book': https://docs.swift.org/book
        > link list --format json
        [
          {
            "categoryName" : "Swift",
            "createdAt" : "2025-03-15T01:00:00Z",
            "id" : "F893A2EE-FB32-555E-71C1-8690EE42C90B",
            "isFavorite" : false,
            "title" : "Swift book",
            "url" : "https://docs.swift.org/book"
          }
        ]
        > link search book --format json
        [
          {
            "createdAt" : "2025-03-15T01:00:00Z",
            "id" : "F893A2EE-FB32-555E-71C1-8690EE42C90B",
            "isFavorite" : false,
            "matchedRange" : [
              6,
              10
            ],
            "title" : "Swift book",
            "url" : "https://docs.swift.org/book"
          }
        ]
        > link recent --format json
        [
          {
            "id" : "F893A2EE-FB32-555E-71C1-8690EE42C90B",
            "isFavorite" : false,
            "lastViewedDate" : "2025-03-15T01:00:00Z",
            "title" : "Swift book",
            "url" : "https://docs.swift.org/book"
          }
        ]
        > link show f8 --format json
        {
          "comments" : [],
          "link" : {
            "categoryID" : "910A2DEC-8902-5CC1-BEEB-8DA1658EEC67",
            "createdAt" : "2025-03-15T01:00:00Z",
            "id" : "F893A2EE-FB32-555E-71C1-8690EE42C90B",
            "isFavorite" : false,
            "lastViewedDate" : "2025-03-15T01:00:00Z",
            "title" : "Swift book",
            "url" : "https://docs.swift.org/book"
          }
        }
        > category list --format json
        [
          {
            "category" : {
              "createdAt" : "2025-03-15T01:00:00Z",
              "id" : "910A2DEC-8902-5CC1-BEEB-8DA1658EEC67",
              "name" : "Swift"
            },
            "linkCount" : 1
          }
        ]

        """)
  }

  /// What `jq '.[].url'` reads from each listing: every link's address, in the listing's order.
  @Test func everyLinkListingAsJSONHasEachLinksURL() async throws {
    let result = try await transcript(
      Self.setup + "\n"
        + """
        link open 49
        link open 71
        link list --format json
        link search o --format json
        link recent --format json
        """)
    #expect(result.status == 0)
    let outputs = result.transcript.components(separatedBy: "\n> ").dropFirst(7)
    let urls = try outputs.map { output in
      let json = try #require(output.split(separator: "\n", maxSplits: 1).last)
      let rows = try #require(
        try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
      return rows.map { $0["url"] as? String }
    }
    #expect(
      urls == [
        [
          "https://example.com/loop", "https://docs.swift.org/book",
          "https://github.com/pointfreeco",
        ],
        [
          "https://example.com/loop", "https://docs.swift.org/book",
          "https://github.com/pointfreeco",
        ],
        ["https://docs.swift.org/book", "https://github.com/pointfreeco"],
      ])
  }

  @Test func badLinkAndCategoryCommandsChangeNothing() async throws {
    let result = try await transcript(
      Self.setup + "\n"
        + """
        link add Nowhere example.com
        link add "" https://example.com
        link add Lost https://example.com --category Missing
        link add OnlyTitle
        link add Extra https://example.com/1
        link add Another https://example.com/2
        link show 7
        link show 7x
        link update 71
        link update 71 --category Swift --no-category
        link update 71 --url ftp://example.com
        link comment 71 "  "
        category add swift
        category add ""
        category rename Nope New
        category rename Swift reading
        category rm
        link list
        category list
        """)
    #expect(result.status == 1)
    #expect(
      result.transcript == Self.setupTranscript
        + """
        > link add Nowhere example.com
        ! test:6: error: 'example.com' is not a web address: enter an absolute http or https URL, such as 'https://example.com'.
        > link add "" https://example.com
        ! test:7: error: A link needs a title.
        > link add Lost https://example.com --category Missing
        ! test:8: error: no category is named 'Missing'
        ! 'category list' shows the categories; 'category add Missing' adds one
        > link add OnlyTitle
        ! test:9: error: 'link add' needs <url>
        ! usage: link add <title> <url> [--category NAME] [--memo TEXT]
        > link add Extra https://example.com/1
        Added link 'Extra' (6775dc7).
        > link add Another https://example.com/2
        Added link 'Another' (7476cf8).
        > link show 7
        ! test:12: error: the ref '7' is ambiguous: it matches 2 links
        !   71bb54d  Swift book
        !   7476cf8  Another
        > link show 7x
        ! test:13: error: no link has the ref or name '7x'
        ! 'link list' shows every link with its ref
        > link update 71
        ! test:14: error: there is nothing to change: give at least one option
        ! usage: link update <ref> [--title TITLE] [--url URL] [--category NAME] [--no-category] [--memo TEXT]
        > link update 71 --category Swift --no-category
        ! test:15: error: give either --category or --no-category, not both
        ! usage: link update <ref> [--title TITLE] [--url URL] [--category NAME] [--no-category] [--memo TEXT]
        > link update 71 --url ftp://example.com
        ! test:16: error: 'ftp://example.com' is not a web address: enter an absolute http or https URL, such as 'https://example.com'.
        > link comment 71 "  "
        ! test:17: error: A comment cannot be empty.
        > category add swift
        ! test:18: error: A category named 'swift' already exists.
        > category add ""
        ! test:19: error: A category needs a name.
        > category rename Nope New
        ! test:20: error: no category is named 'Nope'
        ! 'category list' shows the categories; 'category add Nope' adds one
        > category rename Swift reading
        ! test:21: error: A category named 'reading' already exists.
        > category rm
        ! test:22: error: 'category rm' needs <name>
        ! usage: category rm <name> [--yes]
        > link list
        REF      ★  TITLE                    CATEGORY
        e099ec6     Loop
        7476cf8     Another
        71bb54d     Swift book               Swift
        6775dc7     Extra
        491718d     Composable Architecture  Swift
        > category list
        CATEGORY  LINKS
        Reading       0
        Swift         2

        """)
  }
}
