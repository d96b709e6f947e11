import Testing

@testable import LoopCLI

/// Effects whose client answers without suspending finish inside the `send` that started them:
/// a command then never leaves the main actor (each hop to the global executor and back woke a
/// thread, and cost a `link add` about half of its time).
@MainActor
@Suite struct SynchronousEffectsTests {
  @Test func aLinkListingIsLoadedInsideTheSendThatAskedForIt() async throws {
    let session = Session(
      environment: try transcriptEnvironment(),
      console: Console(writeOutput: { _ in }, writeError: { _ in }),
      configuration: Session.Configuration(mode: .oneShot))
    #expect(await session.run(words: ["link", "add", "Swift", "https://swift.org"]) == 0)

    // NB: not awaited: the rows must be there when `send` returns.
    session.store.send(.links(.screenSelected(.all)))

    #expect(session.store.state.links.all.rows.map(\.title) == ["Swift"])
  }
}
