import Foundation
import LinkClient
import LoopCLI
import Persistence
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The `loop` binary importing and exporting files, and being killed in the middle of an import.
@Suite(.serialized) struct ImportBinaryTests {
  /// A link CSV of `count` rows in 100 categories.
  static func linksCSV(count: Int) -> String {
    var text = "title,url,category\n"
    text.reserveCapacity(count * 50)
    for index in 0..<count {
      text += "Page \(index),https://example.com/page/\(index),Folder \(index % 100)\n"
    }
    return text
  }

  /// How many links the database file holds, after checking it is sound (`PRAGMA
  /// integrity_check` answers `ok`).
  static func checkedLinkCount(in path: String) throws -> Int {
    try checkedLinkCount(in: .file(path))
  }

  /// How many links `storage` holds, after checking it is sound.
  static func checkedLinkCount(in storage: ModelContainer.Storage) throws -> Int {
    let container = try ModelContainer(for: AppEnvironment.models, storage: storage)
    try container.checkIntegrity()
    return try ModelContext(container).fetchCount(FetchDescriptor<Link>())
  }

  @Test func anImportOnPipesPrintsTheSummaryAndNoProgress() throws {
    let folder = try TemporaryFolder()
    let csv = folder.path("links.csv")
    try Data(Self.linksCSV(count: 2_500).utf8).write(to: URL(fileURLWithPath: csv))
    let db = folder.path("data.sqlite")
    let run = try runLoop(["--db", db, "link", "import", csv], dataHome: folder.url)
    #expect(run.status == 0)
    #expect(run.error == "")
    let lines = run.output.split(separator: "\n").map(String.init)
    #expect(
      lines.first == "Imported 2,500 links, 100 categories; skipped 0 duplicates; rejected 0.")
    #expect(lines.count == 2)
    #expect(lines.last?.hasPrefix("2,500 entries in ") == true)
    #expect(try Self.checkedLinkCount(in: db) == 2_500)

    let export = folder.path("links.html")
    let exported = try runLoop(["--db", db, "link", "export", export], dataHome: folder.url)
    #expect(
      exported.output == "Exported 2,500 links, 100 categories to '\(export)' (bookmark HTML).\n")
    let again = try runLoop(
      ["--db", db, "link", "import", export, "--dry-run"], dataHome: folder.url)
    #expect(
      again.output.hasPrefix(
        "Would import nothing; skipped 2,500 duplicates; rejected 0.\nNothing was written (--dry-run).\n"
      ))
  }

  @Test(arguments: Backend.persistent)
  func killingAnImportOfOneHundredThousandRowsLeavesAllOrNothing(_ backend: Backend) throws {
    let folder = try TemporaryFolder()
    let db = folder.database(backend)
    let seed = try runLoop(
      ["--db", db, "link", "add", "Seed", "https://seed.example"], dataHome: folder.url)
    #expect(seed.status == 0)
    let csv = folder.path("links.csv")
    try Data(Self.linksCSV(count: 100_000).utf8).write(to: URL(fileURLWithPath: csv))

    let process = Process()
    process.executableURL = try loopBinary()
    process.arguments = ["--db", db, "link", "import", csv]
    process.environment = ["XDG_DATA_HOME": folder.url.path]
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    // NB: the import writes in one transaction; once 2 MB of it are written (pages spilled into
    // the file's write-ahead log, or the links table grown by rows no one else sees yet on
    // PostgreSQL) it is part-way through its rows: that is when to kill it. (A machine fast
    // enough to finish first still leaves all the rows, which the check below accepts.)
    var killed = false
    for _ in 0..<24_000 where process.isRunning {
      if try Self.bytesWritten(by: backend, in: folder) > 2_000_000 {
        kill(process.processIdentifier, SIGKILL)
        killed = true
        break
      }
      usleep(5_000)
    }
    if !killed, process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()

    #expect(killed)
    #expect(process.terminationReason == .uncaughtSignal)
    // All or nothing: the seed alone, or the seed and every imported row.
    let count = try Self.checkedLinkCount(in: folder.storage(backend))
    #expect(count == 1 || count == 100_001)
  }

  /// How much an import into `backend`'s storage in `folder` has written so far: the size of
  /// the file's write-ahead log, or of the links table and its indexes on PostgreSQL (which
  /// grow with rows not yet committed).
  private static func bytesWritten(by backend: Backend, in folder: TemporaryFolder) throws -> Int {
    switch backend {
    case .postgres:
      let schema = try #require(PostgresTestServer.schema(for: folder.url))
      let size = try PostgresTestServer.value(
        "SELECT coalesce(pg_total_relation_size(to_regclass('\(schema).links')), 0)")
      return size.flatMap { Int($0) } ?? 0
    default:
      let log = folder.database(backend) + "-wal"
      return (try? FileManager.default.attributesOfItem(atPath: log)[.size] as? Int) ?? 0
    }
  }
}
