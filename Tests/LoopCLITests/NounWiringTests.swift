import AppFeature
import CategoryClient
import Foundation
import HabitClient
import Interchange
import LedgerClient
import LinkClient
import Loop
import Persistence
import Testing

@testable import LoopCLI

/// Every declared noun is wired everywhere a noun must be.
///
/// The checklist in ARCHITECTURE.md: a case of ``Noun`` has its commands in the table, `help`
/// and completion; its feature in `AppFeature`, scoped, with its errors shown and cleared; its
/// client in ``AppEnvironment`` and its models in the app's container. A noun that misses one
/// fails a test here, for that noun.
@MainActor
@Suite struct NounWiringTests {
  // Checklist step 4.
  @Test(arguments: Noun.allCases)
  func theCommandTableFindsEveryCommandOfTheNoun(_ noun: Noun) throws {
    #expect(!noun.commands.isEmpty)
    for command in noun.commands {
      #expect(command.noun == noun, "'\(command.name)' is filed under '\(noun.rawValue)'")
      let (found, rest) = try CommandTable.command(for: [noun.rawValue, command.verb])
      #expect(found.name == command.name)
      #expect(rest.isEmpty)
    }
  }

  // Checklist step 4.
  @Test(arguments: Noun.allCases)
  func helpAndCompletionOfferTheNoun(_ noun: Noun) {
    let overview = Help.overview(style: Style(isEnabled: false))
    #expect(("\n" + overview).contains("\n\(noun.rawValue) — \(noun.summary)\n"))
    #expect(CommandTable.completions(after: [], prefix: noun.rawValue).contains(noun.rawValue))
    #expect(
      CommandTable.completions(after: [noun.rawValue], prefix: "")
        == noun.commands.map(\.verb).reduce(into: []) { verbs, verb in
          if !verbs.contains(verb) { verbs.append(verb) }
        })
  }

  // Checklist step 3.
  @Test(arguments: Noun.allCases)
  func theNounLoadsThroughTheAppsClientsOnTheAppsModels(_ noun: Noun) async throws {
    let session = Session(
      environment: try transcriptEnvironment(),
      console: Console(writeOutput: { _ in }, writeError: { _ in }),
      configuration: Session.Configuration(mode: .oneShot))
    try await session.load(noun)
    #expect(session.loaded == [noun])
  }

  // Checklist step 2.
  @Test(arguments: Noun.allCases)
  func theNounsFeatureFailureReachesTheREPL(_ noun: Noun) async throws {
    // NB: a container without a table: every client call fails, through the app's clients.
    let context = ModelContext(try ModelContainer(for: [], storage: .inMemory))
    let session = Session(
      environment: .live(context: context),
      console: Console(writeOutput: { _ in }, writeError: { _ in }),
      configuration: Session.Configuration(mode: .oneShot))
    do {
      try await session.load(noun)
      Issue.record("loading '\(noun.rawValue)' on a database without tables did not fail")
    } catch {
      // NB: the client's storage failure, as its domain's error words it (tested word for word
      // with each client): whatever the noun, its model is the one missing.
      #expect(error.message.contains(" is not registered with this container; pass "))
    }
    #expect(!session.loaded.contains(noun))
  }

  // Checklist step 2.
  @Test(arguments: Noun.allCases)
  func theNounsClientFailingToSaveFailsTheScriptWithItsReason(_ noun: Noun) async throws {
    // NB: the REPL learns of the failure from the `Result` of the client's response, whatever
    // the client's error type.
    let reason = "SQLite error 8: attempt to write a readonly database."
    var environment = try transcriptEnvironment()
    let command: String
    switch noun {
    case .link:
      environment.linkClient = .failing(.storageFailed(reason))
      command = "link add Swift https://swift.org"
    case .category:
      environment.categoryClient = .failing(.storageFailed(reason))
      command = "category add Reading"
    case .habit:
      environment.habitClient = .failing(.storageFailed(reason))
      command = "habit add Read"
    case .ledger:
      environment.ledgerClient = .failing(.storageFailed(reason))
      command = "ledger add expense 12.50 Lunch"
    }
    let result = try await transcript(command, environment: environment)
    #expect(result.status == 1)
    #expect(result.transcript.contains("! test:1: error: "))
    #expect(result.transcript.contains(reason))
  }

  // Checklist step 4.
  @Test func everyNounThatImportsHasAnImportScope() {
    // NB: what a noun's `import` wrote must load again: the session forgets the nouns an import
    // changes, by their import scope.
    let importing = Noun.allCases.filter { $0.commands.contains { $0.verb == "import" } }
    #expect(!importing.isEmpty)
    for noun in importing {
      #expect(noun.importScope != nil, "'\(noun.rawValue) import' has no import scope")
    }
  }

  @Test(arguments: [
    (DataScope.links, [Noun.link, .category]), (.habits, [.habit]), (.ledger, [.ledger]),
    (.everything, Noun.allCases),
  ])
  func anImportChangesTheNounsOfItsScope(_ scope: DataScope, _ nouns: [Noun]) {
    #expect(Noun.allCases.filter { $0.isChanged(byImportOf: scope) } == nouns)
  }

  // Checklist step 5.
  @Test(arguments: Noun.allCases)
  func theNounsItemIsNamedByTheStartOfItsName(_ noun: Noun) async throws {
    // NB: a switch, not a table: a new noun does not compile until it says how it is named.
    let (script, answer) =
      switch noun {
      case .link:
        (
          "link add 'Zebra crossing' https://example.com/zebra\nlink fav zeb",
          "'Zebra crossing' is a favorite now."
        )
      case .category:
        ("category add Zebra\ncategory rename zebra Yak", "Renamed category 'Zebra' to 'Yak'.")
      case .habit: ("habit add 'Zebra watch'\nhabit archive zeb", "Archived 'Zebra watch'.")
      case .ledger:
        (
          "ledger add expense 5 'Zebra ticket'\nledger rm zeb",
          "Deleted expense 5.00 'Zebra ticket' on 2025-03-15."
        )
      }
    let result = try await transcript(script)
    #expect(result.status == 0)
    #expect(result.transcript.hasSuffix(answer + "\n"), "\(result.transcript)")
  }
}
