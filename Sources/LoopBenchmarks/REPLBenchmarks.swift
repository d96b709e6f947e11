import Foundation
import HabitClient
import LedgerClient
import LinkClient
import Loop
import LoopCLI
import Persistence

/// Row 6: the REPL in script mode on an in-memory database, beside the same writes made by
/// calling the clients directly (what the commands come down to); row 7: `link import`.
@MainActor
enum REPLBenchmarks {
  static func run(_ settings: Settings) async throws -> [Measurement] {
    var measurements: [Measurement] = []
    let commands = settings.size(10_000, quick: 90)
    let scriptName = "script mode, \(commands.formatted()) add commands, in memory"
    if settings.includes(scriptName) {
      measurements.append(try await script(commands, name: scriptName, settings))
    }
    let rows = settings.size(100_000, quick: 500)
    let importName = "link import, \(rows.formatted()) CSV rows, fresh SQLite file"
    if settings.includes(importName) {
      measurements.append(try await linkImport(rows, name: importName, settings))
    }
    return measurements
  }

  /// `commands` commands of a script, beside the client calls they make.
  private static func script(
    _ commands: Int, name: String, _ settings: Settings
  ) async throws -> Measurement {
    let script = (0..<commands).map { index -> String in
      switch index % 3 {
      case 0: "link add \"Link \(index)\" https://example.com/\(index)"
      case 1: "habit add \"Habit \(index)\""
      default: "ledger add expense \(index % 90 + 1).25 \"Item \(index)\""
      }
    }
    var failures: Int32 = 0
    // NB: ten thousand commands warm the code up in their first hundred; no separate warm-up.
    let times = try await medianTimes(runs: settings.longRuns, warmUp: false) {
      let session = Session(
        environment: try environment(),
        console: Console(writeOutput: { _ in }, writeError: { _ in }),
        configuration: .init(mode: .script(name: "bench")))
      failures += await session.run(ScriptedLineReader(lines: script))
    } baseline: {
      let environment = try environment()
      for index in 0..<commands {
        switch index % 3 {
        case 0:
          // NB: a `link add` stores the link and reads the digits its ref needs.
          let link = try await environment.linkClient.addLink(
            LinkDraft(title: "Link \(index)", url: "https://example.com/\(index)"))
          _ = try await environment.linkClient.fetchIDPrefixLength(link.id)
        case 1:
          _ = try await environment.habitClient.addHabit("Habit \(index)")
        default:
          // NB: the id from the same generator as the REPL's, as the feature makes it.
          _ = try await environment.ledgerClient.addTransaction(
            LedgerTransaction(
              id: LedgerTransaction.ID(environment.uuid()), kind: .expense,
              amount: Money(minorUnits: Int64(index % 90 + 1) * 100 + 25), date: Date(),
              memo: "Item \(index)", createdAt: Date()))
        }
      }
    }
    guard failures == 0 else {
      throw PersistenceBenchmarks.Failure(description: "the benchmark script failed")
    }
    return Measurement(
      group: "REPL", name: name, operations: commands, ours: times.ours,
      baseline: times.baseline, baselineName: "the same client calls", unit: .perSecond)
  }

  /// `link import` of a generated CSV of `rows` links into a fresh SQLite file, beside the links
  /// it stores inserted through `ModelContext` in one transaction (the import's physical limit).
  private static func linkImport(
    _ rows: Int, name: String, _ settings: Settings
  ) async throws -> Measurement {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("loop-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    // A category on every third link (five of them), a memo on every fourth.
    let names = ["Reading", "Work", "Swift", "News", "Recipes"]
    var csv = "title,url,category,memo\n"
    for index in 0..<rows {
      let category = index % 3 == 0 ? names[index % 5] : ""
      let memo = index % 4 == 0 ? "memo \(index)" : ""
      csv += "Link \(index),https://example.com/page/\(index),\(category),\(memo)\n"
    }
    let csvPath = folder.appendingPathComponent("links.csv").path
    try csv.write(toFile: csvPath, atomically: true, encoding: .utf8)

    // The models the import stores: the categories, then the links with ascending ids.
    let now = Date()
    let categories = names.map { Category(id: Category.ID(UUID()), name: $0, createdAt: now) }
    let ids = (0..<rows).map { _ in Link.ID(UUID()) }.sorted()
    let links = try (0..<rows).map { index in
      guard let url = URL(string: "https://example.com/page/\(index)") else {
        throw PersistenceBenchmarks.Failure(description: "a generated address is not a URL")
      }
      return Link(
        id: ids[index], title: "Link \(index)", url: url,
        categoryID: index % 3 == 0 ? categories[index % 5].id : nil,
        memo: index % 4 == 0 ? "memo \(index)" : nil, createdAt: now)
    }

    var run = 0
    var failures: Int32 = 0
    func freshContext() throws -> ModelContext {
      run += 1
      let path = folder.appendingPathComponent("loop-\(run).sqlite").path
      return ModelContext(try ModelContainer(for: AppEnvironment.models, storage: .file(path)))
    }
    let times = try await medianTimes(runs: settings.longRuns) {
      let session = Session(
        environment: .live(context: try freshContext()),
        console: Console(writeOutput: { _ in }, writeError: { _ in }),
        configuration: .init(mode: .script(name: "bench")))
      failures += await session.run(words: ["link", "import", csvPath])
    } baseline: {
      try freshContext().transaction { context in
        for category in categories { try context.insert(category) }
        for link in links { try context.insert(link) }
      }
    }
    guard failures == 0 else {
      throw PersistenceBenchmarks.Failure(description: "the benchmark import failed")
    }
    return Measurement(
      group: "REPL", name: name, operations: rows, ours: times.ours,
      baseline: times.baseline, baselineName: "ModelContext.insert, one transaction",
      unit: .perSecond)
  }

  /// A fresh in-memory database with the live clock, ids and calendar.
  private static func environment() throws -> AppEnvironment {
    AppEnvironment.live(
      context: ModelContext(try ModelContainer(for: AppEnvironment.models, storage: .inMemory)))
  }
}
