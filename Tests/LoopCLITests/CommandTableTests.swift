import Foundation
import HabitClient
import LedgerClient
import Testing

@testable import LoopCLI

@Suite struct CommandTableTests {
  @Test func everyCommandHasAUniqueNameAndUsage() {
    let names = CommandTable.commands.map(\.name)
    #expect(Set(names).count == names.count)
    #expect(
      LedgerCommands.add.usage
        == "ledger add income|expense <amount> [<memo>] [--on YYYY-MM-DD] [--category NAME]")
  }

  @Test func everyListingTakesTheJSONFormat() {
    let listings = [
      LinkCommands.list, LinkCommands.search, LinkCommands.recent, LinkCommands.show,
      CategoryCommands.list, HabitCommands.list, HabitCommands.show, LedgerCommands.list,
      LedgerCommands.home, LedgerCommands.report,
    ]
    for command in listings {
      #expect(command.options.contains { $0.name == "format" }, "\(command.name)")
    }
  }

  @Test func parsesArgumentsAndOptionsInAnyOrder() throws {
    let (command, rest) = try CommandTable.command(
      for: ["ledger", "add", "--on", "2025-03-01", "expense", "--category=Food", "5", "Lunch"])
    #expect(
      try command.parse(rest).words
        == ParsedWords(
          arguments: ["kind": "expense", "amount": "5", "memo": "Lunch"],
          values: ["on": "2025-03-01", "category": "Food"]))
  }

  @Test func namedWordsAreTheSameWhateverTheOrderTheyWereGivenIn() {
    let given: NamedWords = ["kind": "expense", "amount": "5"]
    #expect(given == ["amount": "5", "kind": "expense"])
    #expect(given != ["amount": "5"])
    #expect(given != ["amount": "5", "kind": "income"])
    #expect(given != ["amount": "5", "memo": "expense"])
  }

  @Test func aNamedWordSetAgainIsReplacedAndOneSetToNilIsGone() {
    var words: NamedWords = ["kind": "expense", "amount": "5"]
    words["kind"] = "income"
    words["amount"] = nil
    words["memo"] = nil
    #expect(words["kind"] == "income")
    #expect(words["amount"] == nil)
    #expect(words == ["kind": "income"])
  }

  @Test func doubleDashEndsTheOptions() throws {
    let (command, rest) = try CommandTable.command(for: ["habit", "add", "--", "--weird name"])
    #expect(try command.parse(rest).words == ParsedWords(arguments: ["name": "--weird name"]))
  }

  @Test func negativeNumbersAreArguments() throws {
    let (command, rest) = try CommandTable.command(for: ["habit", "add", "-5"])
    #expect(try command.parse(rest).words == ParsedWords(arguments: ["name": "-5"]))
  }

  @Test @MainActor func theHandlerReceivesTheTypedValuesItDeclared() async throws {
    let received = Received()
    let command = Command(
      verb: "try", summary: "Try the parameters.", Argument.ref(.habit),
      Argument("count", help: "a count") { text throws(CommandError) in
        guard let count = Int(text) else { throw .usage("'\(text)' is not a count") }
        return count
      },
      Argument("switch", help: "on or off", choices: [("on", true), ("off", false)]),
      Option.day(), Option.window, Option.format, Option(flag: "yes", help: "agree")
    ) { _, ref, count, isOn, day, window, format, yes in
      received.values =
        "\(ref) \(count + 1) \(isOn) \(day.map(\.description) ?? "-") "
        + "\(window.offset)/\(window.limit ?? -1) \(format) \(yes)"
    }
    let invocation = try command.parse(
      ["ab", "41", "off", "--on", "2025-03-01", "--limit", "3", "--format", "json", "--yes"])
    let session = Session(
      environment: try transcriptEnvironment(),
      console: Console(writeOutput: { _ in }, writeError: { _ in }),
      configuration: Session.Configuration(mode: .oneShot))
    try await invocation.run(session)
    #expect(received.values == "ab 42 false 2025-03-01 0/3 json true")
  }

  @Test func aValueItsParameterCannotReadIsReportedWithTheUsageBeforeTheHandlerRuns() throws {
    #expect(
      throws: CommandError(
        "'many' is not a number of weeks",
        hints: ["usage: habit show <ref> [--weeks N] [--format text|json]"])
    ) { try HabitCommands.show.parse(["ab", "--weeks", "many"]) }
    #expect(
      throws: CommandError(
        "'2025-02-30' is not a date", hints: ["write dates as YYYY-MM-DD, such as 2025-03-01"])
    ) { try HabitCommands.done.parse(["ab", "--on", "2025-02-30"]) }
    #expect(
      throws: CommandError(
        "'gift' is not 'income' or 'expense'",
        hints: [
          "usage: ledger add income|expense <amount> [<memo>] [--on YYYY-MM-DD] [--category NAME]"
        ])
    ) { try LedgerCommands.add.parse(["gift", "5"]) }
  }

  static let mistakes: [([String], CommandError)] = [
    (
      ["habit", "rm", "ab", "--yes=no"],
      CommandError(
        "the option '--yes' takes no value", hints: ["usage: habit rm <ref> [--yes]"])
    ),
    (
      ["habit", "done", "ab", "--on"],
      CommandError(
        "the option '--on' needs a value", hints: ["usage: habit done <ref> [--on YYYY-MM-DD]"])
    ),
    (
      ["habit", "done", "ab", "--on", "x", "--on", "y"],
      CommandError(
        "the option '--on' is given twice", hints: ["usage: habit done <ref> [--on YYYY-MM-DD]"])
    ),
    (
      ["habit", "list", "--format", "xml"],
      CommandError(
        "'xml' is not a value of '--format': use 'text' or 'json'",
        hints: ["usage: habit list [--limit N] [--offset N] [--format text|json]"])
    ),
    (
      ["habit", "list", "--fromat", "json"],
      CommandError("'habit list' has no option '--fromat'", hints: ["did you mean '--format'?"])
    ),
  ]

  @Test(arguments: mistakes)
  func badOptionsAreReportedWithTheUsage(_ words: [String], _ error: CommandError) throws {
    let (command, rest) = try CommandTable.command(for: words)
    #expect(throws: error) { try command.parse(rest) }
  }

  static let completions: [([String], String, [String])] = [
    (
      [], "",
      [
        "link", "category", "habit", "ledger", "import", "export", "help", ":trace", ":state",
        ":record", ":quit", "exit",
      ]
    ),
    ([], "h", ["habit", "help"]),
    (
      ["habit"], "",
      ["add", "list", "done", "undo", "rename", "archive", "unarchive", "show", "rm", "export"]
    ),
    (["habit"], "un", ["undo", "unarchive"]),
    (["help"], "l", ["link", "ledger"]),
    ([":trace"], "o", ["on", "off"]),
    (["habit", "show", "ab"], "--", ["--weeks", "--format"]),
    (["habit", "show", "ab"], "x", []),
    (["nothing"], "", []),
  ]

  @Test(arguments: completions)
  func completesCommandsVerbsAndOptions(
    _ previous: [String], _ prefix: String, _ expected: [String]
  ) {
    #expect(CommandTable.completions(after: previous, prefix: prefix) == expected)
  }

  @Test func completesTheNamesOfTheLoadedItemsWhereARefGoesQuotingThoseWithSpaces() {
    let names: (Noun) -> [String] = { $0 == .habit ? ["Read 20 pages", "Run", "Stretch"] : [] }
    #expect(
      CommandTable.completions(after: ["habit", "done"], prefix: "r", names: names)
        == ["'Read 20 pages'", "Run"])
    #expect(
      CommandTable.completions(after: ["habit", "rename", "run"], prefix: "", names: names) == [])
    #expect(CommandTable.completions(after: ["link", "open"], prefix: "", names: names) == [])
  }
}

