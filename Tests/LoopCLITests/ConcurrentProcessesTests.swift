import Foundation
import HabitClient
import LinkClient
import LoopCLI
import Persistence
import TestSupport
import Testing

/// Two `loop` processes writing one database at once (a file, or PostgreSQL: two machines on
/// one server): one importing 100,000 links in a single transaction, the other adding links and
/// completing habits meanwhile.
@Suite(.serialized) struct ConcurrentProcessesTests {
  @Test(arguments: Backend.persistent)
  func aSessionWritingDuringALargeImportWaitsAndNeitherLosesAWrite(_ backend: Backend) throws {
    let folder = try TemporaryFolder()
    let db = folder.database(backend)
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
    let patience = Date(timeIntervalSinceNow: 300)
    while Date() < patience, !(try isWriting(importer: backend, db: db, folder: folder)) {
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

    let container = try ModelContainer(
      for: AppEnvironment.models, storage: folder.storage(backend))
    try container.checkIntegrity()
    let context = ModelContext(container)
    #expect(try context.fetchCount(FetchDescriptor<Link>()) == 100_020)
    #expect(try context.fetchCount(FetchDescriptor<Completion>()) == 5)
  }

  /// Whether the import holds the write lock, which it keeps until it commits: the session's
  /// writes must then wait for it, however long it takes.
  ///
  /// NB: in a file, once the import's pages spill into the write-ahead log; on PostgreSQL, once
  /// its transaction has written (it took Loop's lock before).
  private func isWriting(importer backend: Backend, db: String, folder: TemporaryFolder) throws
    -> Bool
  {
    switch backend {
    case .postgres:
      let schema = try #require(PostgresTestServer.schema(for: folder.url))
      let writers = try PostgresTestServer.value(
        "SELECT count(*) FROM pg_stat_activity WHERE application_name = '\(schema)' AND "
          + "backend_xid IS NOT NULL")
      return writers != "0"
    default:
      let log = db + "-wal"
      return ((try? FileManager.default.attributesOfItem(atPath: log)[.size] as? Int) ?? 0)
        >= 1_000_000
    }
  }
}
