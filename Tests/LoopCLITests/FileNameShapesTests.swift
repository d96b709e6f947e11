import Foundation
import Persistence
import Synchronization
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Every shape of file name a user can type, through every command that takes one.
///
/// The shapes: a name of one character, with no folder, a trailing `/`, `.`, `..`, `/`, the
/// empty name, spaces and non-ASCII. `export x` once died with signal 4 inside Foundation's
/// `NSString.deletingLastPathComponent`; Loop's own path code (`PrivateFile.folder(of:)` and
/// its neighbours) now takes every one of them, and a name that cannot be a file is an error.
@Suite struct FileNameShapesTests {
  @Test(
    arguments: [
      ("a/b", "a", "b", ""), ("x", ".", "x", ""), ("é", ".", "é", ""),
      ("a b.csv", ".", "a b.csv", "csv"), ("x/", ".", "x", ""), ("a/b/", "a", "b", ""),
      ("/x", "/", "x", ""), ("/", "/", "/", ""), ("//", "/", "/", ""), (".", ".", ".", ""),
      ("..", ".", "..", ""), ("", ".", "", ""), ("./x.json", ".", "x.json", "json"),
      ("a//b", "a", "b", ""), (".profile", ".", ".profile", ""), ("a.", ".", "a.", ""),
      ("dir.d/x", "dir.d", "x", ""), ("/ü/ñ é.HTML", "/ü", "ñ é.HTML", "HTML"),
    ])
  func aPathsFolderNameAndExtension(
    path: String, folder: String, name: String, pathExtension: String
  ) {
    #expect(PrivateFile.folder(of: path) == folder)
    #expect(PrivateFile.name(of: path) == name)
    #expect(PrivateFile.pathExtension(of: path) == pathExtension)
  }

  @Test(
    arguments: [
      ("dir", "x", "dir/x"), ("dir/", "x", "dir/x"), ("/", "x", "/x"), ("", "x", "x"),
      ("dir", "/abs", "/abs"), ("dir", "", "dir/"), ("dir", "a b/é", "dir/a b/é"),
    ])
  func aPathJoinedToAFolder(folder: String, path: String, joined: String) {
    #expect(PrivateFile.joined(folder, path) == joined)
  }

  /// The shapes of a name that can be a file, and what `loop` says when writing one.
  static let fileShapes = ["x", "é", "a b"]
  /// The shapes of a name that is a folder, or nothing, and the reason writing to it fails.
  static let folderShapes = [
    ("x/", "Is a directory"), (".", "Is a directory"), ("..", "Is a directory"),
    ("/", "Is a directory"), ("", "No such file or directory"),
  ]

  @Test(arguments: fileShapes)
  func everyCommandWritesAndReadsAFileOfThisName(name: String) throws {
    let folder = try TemporaryFolder()
    let quoted = "'\(name)'"
    for command in ["export", "link export", "ledger export", "habit export"] {
      let run = try runLoop(in: folder, ["--in-memory"], input: "\(command) \(quoted)\n")
      #expect(run.signal == nil)
      #expect(run.error == "", "\(command)")
      #expect(run.output == "Exported nothing to '\(name)' (Loop JSON).\n", "\(command)")
      #expect(run.status == 0)
      #expect(FileManager.default.fileExists(atPath: folder.path(name)))
    }
    for noun in ["", "link ", "ledger "] {
      let input = "\(noun)export \(quoted)\n\(noun)import \(quoted)\n"
      let run = try runLoop(in: folder, ["--in-memory"], input: input)
      #expect(run.signal == nil)
      #expect(run.error == "", "\(noun)import")
      #expect(run.status == 0, "\(noun)import")
    }
    let record = try runLoop(in: folder, ["--in-memory"], input: ":record \(quoted)\n")
    #expect(record.signal == nil)
    #expect(record.output == "Recording into '\(name)': 'loop replay \(name)' replays it.\n")
    let recordOption = try runLoop(
      in: folder, ["--in-memory", "--record", name, "habit", "list"], input: "")
    #expect(recordOption.signal == nil)
    #expect(recordOption.status == 0)
    try FileManager.default.removeItem(atPath: folder.path(name))
    let database = try runLoop(in: folder, ["--db", name, "habit", "list"], input: "")
    #expect(database.signal == nil)
    #expect(database.error == "")
    #expect(database.status == 0)
    #expect(FileManager.default.fileExists(atPath: folder.path(name)))
  }

  @Test(arguments: fileShapes)
  func aMissingFileOfThisNameIsReportedByEveryImport(name: String) throws {
    let folder = try TemporaryFolder()
    for command in ["import", "link import", "ledger import"] {
      let run = try runLoop(in: folder, ["--in-memory"], input: "\(command) '\(name)'\n")
      #expect(run.signal == nil)
      #expect(run.error == "stdin:1: error: Cannot read '\(name)': there is no such file.\n")
      #expect(run.status == 1)
    }
  }