@MainActor
@Suite struct CompletionNamesTests {
  @Test func anInteractiveSessionOffersTheNamesOfWhatItLoaded() async throws {
    let session = Session(
      environment: try transcriptEnvironment(),
      console: Console(writeOutput: { _ in }, writeError: { _ in }),
      configuration: Session.Configuration(mode: .interactive))
    _ = await session.execute("habit add Read")
    _ = await session.execute("ledger add expense 5 Lunch")
    #expect(session.completionNames.names(of: .habit) == ["Read"])
    #expect(session.completionNames.names(of: .ledger) == ["Lunch"])
  }
}

/// What a test command's handler received, as one line.
@MainActor private final class Received {
  var values = ""
}

@Suite struct SuggestionTests {
  static let distances: [(String, String, Int)] = [
    ("link", "link", 0), ("lnik", "link", 1), ("lik", "link", 1), ("links", "link", 1),
    ("hbit", "habit", 1), ("ledgr", "ledger", 1), ("", "abc", 3), ("kitten", "sitting", 3),
  ]

  @Test(arguments: distances)
  func editDistanceCountsSwapsAsOneEdit(_ a: String, _ b: String, _ distance: Int) {
    #expect(Suggestion.editDistance(a, b) == distance)
    #expect(Suggestion.editDistance(b, a) == distance)
  }

