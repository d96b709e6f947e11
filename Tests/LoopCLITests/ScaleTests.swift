import AppFeature
import Foundation
import LinkClient
import LinkClientLive
import LinkList
import Loop
import Persistence
import Testing

@testable import LoopCLI

/// The REPL at scale: a long generated script, and a database with 100,000 links.
@MainActor
@Suite(.serialized) struct ScaleTests {
  /// A script of `count` lines using every noun: it adds categories, links, comments, habits
  /// and transactions, completes habits, toggles favorites, shows, updates, lists, searches and
  /// removes, naming every model by the ref its id will have (`countingRefUUIDs`).
  static func generatedScript(lines count: Int) -> [String] {
    var lines: [String] = []
    var nextID: UInt32 = 0
    func newRef() -> String {
      defer { nextID += 1 }
      return hex8(nextID)
    }
    var links: [String] = []
    var transactions: [String] = []
    var habits: [String] = []
    for index in 0..<10 {
      lines.append("category add \"Category \(index)\"")
      _ = newRef()
    }
    var step = 0
    while lines.count < count {
      step += 1
      switch step % 20 {
      case 0, 1, 2:
        lines.append(
          "link add \"Link \(step)\" https://example.com/\(step) --category \"Category \(step % 10)\""
            + " --memo \"memo \(step)\"")
        links.append(newRef())
      case 3, 4, 5:
        let day = 1 + step % 28
        lines.append(
          "ledger add expense \(step % 90 + 1).25 \"Item \(step)\" --on 2025-02-\(day < 10 ? "0" : "")\(day)"
            + " --category \"C\(step % 5)\"")
        transactions.append(newRef())
      case 6:
        lines.append("ledger add income 1,000 Salary --on 2025-03-01")
        transactions.append(newRef())
      case 7:
        lines.append("habit add \"Habit \(step)\"")
        habits.append(newRef())
        lines.append("habit done \(habits[habits.count - 1])")
      case 8:
        lines.append("link comment \(links[step % links.count]) \"Comment \(step)\"")
        _ = newRef()
      case 9:
        lines.append("link fav \(links[step % links.count])")
      case 10:
        lines.append("link show \(links[step % links.count])")
      case 11:
        lines.append(
          "ledger update \(transactions[step % transactions.count]) --memo \"Changed \(step)\"")
      case 12:
        lines.append("link open \(links[step % links.count])")
        lines.append("link recent")
      case 13:
        lines.append("link search \"Link \(step - 10)\"")
      case 14:
        lines.append("habit undo \(habits[step % habits.count])")
        lines.append("habit done \(habits[step % habits.count])")
      case 15:
        lines.append(
          "link update \(links[step % links.count]) --title \"Renamed \(step)\" --no-category")
      case 16:
        lines.append("link rm \(links.removeLast())")
      case 17:
        lines.append("ledger rm \(transactions.removeLast())")
      case 18:
        lines.append("category list")
        lines.append("habit show \(habits[step % habits.count])")
      default:
        lines.append(step % 200 == 19 ? "ledger home" : "link unfav \(links[step % links.count])")
      }
    }
    lines += ["link list", "ledger report", "habit list"]
    return lines
  }

  @Test func aGeneratedScriptOfFiveThousandLinesRunsWithoutAFailure() async throws {
    let folder = try TemporaryFolder()
    let script = Self.generatedScript(lines: 5_000)
    #expect(script.count >= 5_000)
    let context = ModelContext(
      try ModelContainer(for: AppEnvironment.models, storage: .file(folder.path("big.sqlite"))))
    var environment = try transcriptEnvironment(context: context)
    environment.uuid = countingRefUUIDs()
    let errors = Captured()
    let output = Captured()
    let session = Session(
      environment: environment,
      console: Console(writeOutput: { output.append($0) }, writeError: { errors.append($0) }),
      configuration: Session.Configuration(mode: .script(name: "generated")))
    let status = await session.run(ScriptedLineReader(lines: script))
    #expect(errors.value == "")
    #expect(status == 0)
    #expect(output.value.contains("(12 months)"))
    #expect(session.state.links.all.rows.count == 415)
  }

  @Test func startingOnAHundredThousandLinksLoadsNone() async throws {
    let folder = try TemporaryFolder()
    let path = folder.path("links.sqlite")
    let count: UInt32 = 100_000
    do {
      let seeding = LinkClient.live(
        context: ModelContext(try ModelContainer(for: AppEnvironment.models, storage: .file(path))))
      let drafts = (0..<Int(count)).map {
        LinkDraft(title: "Link \($0)", url: "https://example.com/\($0)")
      }
      _ = try await withDependencies {
        $0.uuid = countingRefUUIDs()
        $0.date = .constant(transcriptNow)
      } operation: {
        try await seeding.addLinks(drafts)
      }
    }

    let context = ModelContext(try ModelContainer(for: AppEnvironment.models, storage: .file(path)))
    let log = Captured()
    let session = Session(
      environment: try transcriptEnvironment(context: context),
      console: Console(writeOutput: { log.append($0) }, writeError: { log.append("! " + $0) }),
      configuration: Session.Configuration(mode: .interactive))
    #expect(session.state.links.all.rows.isEmpty)
    #expect(session.state.links.recent.rows.isEmpty)
    #expect(session.state.links.search.rows.isEmpty)
    #expect(session.state.links.lookup.refMatches == [])

    let last = hex8(count - 1)
    #expect(await session.execute("link show \(last)") == .success)
    #expect(session.state.links.lookup.refMatches.map(\.title) == ["Link 99999"])
    #expect(await session.execute("link add New https://example.com/new") == .success)
    #expect(await session.execute("link open \(last)") == .success)
    #expect(await session.execute("link recent") == .success)
    #expect(session.state.links.all.rows.isEmpty, "no command so far listed every link")
    #expect(session.state.links.recent.rows.map(\.title) == ["Link 99999"])
    #expect(log.value.hasPrefix("Link 99999 \(last)\nhttps://example.com/99999\n"))

    let run = try runLoop(["--db", path, "link", "show", hex8(12_345)], dataHome: folder.url)
    #expect(run.status == 0)
    #expect(run.output.hasPrefix("Link 12345 \(hex8(12_345))\n"))
  }
}
