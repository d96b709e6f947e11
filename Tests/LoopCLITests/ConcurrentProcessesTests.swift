import Foundation
import HabitClient
import LinkClient
import LoopCLI
import Persistence
import Testing

/// Two `loop` processes writing one file at once: one importing 100,000 links in a single
/// transaction, the other adding links and completing habits meanwhile.
@Suite(.serialized) struct ConcurrentProcessesTests {
  @Test func aSessionWritingDuringALargeImportWaitsAndNeitherLosesAWrite() throws {
    let folder = try TemporaryFolder()
    let db = folder.path("data.sqlite")
    var habits: [String] = []
    for number in 1...5 {
      let added = try runLoop(
        ["--db", db, "habit", "add", "Habit \(number)"], dataHome: folder.url)
      let answer = added.output.trimmingCharacters(in: .newlines)
      let ref = try #require(answer.split(separator: "(").last?.dropLast(2))
      habits.append(String(ref))
    }
    let csv = folder.path("links.csv")
    try Data(ImportBinaryTests.linksCSV(count: 100_000).utf8).write(to: URL(fileURLWithPath: csv))

    let importer = try LoopProcess(["--db", db, "link", "import", csv], dataHome: folder.url)
    // NB: once the import's pages spill into the write-ahead log it holds the write lock, and
    // keeps it until it commits: the session's writes must wait for it, however long it takes.
    let log = db + "-wal"
    let patience = Date(timeIntervalSinceNow: 300)
    while Date() < patience,
      ((try? FileManager.default.attributesOfItem(atPath: log)[.size] as? Int) ?? 0) < 1_000_000
    {
      usleep(5_000)
    }
    let session = try LoopProcess(["--db", db], dataHome: folder.url)
    var answers: [String] = []
    for number in 1...20 {
      var commands = ["link add 'Side \(number)' https://side.example/\(number)"]
      if number <= habits.count { commands.append("habit done \(habits[number - 1])") }
      for command in commands {
        guard (try? session.send(command)) != nil else { break }
        answers.append(session.output.next(before: patience) ?? "no answer to '\(command)'")
      }
    }
    #expect(try session.finish() == 0)
    #expect(session.errors.rest() == [])
    #expect(answers.count { $0.hasPrefix("Added link 'Side ") } == 20, "\(answers)")
    #expect(answers.count { $0.hasPrefix("Done: 'Habit ") } == 5, "\(answers)")

    #expect(try importer.finish() == 0)
    #expect(importer.errors.rest() == [])
    #expect(
      importer.output.rest().first
        == "Imported 100,000 links, 100 categories; skipped 0 duplicates; rejected 0.")

    let container = try ModelContainer(for: AppEnvironment.models, storage: .file(db))
    try container.checkIntegrity()
    let context = ModelContext(container)
    #expect(try context.fetchCount(FetchDescriptor<Link>()) == 100_020)
    #expect(try context.fetchCount(FetchDescriptor<Completion>()) == 5)
  }
}