  @Test func suggestsOnlyCloseWords() {
    let nouns = ["link", "category", "habit", "ledger"]
    #expect(Suggestion.closest(to: "lnik", among: nouns) == "link")
    #expect(Suggestion.closest(to: "Categroy", among: nouns) == "category")
    #expect(Suggestion.closest(to: "zzz", among: nouns) == nil)
    #expect(Suggestion.closest(to: "lg", among: nouns) == nil)
  }

  @Test func suggestsTheVerbThatOtherToolsCallByAnotherName() {
    let verbs = ["add", "list", "show", "rm", "update"]
    #expect(Suggestion.closest(to: "delete", among: verbs) == "rm")
    #expect(Suggestion.closest(to: "LS", among: verbs) == "list")
    #expect(Suggestion.closest(to: "edit", among: verbs) == "update")
    // Only among the candidates: a noun without 'fav' is not offered it.
    #expect(Suggestion.closest(to: "star", among: verbs) == nil)
  }

  @Test func anUnknownVerbByAnotherNameSuggestsOursAndRunsNothing() throws {
    #expect(
      throws: CommandError("unknown command 'link delete'", hints: ["did you mean 'link rm'?"])
    ) {
      _ = try CommandTable.command(for: ["link", "delete", "abc"])
    }
  }
}

@Suite struct RefTests {
  let a = UUID(uuidString: "9F3A0000-0000-0000-0000-000000000001")
  let b = UUID(uuidString: "9F3B0000-0000-0000-0000-000000000002")
  let c = UUID(uuidString: "0A000000-0000-0000-0000-000000000003")

  struct Habit { var id: UUID, name: String }

  func candidates(_ habits: [(String, String)]) throws -> RefCandidates<Habit> {
    RefCandidates(
      items: try habits.map { Habit(id: try #require(UUID(uuidString: $0.0)), name: $0.1) },
      id: \.id, name: \.name, itemName: "habit", noun: .habit)
  }

  var habits: RefCandidates<Habit> {
    get throws {
      try candidates([
        ("9F3A0000-0000-0000-0000-000000000001", "Read 20 pages"),
        ("9F3B0000-0000-0000-0000-000000000002", "Run"),
        ("0A000000-0000-0000-0000-000000000003", "Stretch"),
      ])
    }
  }

  @Test(arguments: [
    ("run", "Run"), ("READ 20 PAGES", "Read 20 pages"), ("str", "Stretch"),
    ("pages", "Read 20 pages"),
    ("9f3a", "Read 20 pages"), ("0a", "Stretch"),
  ])
  func aWordNamesTheItemWhoseRefOrNameItMatches(word: String, name: String) throws {
    let resolved = try Ref(word, naming: .habit).resolve(in: habits)
    #expect(resolved.item.name == name)
    #expect(resolved.note == nil)
  }

  @Test func aWholeNameIsPreferredToAStartOfAName() throws {
    let habits = try candidates([
      ("9F3A0000-0000-0000-0000-000000000001", "Run far"),
      ("9F3B0000-0000-0000-0000-000000000002", "Run"),
    ])
    #expect(try Ref("run", naming: .habit).resolve(in: habits).item.name == "Run")
  }

  @Test func aStartOfANameIsPreferredToAPartOfOne() throws {
    let habits = try candidates([
      ("9F3A0000-0000-0000-0000-000000000001", "Long run"),
      ("9F3B0000-0000-0000-0000-000000000002", "Running"),
    ])
    #expect(try Ref("run", naming: .habit).resolve(in: habits).item.name == "Running")
  }

  @Test func aWordThatStartsSeveralNamesListsThemAndTheirRefs() throws {
    let habits = try candidates([
      ("9F3A0000-0000-0000-0000-000000000001", "Read"),
      ("9F3B0000-0000-0000-0000-000000000002", "Rest"),
    ])
    let expected = CommandError(
      "the name 're' is ambiguous: it matches 2 habits",
      hints: ["  9f3a000  Read", "  9f3b000  Rest"])
    #expect(throws: expected) { try Ref("re", naming: .habit).resolve(in: habits) }
  }

  @Test func aWholeNameWinsOverARefAndSaysSo() throws {
    let habits = try candidates([
      ("ADD00000-0000-0000-0000-000000000001", "Stretch"),
      ("9F3B0000-0000-0000-0000-000000000002", "Add"),
    ])
    let resolved = try Ref("add", naming: .habit).resolve(in: habits)
    #expect(resolved.item.name == "Add")
    #expect(
      resolved.note
        == "'add' is the name of the habit 'Add'; it also starts the ref of 1 habit: took the name")
  }

  @Test func aRefWinsOverTheStartOfAnotherNameAndSaysSo() throws {
    let habits = try candidates([
      ("ADD00000-0000-0000-0000-000000000001", "Stretch"),
      ("9F3B0000-0000-0000-0000-000000000002", "Adding up"),
    ])
    let resolved = try Ref("add", naming: .habit).resolve(in: habits)
    #expect(resolved.item.name == "Stretch")
    #expect(
      resolved.note
        == "'add' starts the ref of the habit 'Stretch' and the name of 1 other habit: took the ref"
    )
  }

