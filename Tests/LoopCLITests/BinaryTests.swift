import Foundation
import HabitClient
import LedgerClient
import LinkClient
import Loop
import LoopCLI
import Persistence
import Synchronization
import TestSupport
import Testing

/// What a run of the `loop` binary printed and returned.
struct Run {
  var output: String
  var error: String
  var status: Int32
}

/// The `loop` binary the package built, next to the test bundle.
///
/// `LOOP_BINARY` names another one: `.ci/run` points it at the release build, since the binary
/// users run is optimized and a miscompiled path shows only there.
func loopBinary() throws -> URL {
  if let path = ProcessInfo.processInfo.environment["LOOP_BINARY"] {
    guard FileManager.default.isExecutableFile(atPath: path) else {
      throw BinaryNotBuilt(path: path)
    }
    return URL(fileURLWithPath: path)
  }
  var folder = Bundle.main.bundleURL
  if folder.pathExtension == "xctest" { folder.deleteLastPathComponent() }
  let binary = folder.appendingPathComponent("loop")
  guard FileManager.default.isExecutableFile(atPath: binary.path) else {
    throw BinaryNotBuilt(path: binary.path)
  }
  return binary
}

extension Process {
  /// Makes this process run the `loop` binary with `arguments`; with `umask`, through `/bin/sh`,
  /// which sets the umask and then becomes `loop` (`exec`), so the process is `loop` itself.
  func runLoop(_ arguments: [String], umask: String?) throws {
    let binary = try loopBinary()
    guard let umask else {
      executableURL = binary
      self.arguments = arguments
      return
    }
    executableURL = URL(fileURLWithPath: "/bin/sh")
    self.arguments = ["-c", "umask \(umask) && exec \"$0\" \"$@\"", binary.path] + arguments
  }
}

struct BinaryNotBuilt: Error, CustomStringConvertible {
  var path: String
  var description: String { "No 'loop' binary at '\(path)': run 'swift build --build-tests'." }
}

/// Runs the `loop` binary with `arguments`, `input` piped to its standard input, and an
/// environment whose data home is `dataHome` (so nothing touches the real one); with `umask`
/// (`"022"`), under that umask.
func runLoop(
  _ arguments: [String], input: String = "", dataHome: URL,
  environment extra: [String: String] = [:], umask: String? = nil
) throws -> Run {
  let process = Process()
  try process.runLoop(arguments, umask: umask)
  var environment = ProcessInfo.processInfo.environment
  environment["XDG_DATA_HOME"] = dataHome.path
  // NB: the tests say where the data is; the environment running them must not.
  environment["LOOP_DATABASE_URL"] = nil
  environment.merge(extra) { $1 }
  process.environment = environment
  let stdin = Pipe()
  let stdout = Pipe()
  let stderr = Pipe()
  process.standardInput = stdin
  process.standardOutput = stdout
  process.standardError = stderr
  try process.run()
  stdin.fileHandleForWriting.write(Data(input.utf8))
  try stdin.fileHandleForWriting.close()
  // NB: read both pipes before waiting, so a full pipe never blocks the child.
  let errorData = Mutex(Data())
  let errorRead = DispatchSemaphore(value: 0)
  Thread {
    let data = stderr.fileHandleForReading.readDataToEndOfFile()
    errorData.withLock { $0 = data }
    errorRead.signal()
  }.start()
  let output = stdout.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  errorRead.wait()
  return Run(
    output: String(decoding: output, as: UTF8.self),
    error: String(decoding: errorData.withLock { $0 }, as: UTF8.self),
    status: process.terminationStatus)
}

/// A fresh temporary folder, removed when the test ends.
final class TemporaryFolder: Sendable {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("loop-cli-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit {
    Backend.removeStorage(in: url)
  }

  func path(_ name: String) -> String { url.appendingPathComponent(name).path }

  /// Where `backend` keeps a test's data in this folder: the file `data.sqlite`, or a schema of
  /// the PostgreSQL test server.
  func storage(_ backend: Backend) -> ModelContainer.Storage {
    backend.storage(file: "data.sqlite", in: url)
  }

  /// What `loop --db` is given for `backend`'s storage in this folder: a path or a URL.
  func database(_ backend: Backend) -> String {
    switch storage(backend) {
    case .file(let path): path
    case .postgres(let url): url
    case .inMemory: preconditionFailure("loop --db names no in-memory storage")
    }
  }
}

@Suite(.serialized) struct BinaryTests {
  @Test func aScriptOnStandardInputKeepsItsDataInTheFile() throws {
    let folder = try TemporaryFolder()
    let db = folder.path("data.sqlite")
    let run = try runLoop(
      ["--db", db],
      input: """
        category add Swift
        link add "Swift book" https://docs.swift.org/book --category Swift
        habit add Read
        ledger add expense 12.50 Lunch --category Food

        """, dataHome: folder.url)
    #expect(run.status == 0)
    #expect(run.error == "")
    let lines = run.output.split(separator: "\n").map(String.init)
    #expect(lines.count == 4)
    #expect(lines[0] == "Added category 'Swift'.")
    #expect(lines[1].hasPrefix("Added link 'Swift book' ("))
    #expect(lines[2].hasPrefix("Added habit 'Read' ("))
    #expect(lines[3].contains("expense 12.50 'Lunch' on "))

    let context = ModelContext(try ModelContainer(for: AppEnvironment.models, storage: .file(db)))
    #expect(try context.fetchAll(Link.self).map(\.title) == ["Swift book"])
    #expect(try context.fetchAll(Category.self).map(\.name) == ["Swift"])
    #expect(try context.fetchAll(Habit.self).map(\.name) == ["Read"])
    #expect(try context.fetchAll(LedgerTransaction.self).map(\.memo) == ["Lunch"])

    let again = try runLoop(
      ["--db", db, "habit", "list", "--format", "json"], dataHome: folder.url)
    #expect(again.status == 0)
    #expect(again.output.contains(#""name" : "Read""#))
  }