  @Test(arguments: folderShapes)
  func aNameThatIsNoFileIsAnErrorForEveryCommand(name: String, reason: String) throws {
    let folder = try TemporaryFolder()
    for command in ["export", "link export", "ledger export", "habit export"] {
      let run = try runLoop(in: folder, ["--in-memory"], input: "\(command) '\(name)'\n")
      #expect(run.signal == nil)
      #expect(run.error == "stdin:1: error: Cannot write '\(name)': \(reason).\n", "\(command)")
      #expect(run.status == 1)
    }
    let readReason = name == "" || name == "x/" ? "there is no such file" : "it is a folder"
    for command in ["import", "link import", "ledger import"] {
      let run = try runLoop(in: folder, ["--in-memory"], input: "\(command) '\(name)'\n")
      #expect(run.signal == nil)
      #expect(run.error == "stdin:1: error: Cannot read '\(name)': \(readReason).\n")
      #expect(run.status == 1)
    }
    let record = try runLoop(in: folder, ["--in-memory"], input: ":record '\(name)'\n")
    #expect(record.signal == nil)
    #expect(
      record.error == "stdin:1: error: the recording '\(name)' cannot be written: \(reason)\n")
    let recordOption = try runLoop(
      in: folder, ["--in-memory", "--record", name, "habit", "list"], input: "")
    #expect(recordOption.signal == nil)
    #expect(
      recordOption.error == "error: the recording '\(name)' cannot be written: \(reason)\n")
    #expect(recordOption.status == 1)
    let database = try runLoop(in: folder, ["--db", name, "habit", "list"], input: "")
    #expect(database.signal == nil)
    #expect(database.error.hasPrefix("error: the database '\(name)' cannot be opened: "))
    #expect(database.status == 1)
  }

  @Test func aDataHomeOfOneCharacterHoldsTheDefaultDatabase() throws {
    let folder = try TemporaryFolder()
    let run = try runLoop(
      in: folder, ["habit", "list"], input: "", environment: ["XDG_DATA_HOME": "d"])
    #expect(run.signal == nil)
    #expect(run.error == "")
    #expect(run.status == 0)
    #expect(FileManager.default.fileExists(atPath: folder.path("d/loop/loop.sqlite")))
  }
}

/// What a run of the `loop` binary in a folder printed, returned, and the signal that ended
/// it, if one did.
struct FolderRun {
  var output: String
  var error: String
  var status: Int32
  /// The signal that ended the process; `nil` when it exited.
  var signal: Int32?
  /// Whether it ran past its timeout, and was killed.
  var timedOut = false
}

/// Runs the `loop` binary in `folder` (its working directory) with `arguments` and `input` on
/// its standard input, its data home inside `folder`; killed after `timeout` seconds.
func runLoop(
  in folder: TemporaryFolder, _ arguments: [String], input: String,
  environment extra: [String: String] = [:], timeout: TimeInterval = 60
) throws -> FolderRun {
  let process = Process()
  try process.runLoop(arguments, umask: nil)
  process.currentDirectoryURL = folder.url
  var environment = ProcessInfo.processInfo.environment
  environment["XDG_DATA_HOME"] = folder.path("data-home")
  environment["LOOP_DATABASE_URL"] = nil
  // NB: a crash's backtrace takes seconds to print; the test only needs to see the signal.
  environment["SWIFT_BACKTRACE"] = "enable=no"
  environment.merge(extra) { $1 }
  process.environment = environment
  let stdin = Pipe()
  let stdout = Pipe()
  let stderr = Pipe()
  process.standardInput = stdin
  process.standardOutput = stdout
  process.standardError = stderr
  try process.run()
  // NB: written on a thread of its own: a long input must not wait for a full output pipe.
  Thread {
    stdin.fileHandleForWriting.write(Data(input.utf8))
    try? stdin.fileHandleForWriting.close()
  }.start()
  let errorData = Mutex(Data())
  let errorRead = DispatchSemaphore(value: 0)
  Thread {
    let data = stderr.fileHandleForReading.readDataToEndOfFile()
    errorData.withLock { $0 = data }
    errorRead.signal()
  }.start()
  let timedOut = Atomic(false)
  let watchdog = DispatchWorkItem {
    guard process.isRunning else { return }
    timedOut.store(true, ordering: .relaxed)
    kill(process.processIdentifier, SIGKILL)
  }
  DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
  let output = stdout.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  watchdog.cancel()
  errorRead.wait()
  let killed = timedOut.load(ordering: .relaxed)
  return FolderRun(
    output: String(decoding: output, as: UTF8.self),
    error: String(decoding: errorData.withLock { $0 }, as: UTF8.self),
    status: process.terminationStatus,
    signal: process.terminationReason == .uncaughtSignal && !killed
      ? process.terminationStatus : nil,
    timedOut: killed)
}