  @Test func aWordThatNamesNothingSaysWhereTheRefsAre() throws {
    let expected = CommandError(
      "no habit has the ref or name 'walk'", hints: ["'habit list' shows every habit with its ref"])
    #expect(throws: expected) { try Ref("walk", naming: .habit).resolve(in: habits) }
  }

  @Test func shortRefsAreSevenDigitsOrAsManyAsTellThemApart() throws {
    let ids = try [#require(a), #require(b), #require(c)]
    #expect(Ref.length(for: ids) == 7)
    let close = try [
      #require(a), #require(UUID(uuidString: "9F3A0000-1000-0000-0000-000000000000")),
    ]
    #expect(Ref.length(for: close) == 9)
    #expect(Ref.short(try #require(a), length: 7) == "9f3a000")
  }

  @Test func refsMatchInAnyCaseWithOrWithoutDashes() throws {
    let ids = try [#require(a), #require(b), #require(c)]
    #expect(try Ref("9F3", naming: .habit).matches(in: ids) == [a, b].compactMap { $0 })
    #expect(try Ref("9f3a0000-0000", naming: .habit).matches(in: ids) == [a].compactMap { $0 })
    #expect(try Ref("1", naming: .habit).matches(in: ids) == [])
  }

  @Test func aRefArgumentKeepsTheWordAsTypedAndReadsItsDigits() throws {
    let ref = try Argument.ref(.link).value(in: ParsedWords(arguments: ["ref": "9F3A-00"]))
    #expect(ref.text == "9F3A-00")
    #expect(ref.digits == "9f3a00")
    #expect(ref.description == "9F3A-00")
  }

  @Test(arguments: ["", " "])
  @MainActor func aBlankWordIsRefusedSayingWhatARefIsAndNoHandlerRuns(_ word: String) {
    let error = CommandError(
      "'\(word)' is not a ref or a name",
      hints: ["a ref is the start of an id, in hexadecimal, as 'ledger list' shows"])
    #expect(throws: error) { try Ref(word, naming: .ledger) }
    let received = Received()
    let command = Command(verb: "try", summary: "Try a ref.", Argument.ref(.ledger)) { _, _ in
      received.values = "ran"
    }
    #expect(throws: error) { try command.parse([word]) }
    #expect(received.values == "")
  }

  @Test(arguments: ["g1", "-", "Read", String(repeating: "a", count: 33)])
  func aWordThatCannotStartAnIdIsReadAsANameOnly(_ word: String) throws {
    let ref = try Ref(word, naming: .habit)
    #expect(ref.text == word)
    #expect(ref.digits == nil)
  }
}

@Suite struct AmountTests {
  static let amounts: [(String, Int64)] = [
    ("12.50", 1250), ("12", 1200), ("12.5", 1250), (".50", 50), ("1,234.50", 123_450), ("+3", 300),
    (" 7 ", 700), ("999,999,999.99", 99_999_999_999),
  ]

  @Test(arguments: amounts)
  func anAmountIsReadAsTheLedgerReadsItAndKeepsTheWordAsTyped(_ word: String, _ cents: Int64)
    throws
  {
    let amount = try Argument.amount.value(in: ParsedWords(arguments: ["amount": word]))
    #expect(amount.money.minorUnits == cents)
    #expect(amount.text == word)
    #expect(try Option.amount.value(in: ParsedWords(values: ["amount": word])) == amount)
  }

  static let mistakes: [(String, String)] = [
    ("abc", "'abc' is not an amount."),
    ("$5", "'$5' is not an amount."),
    ("12,5,0", "'12,5,0' is not an amount."),
    ("1.2.3", "'1.2.3' is not an amount."),
    ("12.345", "'12.345' has more than 2 decimal places."),
    ("0", "The amount must be greater than zero, not '0.00'."),
    ("-3", "The amount must be greater than zero, not '-3.00'."),
    ("1000000000", "'1000000000' is more than the largest amount, 999,999,999.99."),
  ]

  @Test(arguments: mistakes)
  @MainActor func aWordThatIsNoAmountIsRefusedWithTheLedgersSentenceAndNoHandlerRuns(
    _ word: String, _ message: String
  ) throws {
    let received = Received()
    let command = Command(
      verb: "try", summary: "Try an amount.", Argument.amount, Option.amount
    ) { _, _, _ in received.values = "ran" }
    #expect(throws: CommandError(message)) { try command.parse([word]) }
    #expect(throws: CommandError(message)) { try command.parse(["1", "--amount", word]) }
    #expect(received.values == "")
  }

  @Test func theLedgersCommandsReadTheirAmountsBeforeTheirHandlers() {
    #expect(throws: CommandError("'abc' is not an amount.")) {
      try LedgerCommands.add.parse(["expense", "abc", "Lunch"])
    }
    #expect(throws: CommandError("The amount must be greater than zero, not '-5.00'.")) {
      try LedgerCommands.update.parse(["71", "--amount", "-5"])
    }
  }
}

