import Foundation
import HabitClient
import HabitClientLive
import LoopCLI
import Testing

/// The REPL itself: unknown commands, quoting, help, tracing, the state, leaving, and how
/// scripts and one-shot commands end.
@MainActor
@Suite struct SessionTests {
  @Test func unknownCommandsSuggestTheClosestOne() async throws {
    let result = try await transcript(
      "lnik list\nhbit\nlink\nlink ad x\nlink frobnicate\nfoo\nhelp lnk\n:trace maybe")
    #expect(result.status == 1)
    #expect(
      result.transcript == """
        > lnik list
        ! test:1: error: unknown command 'lnik'
        ! did you mean 'link'?
        > hbit
        ! test:2: error: unknown command 'hbit'
        ! did you mean 'habit'?
        > link
        ! test:3: error: 'link' needs a command: 'add', 'list', 'search', 'recent', 'show', 'open', 'fav', 'unfav', 'update', 'rm', 'comment', 'import' or 'export'
        ! type 'help link' to see what each does
        > link ad x
        ! test:4: error: unknown command 'link ad'
        ! did you mean 'link add'?
        > link frobnicate
        ! test:5: error: unknown command 'link frobnicate'
        ! 'link' takes 'add', 'list', 'search', 'recent', 'show', 'open', 'fav', 'unfav', 'update', 'rm', 'comment', 'import' or 'export'
        > foo
        ! test:6: error: unknown command 'foo'
        ! type 'help' to see the commands
        > help lnk
        ! test:7: error: there is no help on 'lnk'
        ! did you mean 'link'?
        > :trace maybe
        ! test:8: error: 'maybe' is not 'on' or 'off'
        ! usage: :trace on|off

        """)
  }

  @Test func quotingMistakesAreReportedWithTheirColumn() async throws {
    let result = try await transcript(
      #"habit add 'Read"# + "\n" + #"habit add "Read"# + "\n" + #"habit add Read\"# + "\n"
        + "habit list")
    #expect(result.status == 1)
    #expect(
      result.transcript == """
        > habit add 'Read
        ! test:1: error: unterminated single quote: the ' at column 11 is never closed
        > habit add "Read
        ! test:2: error: unterminated double quote: the " at column 11 is never closed
        > habit add Read\\
        ! test:3: error: the backslash at column 15 ends the line: there is nothing to escape
        > habit list
        No habits yet: add one with 'habit add <name>'.

        """)
  }

  @Test func quotesEscapesBlankLinesAndComments() async throws {
    let result = try await transcript(
      #"""
      # a comment, then a blank line

      habit add "Say \"hi\""   # trailing comment
      habit add 'C:\path'
      habit add two\ words
      habit list
      """#)
    #expect(result.status == 0)
    #expect(
      result.transcript == #"""
        > # a comment, then a blank line
        > 
        > habit add "Say \"hi\""   # trailing comment
        Added habit 'Say "hi"' (910a2de).
        > habit add 'C:\path'
        Added habit 'C:\path' (f893a2e).
        > habit add two\ words
        Added habit 'two words' (71bb54d).
        > habit list
        REF      HABIT      TODAY  STREAK  LONGEST  30 DAYS
        71bb54d  two words  ·      0 days   0 days       0%
        910a2de  Say "hi"   ·      0 days   0 days       0%
        f893a2e  C:\path    ·      0 days   0 days       0%

        """#)
  }

  @Test func traceOnPrintsEachActionAndItsStateChange() async throws {
    let result = try await transcript(":trace on\ncategory list\n:trace off\ncategory list")
    #expect(result.status == 0)
    #expect(
      result.transcript == """
        > :trace on
        Tracing is on.
        > category list
        received action:
          AppFeature.Action.links(.categories(.onAppear))
          (No state changes)
        received action:
          AppFeature.Action.links(.categories(.summariesResponse(.success([]))))
          (No state changes)
        No categories yet: add one with 'category add <name>'.
        > :trace off
        Tracing is off.
        > category list
        No categories yet: add one with 'category add <name>'.

        """)
  }

  @Test func aRefusedAmountOrRefSendsNoAction() async throws {
    let result = try await transcript(
      ":trace on\nledger add expense 12.345 Lunch\nledger update 71 --amount 0\nlink show ''")
    #expect(result.status == 1)
    #expect(
      result.transcript == """
        > :trace on
        Tracing is on.
        > ledger add expense 12.345 Lunch
        ! test:2: error: '12.345' has more than 2 decimal places.
        > ledger update 71 --amount 0
        ! test:3: error: The amount must be greater than zero, not '0.00'.
        > link show ''
        ! test:4: error: '' is not a ref or a name
        ! a ref is the start of an id, in hexadecimal, as 'link list' shows

        """)
  }

  @Test func linkAddSendsTheAddAndItsAnswerOnly() async throws {
    let result = try await transcript(":trace on\nlink add Swift https://swift.org")
    #expect(result.status == 0)
    #expect(
      result.transcript == """
        > :trace on
        Tracing is on.
        > link add Swift https://swift.org
        received action:
          AppFeature.Action.links(
            .addLinkSubmitted(
              LinkDraft(
                title: "Swift",
                url: "https://swift.org",
                categoryID: nil,
                memo: ""
              )
            )
          )
          (No state changes)
        received action:
          AppFeature.Action.links(
            .addLinkResponse(
              .success(
                SavedLink(
                  link: Link(
                    id: Link.ID(
                      rawValue: UUID(910A2DEC-8902-5CC1-BEEB-8DA1658EEC67)
                    ),
                    title: "Swift",
                    url: URL(https://swift.org),
                    categoryID: nil,
                    memo: nil,
                    isFavorite: false,
                    createdAt: Date(2025-03-15T01:00:00.000Z),
                    lastViewedDate: nil
                  ),
                  idPrefixLength: 1
                )
              )
            )
          )
          (No state changes)
        Added link 'Swift' (910a2de).

        """)
  }

  @Test func statePrintsTheRootState() async throws {
    let result = try await transcript("habit add Read\n:state")
    #expect(result.status == 0)
    #expect(
      result.transcript == """
        > habit add Read
        Added habit 'Read' (910a2de).
        > :state
        AppFeature.State(
          links: LinkList.State(
            screen: .recent,
            all: AllLinks.State(
              categoryFilter: nil,
              links: [],
              rowIDs: [],
              categoryNames: [:],
              nextPage: nil,
              isLastPageLoaded: false,
              droppedRowCount: 0,
              alert: nil
            ),
            search: SearchLinks.State(
              query: "",
              links: [],
              rowIDs: [],
              isSearching: false,
              alert: nil
            ),
            recent: RecentLinks.State(
              links: [],
              rowIDs: [],
              alert: nil
            ),
            categories: Categories.State(
              destination: nil,
              rows: [],
              selectedCategoryID: nil
            ),
            destination: nil,
            lookup: LinkLookup.State(
              refMatches: []
            ),
            path: [],
            links: []
          ),
          habits: Habits.State(
            destination: nil,
            habits: [
              HabitHistory(
                habit: Habit(
                  id: Habit.ID(
                    rawValue: UUID(910A2DEC-8902-5CC1-BEEB-8DA1658EEC67)
                  ),
                  name: "Read",
                  createdAt: Date(2025-03-15T01:00:00.000Z),
                  archivedAt: nil
                ),
                days: []
              )
            ],
            today: Day(
              year: 2025,
              month: 3,
              day: 15
            )
          ),
          ledger: Ledger.State(
            transactions: [],
            months: [],
            categoryKind: .expense,
            destination: nil,
            isLoading: false
          ),
          interchange: Interchange.State(
            isImporting: false,
            progress: nil,
            report: nil,
            isExporting: false,
            exportedFile: nil,
            failure: nil
          )
        )

        """)
  }

  @Test func helpShowsTheAmountAndTheRefEachWithAHelpLine() async throws {
    let help = try await transcript("help ledger").transcript
    #expect(
      help.contains(
        """
        ledger add income|expense <amount> [<memo>] [--on YYYY-MM-DD] [--category NAME]
            Record income or an expense.
            income|expense   whether money came in or went out
            <amount>         the amount, such as 12.50 or 1,234.50: more than zero, at most 2 decimals
            <memo>           what it was for
        """))
    #expect(
      help.contains(
        """
            Change a transaction.
            <ref>                  the short id a listing shows, or a name (any unique start or part)
            --kind income|expense  income or expense
            --amount AMOUNT        the amount, such as 12.50 or 1,234.50: more than zero, at most 2 decimals
        """))
  }

  @Test func helpListsEveryCommandAndANounsOptions() async throws {
    let result = try await transcript("help habit")
    #expect(
      result.transcript == """
        > help habit
        habit — habits to do every day, their streaks and a heat map

        habit add <name>
            Start tracking a habit.
            <name>  the habit's name
        habit list [--limit N] [--offset N] [--format text|json]
            List the habits with today's progress and streaks.
            --limit N           print at most N rows
            --offset N          skip the first N rows
            --format text|json  json prints the data as JSON instead of a table
        habit done <ref> [--on YYYY-MM-DD]
            Mark a habit done today, or on an earlier day.
            <ref>            the short id a listing shows, or a name (any unique start or part)
            --on YYYY-MM-DD  the day (today by default)
        habit undo <ref> [--on YYYY-MM-DD]
            Take back a habit's completion.
            <ref>            the short id a listing shows, or a name (any unique start or part)
            --on YYYY-MM-DD  the day (today by default)
        habit rename <ref> <name>
            Rename a habit.
            <ref>   the short id a listing shows, or a name (any unique start or part)
            <name>  the habit's new name
        habit archive <ref>
            Archive a habit: it keeps its history but takes no completions.
            <ref>  the short id a listing shows, or a name (any unique start or part)
        habit unarchive <ref>
            Make an archived habit active again.
            <ref>  the short id a listing shows, or a name (any unique start or part)
        habit show <ref> [--weeks N] [--format text|json]
            Show a habit's streaks and a heat map of its last weeks.
            <ref>               the short id a listing shows, or a name (any unique start or part)
            --weeks N           how many weeks the heat map shows
            --format text|json  json prints the data as JSON instead of a table
        habit rm <ref> [--yes]
            Delete a habit and its history (asks first).
            <ref>  the short id a listing shows, or a name (any unique start or part)
            --yes  delete without asking
        habit export <file> [--format json|csv]
            Export the habits and their completions as JSON or CSV.
            <file>             the file to write
            --format json|csv  the format to write (from the file's extension by default, else json)

        """)
    let overview = try await transcript("help").transcript
    for spec in [
      "link add <title> <url>", "category rename <name> <new name>", "habit rm <ref>",
      "ledger add income|expense <amount> [<memo>]", ":trace on|off", ":quit",
    ] {
      #expect(overview.contains("  \(spec)"), "help shows '\(spec)'")
    }
  }

  @Test(arguments: ["exit", ":quit"])
  func quittingStopsReading(_ command: String) async throws {
    let result = try await transcript("habit add Read\n\(command)\nhabit add Never")
    #expect(result.status == 0)
    #expect(
      result.transcript == """
        > habit add Read
        Added habit 'Read' (910a2de).
        > \(command)

        """)
  }

  @Test func aScriptStopsAtTheFirstFailingCommand() async throws {
    let result = try await transcript(
      "habit add Read\nhabit done zz\nhabit add Never", keepGoing: false)
    #expect(result.status == 1)
    #expect(
      result.transcript == """
        > habit add Read
        Added habit 'Read' (910a2de).
        > habit done zz
        ! test:2: error: no habit has the ref or name 'zz'
        ! 'habit list' shows every habit with its ref

        """)
  }

  @Test func keepGoingRunsEveryCommandAndStillFails() async throws {
    let result = try await transcript("habit done zz\nhabit add Read", keepGoing: true)
    #expect(result.status == 1)
    #expect(
      result.transcript == """
        > habit done zz
        ! test:1: error: no habit has the ref or name 'zz'
        ! 'habit list' shows every habit with its ref
        > habit add Read
        Added habit 'Read' (910a2de).

        """)
  }

  @Test func aFailureShownAsAnAlertDoesNotFailTheNextCommand() async throws {
    // NB: the links show a refused draft as their alert, which stays presented; the REPL reads
    // a failure from the response that carried it, so the next command is judged on its own.
    let result = try await transcript(
      "link add Swift swift.org\nhabit add Read")
    #expect(result.status == 1)
    #expect(
      result.transcript == """
        > link add Swift swift.org
        ! test:1: error: 'swift.org' is not a web address: enter an absolute http or https URL, \
        such as 'https://example.com'.
        > habit add Read
        Added habit 'Read' (910a2de).

        """)
  }

  @Test func interactiveErrorsDoNotEndTheSession() async throws {
    let result = try await transcript("habit done zz\nhabit add Read", mode: .interactive)
    #expect(result.status == 0)
    #expect(
      result.transcript == """
        > habit done zz
        ! error: no habit has the ref or name 'zz'
        ! 'habit list' shows every habit with its ref
        > habit add Read
        Added habit 'Read' (910a2de).

        """)
  }

  @Test func oneShotCommandsReturnTheirStatus() async throws {
    let log = Captured()
    let console = Console(writeOutput: { log.append($0) }, writeError: { log.append("! " + $0) })
    let session = Session(
      environment: try transcriptEnvironment(), console: console,
      configuration: Session.Configuration(mode: .oneShot))
    #expect(await session.run(words: ["habit", "add", "Read books"]) == 0)
    #expect(await session.run(words: ["habit", "done", "zz"]) == 1)
    #expect(
      log.value == """
        Added habit 'Read books' (910a2de).
        ! error: no habit has the ref or name 'zz'
        ! 'habit list' shows every habit with its ref

        """)
  }

  @Test func aStorageFailureNamesTheDatabaseFile() async throws {
    var environment = try transcriptEnvironment()
    let failure = HabitError.storageFailed("SQLite error 8: attempt to write a readonly database.")
    environment.habitClient = .failing(failure)
    let result = try await transcript(
      "habit add Read\nhabit list", environment: environment, databasePath: "/data/loop.sqlite")
    #expect(result.status == 1)
    #expect(
      result.transcript == """
        > habit add Read
        ! test:1: error: The habits could not be read or saved: SQLite error 8: attempt to write a readonly database.
        ! the database is '/data/loop.sqlite'
        > habit list
        ! test:2: error: The habits could not be read or saved: SQLite error 8: attempt to write a readonly database.
        ! the database is '/data/loop.sqlite'

        """)
  }
}
