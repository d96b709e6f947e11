import AppFeature
import LinkList
import Loop
import Testing

@testable import LoopCLI

/// Effects whose client answers without suspending finish inside the `send` that started them.
///
/// A command then never leaves the main actor (each hop to the global executor and back woke a
/// thread, and cost a `link add` about half of its time). Only the endpoints whose work grows
/// with the data leave it, so that the session keeps answering the keyboard meanwhile.
@MainActor
@Suite struct SynchronousEffectsTests {
  func makeSession() throws -> Session {
    Session(
      environment: try transcriptEnvironment(),
      console: Console(writeOutput: { _ in }, writeError: { _ in }),
      configuration: Session.Configuration(mode: .oneShot))
  }

  @Test func theRecentLinksAreLoadedInsideTheSendThatAskedForThem() async throws {
    let session = try makeSession()
    // NB: the seeded ids give the first link the ref 910a2de.
    #expect(await session.run(words: ["link", "add", "Swift", "https://swift.org"]) == 0)
    #expect(await session.run(words: ["link", "open", "910a2de"]) == 0)

    // NB: not awaited: the rows must be there when `send` returns.
    session.store.send(.links(.screenSelected(.recent)))

    #expect(session.store.state.links.recent.rows.map(\.title) == ["Swift"])
  }

  @Test func aPageOfAllLinksIsReadOffTheMainActor() async throws {
    let session = try makeSession()
    #expect(await session.run(words: ["link", "add", "Swift", "https://swift.org"]) == 0)

    let task = session.store.send(.links(.screenSelected(.all)))

    #expect(session.store.state.links.all.rows.isEmpty)
    await task.finish()
    #expect(session.store.state.links.all.rows.map(\.title) == ["Swift"])
  }
}