@Suite struct LaunchOptionsTests {
  @Test func readsOptionsThenTheOneShotCommand() throws {
    let options = try LaunchOptions(
      arguments: ["--db", "x.sqlite", "--keep-going", "ledger", "add", "expense", "5", "--on", "d"])
    #expect(options.databasePath == "x.sqlite")
    #expect(options.keepGoing)
    #expect(options.command == ["ledger", "add", "expense", "5", "--on", "d"])
  }

  @Test func readsHelpVersionScriptAndInMemory() throws {
    #expect(try LaunchOptions(arguments: ["--help"]).request == .help)
    #expect(try LaunchOptions(arguments: ["-h"]).request == .help)
    #expect(try LaunchOptions(arguments: ["--version"]).request == .version)
    #expect(try LaunchOptions(arguments: ["--script=a.loop"]).scriptPath == "a.loop")
    #expect(try LaunchOptions(arguments: ["--in-memory"]).inMemory)
  }

  @Test func theWordsAfterTheFirstThatIsNoOptionAreTheCommandsEvenOptions() throws {
    let options = try LaunchOptions(arguments: ["--in-memory", "habit", "list", "--db", "x"])
    #expect(options.inMemory && options.databasePath == nil)
    #expect(options.command == ["habit", "list", "--db", "x"])
    #expect(try LaunchOptions(arguments: ["--", "--help"]).command == ["--help"])
  }

  @Test func theHelpListsTheOptionsFromWhatReadsThem() {
    #expect(
      LaunchOptions.optionLines == [
        "  --db PATH|URL  the database file (default: $XDG_DATA_HOME/loop/loop.sqlite,",
        "                 or ~/.local/share/loop/loop.sqlite), or a PostgreSQL database:",
        "                 postgresql://user@host:port/name (LOOP_DATABASE_URL names one,",
        "                 or a file, when --db does not)",
        "  --in-memory    keep nothing: a database in memory only",
        "  --script FILE  run the commands in FILE",
        "  --keep-going   in a script, run the commands after a failing one (exit status 1)",
        "  --record FILE  record the session into FILE; 'loop replay FILE' replays it and",
        "                 checks every action and state (exit status 1 at the first difference);",
        "                 'loop replay FILE --record NEW' records it again as the app runs now",
        "  --version      print the version",
        "  --help         print this help",
      ])
  }

  static let mistakes: [([String], String)] = [
    (["--frobnicate"], "unknown option '--frobnicate'"),
    (["-x", "habit", "list"], "unknown option '-x'"),
    (["--db"], "the option '--db' needs a value"),
    (["--db", "a", "--db=b"], "the option '--db' is given twice"),
    (["--in-memory=yes"], "the option '--in-memory' takes no value"),
    (["--db", "x", "--in-memory"], "give either --db or --in-memory, not both"),
    (["--script", "s", "habit", "list"], "give either --script or a command, not both"),
  ]

  @Test(arguments: mistakes)
  func badArgumentsAreReported(_ arguments: [String], _ message: String) {
    #expect(throws: LaunchError(description: message)) { try LaunchOptions(arguments: arguments) }
  }
}

@Suite struct TerminalTests {
  @Test func noColoursOnAPipeOrWithNoColor() throws {
    let pipe = Pipe()
    let descriptor = pipe.fileHandleForWriting.fileDescriptor
    #expect(!Terminal.isTerminal(descriptor))
    #expect(!Terminal.usesColor(descriptor, environment: [:]))
    #expect(!Terminal.usesColor(descriptor, environment: ["NO_COLOR": ""]))
  }

  @Test func stylesAreANSIOnlyWhenEnabled() {
    #expect(Style(isEnabled: true).red("error:") == "\u{1B}[31merror:\u{1B}[0m")
    #expect(Style(isEnabled: false).red("error:") == "error:")
  }
}