  @Test func aScriptStopsAtTheFirstFailingCommandWithStatusOne() throws {
    let folder = try TemporaryFolder()
    let db = folder.path("data.sqlite")
    let run = try runLoop(
      ["--db", db], input: "habit add Read\nlnk list\nhabit add Never\n", dataHome: folder.url)
    #expect(run.status == 1)
    #expect(run.error == "stdin:2: error: unknown command 'lnk'\ndid you mean 'link'?\n")
    let context = ModelContext(try ModelContainer(for: AppEnvironment.models, storage: .file(db)))
    #expect(try context.fetchAll(Habit.self).map(\.name) == ["Read"])
  }

  @Test func aScriptFileWithKeepGoingRunsEveryLine() throws {
    let folder = try TemporaryFolder()
    let script = folder.path("setup.loop")
    try "habit add Read\nhabit done nothing\nhabit add Swim\n".write(
      toFile: script, atomically: true, encoding: .utf8)
    let run = try runLoop(
      ["--db", folder.path("data.sqlite"), "--script", script, "--keep-going"],
      dataHome: folder.url)
    #expect(run.status == 1)
    #expect(run.output.components(separatedBy: "Added habit").count == 3)
    #expect(
      run.error == """
        \(script):2: error: no habit has the ref or name 'nothing'
        'habit list' shows every habit with its ref

        """)
  }

  @Test func oneShotCommandsUseTheDefaultFileUnderTheDataHome() throws {
    let folder = try TemporaryFolder()
    let added = try runLoop(["habit", "add", "Read books"], dataHome: folder.url)
    #expect(added.status == 0)
    #expect(FileManager.default.fileExists(atPath: folder.path("loop/loop.sqlite")))
    let listed = try runLoop(["habit", "list"], dataHome: folder.url)
    #expect(listed.status == 0)
    #expect(listed.output.contains("Read books"))
    #expect(!listed.output.contains("\u{1B}["), "no colours when the output is a pipe")
    let failed = try runLoop(["habit", "done", "zz"], dataHome: folder.url)
    #expect(failed.status == 1)
  }

  @Test func inMemoryKeepsNothing() throws {
    let folder = try TemporaryFolder()
    let run = try runLoop(
      ["--in-memory"], input: "habit add Read\nhabit list\n", dataHome: folder.url)
    #expect(run.status == 0)
    #expect(run.output.contains("Read"))
    #expect(!FileManager.default.fileExists(atPath: folder.path("loop")))
  }

  @Test func helpVersionAndBadArguments() throws {
    let folder = try TemporaryFolder()
    let help = try runLoop(["--help"], dataHome: folder.url)
    #expect(help.status == 0)
    #expect(help.output.contains(LaunchOptions.usage))
    let version = try runLoop(["--version"], dataHome: folder.url)
    #expect(version.output == "loop \(Launcher.version)\n")
    let bad = try runLoop(["--frobnicate"], dataHome: folder.url)
    #expect(bad.status == 2)
    #expect(bad.error == "error: unknown option '--frobnicate'\n\(LaunchOptions.usage)\n")
  }

  @Test func aFileThatIsNotADatabaseIsReportedAndLeftAlone() throws {
    let folder = try TemporaryFolder()
    let db = folder.path("notes.txt")
    let bytes = Data("my precious notes, not a database\n".utf8)
    try bytes.write(to: URL(fileURLWithPath: db))
    let run = try runLoop(["--db", db, "habit", "add", "Read"], dataHome: folder.url)
    #expect(run.status == 1)
    #expect(
      run.error == """
        error: the database '\(db)' cannot be opened: '\(db)' is not an SQLite database.
        it was left as it is; choose another file with --db PATH

        """)
    #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == bytes)
  }

  @Test func aFolderInTheWayIsReported() throws {
    let folder = try TemporaryFolder()
    let run = try runLoop(["--db", folder.url.path, "habit", "list"], dataHome: folder.url)
    #expect(run.status == 1)
    #expect(run.error.hasPrefix("error: the database '\(folder.url.path)' cannot be opened: "))
  }

  @Test func aDatabaseLockedTooLongIsReportedWithItsPath() throws {
    let folder = try TemporaryFolder()
    let db = folder.path("data.sqlite")
    #expect(try runLoop(["--db", db, "habit", "list"], dataHome: folder.url).status == 0)
    let context = ModelContext(try ModelContainer(for: AppEnvironment.models, storage: .file(db)))
    let locked = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let holder = Thread {
      // NB: a write inside an open transaction holds SQLite's write lock until it ends.
      _ = try? context.transaction { context in
        try context.insert(
          try Habit(id: Habit.ID(UUID()), name: "Held", createdAt: Date()))
        locked.signal()
        release.wait()
        throw CancellationError()
      }
    }
    holder.start()
    locked.wait()
    let run = try runLoop(["--db", db, "habit", "add", "Read"], dataHome: folder.url)
    release.signal()
    // NB: opening checks the schema in a write transaction, so the lock is met there (after
    // SQLite's five-second busy timeout).
    #expect(run.status == 1)
    #expect(run.error.hasPrefix("error: the database '\(db)' cannot be opened: "))
    #expect(run.error.contains("database is locked"))
  }
}
