import Foundation
import Interchange
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

  @Test(arguments: Noun.allCases)
  func theNounLoadsThroughTheAppsClientsOnTheAppsModels(_ noun: Noun) async throws {
    let session = Session(
      environment: try transcriptEnvironment(),
      console: Console(writeOutput: { _ in }, writeError: { _ in }),
      configuration: Session.Configuration(mode: .oneShot))
    try await session.load(noun)
    #expect(session.state.errorMessages.isEmpty)
    #expect(session.loaded == [noun])
  }

  @Test(arguments: Noun.allCases)
  func theNounsFeatureShowsItsErrorAndErrorsDismissedClearsIt(_ noun: Noun) async throws {
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
      #expect(session.state.errorMessages == [error.message])
    }
    #expect(!session.loaded.contains(noun))
    await session.store.send(.errorsDismissed).finish()
    #expect(session.state.errorMessages.isEmpty)
  }

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
}
