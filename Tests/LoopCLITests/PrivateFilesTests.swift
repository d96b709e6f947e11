import Foundation
import Interchange
import Loop
import Persistence
import Testing

@testable import LoopCLI

/// What `loop` writes is its user's alone: the data folder `0700`, the database and its `-wal`
/// and `-shm`, exports and recordings `0600`, under the common umask 022 (which would give
/// `0755` and `0644`); a file the user already had keeps its mode; an existing database or data
/// folder that others can read gets a warning, never a silent change; and a replay, whoever
/// made the recording, writes no file and reads none that the recording names.
@MainActor
@Suite(.serialized) struct PrivateFilesTests {
  /// The permission bits of the file or folder at `path`, or `nil` when there is none.
  nonisolated func mode(_ path: String) -> Int? {
    PrivateFile.existingMode(of: path).map { Int($0) }
  }

  /// Sets the permission bits of `path`, as a user would with `chmod`.
  nonisolated func chmod(_ path: String, _ mode: Int) throws {
    try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
  }

  @Test func theDataFolderAndTheDatabaseWithItsLogAreTheOwnersAloneUnderUmask022() throws {
    let folder = try TemporaryFolder()
    let session = try LoopProcess([], dataHome: folder.url, umask: "022")
    defer { session.kill() }
    try session.send("link add Swift https://swift.org")
    let answer = session.output.next(before: Date(timeIntervalSinceNow: 30))
    #expect(answer?.hasPrefix("Added link 'Swift' (") == true)

    // NB: while `loop` runs, SQLite keeps the write-ahead log and its index beside the file.
    let database = folder.path("loop/loop.sqlite")
    #expect(mode(folder.path("loop")) == 0o700)
    #expect(mode(database) == 0o600)
    #expect(mode(database + "-wal") == 0o600)
    #expect(mode(database + "-shm") == 0o600)
    #expect(try session.finish() == 0)
    #expect(session.errors.rest() == [])
  }

  @Test func exportsAndARecordingAreTheOwnersAloneUnderUmask022() throws {
    let folder = try TemporaryFolder()
    let run = try runLoop(
      ["--in-memory", "--record", folder.path("session.txt")],
      input: """
        link add Swift https://swift.org
        export \(folder.path("backup.json"))
        link export \(folder.path("links.csv"))
        :record \(folder.path("rest.txt"))
        habit list

        """, dataHome: folder.url, umask: "022")
    #expect(run.error == "")
    #expect(run.status == 0)
    for file in ["session.txt", "backup.json", "links.csv", "rest.txt"] {
      #expect(mode(folder.path(file)) == 0o600, "\(file)")
    }
  }

  @Test func anExportOrARecordingOverAnExistingFileKeepsThatFilesMode() throws {
    let folder = try TemporaryFolder()
    for (file, mode) in [("backup.json", 0o644), ("session.txt", 0o640)] {
      try Data("old\n".utf8).write(to: URL(fileURLWithPath: folder.path(file)))
      try chmod(folder.path(file), mode)
    }
    let run = try runLoop(
      ["--in-memory", "--record", folder.path("session.txt")],
      input: "link add Swift https://swift.org\nexport \(folder.path("backup.json"))\n",
      dataHome: folder.url, umask: "022")
    #expect(run.status == 0)
    #expect(mode(folder.path("backup.json")) == 0o644)
    #expect(mode(folder.path("session.txt")) == 0o640)
    let backup = try String(contentsOfFile: folder.path("backup.json"), encoding: .utf8)
    #expect(backup.contains("https://swift.org"))
    let recording = try String(contentsOfFile: folder.path("session.txt"), encoding: .utf8)
    #expect(recording.hasPrefix("loop-recording 1\n"))
  }

  @Test func aRecordingMadeAgainIsTheOwnersAloneOrKeepsTheModeOfTheFileItReplaces() throws {
    let folder = try TemporaryFolder()
    let original = folder.path("links.txt")
    try RecordingReplayTests.text(of: "links.txt")
      .write(toFile: original, atomically: true, encoding: .utf8)
    let shared = folder.path("shared.txt")
    try Data("old\n".utf8).write(to: URL(fileURLWithPath: shared))
    try chmod(shared, 0o644)

    for target in [folder.path("new.txt"), shared] {
      let run = try runLoop(
        ["replay", original, "--record", target], dataHome: folder.url, umask: "022")
      #expect(run.output == "recorded 14 commands again into '\(target)'\n")
      #expect(run.status == 0)
    }
    #expect(mode(folder.path("new.txt")) == 0o600)
    #expect(mode(shared) == 0o644)
    #expect(try String(contentsOfFile: shared, encoding: .utf8).hasPrefix("loop-recording 1\n"))
  }

  @Test func aDatabaseOthersCanReadIsWarnedAboutWithTheChmodThatFixesItAndLeftAsItIs() throws {
    let folder = try TemporaryFolder()
    let database = folder.path("ledger.sqlite")
    #expect(try runLoop(["--db", database, "habit", "list"], dataHome: folder.url).error == "")
    try chmod(database, 0o644)

    let run = try runLoop(["--db", database, "habit", "list"], dataHome: folder.url)
    #expect(
      run.error
        == """
        warning: other users can read the database '\(database)'; to make it yours alone: \
        chmod 600 \(database)

        """)
    #expect(run.status == 0)
    #expect(mode(database) == 0o644)
  }

  @Test func theDataFolderOthersCanReadIsWarnedAboutAndLeftAsItIs() throws {
    let folder = try TemporaryFolder()
    let dataFolder = folder.path("loop")
    try FileManager.default.createDirectory(atPath: dataFolder, withIntermediateDirectories: true)
    try chmod(dataFolder, 0o755)

    let run = try runLoop(["habit", "list"], dataHome: folder.url)
    #expect(
      run.error
        == """
        warning: other users can read the data folder '\(dataFolder)'; to make it yours alone: \
        chmod 700 \(dataFolder)

        """)
    #expect(mode(dataFolder) == 0o755)
    #expect(mode(folder.path("loop/loop.sqlite")) == 0o600)
  }

  @Test(arguments: [
    ("/home/ana/.local/share/loop/loop.sqlite", "/home/ana/.local/share/loop/loop.sqlite"),
    ("/home/ana/My Data/loop.sqlite", "'/home/ana/My Data/loop.sqlite'"),
    ("/tmp/ana's.sqlite", #"'/tmp/ana'\''s.sqlite'"#),
    ("/tmp/$HOME;rm", "'/tmp/$HOME;rm'"),
  ])
  func theChmodInAWarningQuotesAPathForTheShell(path: String, quoted: String) {
    #expect(PrivacyWarning.shellQuoted(path) == quoted)
  }

  @Test func aReplayedExportWritesNoFile() async throws {
    let folder = try TemporaryFolder()
    let target = folder.path("habits.csv")
    let text = try RecordingReplayTests.text(of: "habits.txt")
    #expect(text.contains("\ninput habit export habits.csv\n"))
    let outcome = await SessionReplay.replay(
      text.replacingOccurrences(
        of: "\ninput habit export habits.csv\n", with: "\ninput habit export \(target)\n"),
      named: "habits.txt")
    guard case .identical = outcome else {
      Issue.record("the recording did not replay: \(outcome)")
      return
    }
    #expect(!FileManager.default.fileExists(atPath: target))
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == [])
  }

  @Test func aRecordCommandARecordingHoldsIsNotRunInAReplay() async throws {
    let folder = try TemporaryFolder()
    let target = folder.path("elsewhere.txt")
    let text = """
      loop-recording 1
      value mode script
      value time-zone Etc/UTC
      value calendar 2 1
      input :record \(target)
      value status 0

      """
    let outcome = await SessionReplay.replay(text, named: "shared.txt")
    #expect(
      outcome
        == .failed(
          "command 1 (':record \(target)') now fails: a replay writes no files: ':record "
            + "\(target)' is not run"))
    #expect(!FileManager.default.fileExists(atPath: target))
  }

  @Test func aFileAnImportNamesInAReplayIsNotReadTheRecordingsCopyIs() async throws {
    let folder = try TemporaryFolder()
    // NB: a file of that name with other links in it, where the replay would look for it.
    try Data("title,url\nOn disk,https://disk.example\n".utf8)
      .write(to: URL(fileURLWithPath: folder.path("links.csv")))
    let session = Session(
      environment: try transcriptEnvironment(),
      console: Console(writeOutput: { _ in }, writeError: { _ in }),
      configuration: Session.Configuration(mode: .oneShot, currentDirectory: folder.url.path))
    session.replayedValues = RecordedValues(
      try Recording(
        text: """
          loop-recording 1
          value file
          | links.csv
          | text
          | title,url
          | Recorded,https://recorded.example

          """))
    let contents = try session.readImportFile(atPath: folder.path("links.csv"), named: "links.csv")
    #expect(
      String(decoding: contents, as: UTF8.self) == "title,url\nRecorded,https://recorded.example")
  }

  @Test func anExportedFileIsWrittenWholeAndAMissingFolderIsNamed() throws {
    let folder = try TemporaryFolder()
    let file = ExportedFile(
      scope: .links, format: .csv, contents: Data("title,url\n".utf8), counts: EntryCounts())
    try file.write(toPath: folder.path("links.csv"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: folder.path("links.csv"))) == file.contents)
    #expect(mode(folder.path("links.csv")) == 0o600)
    #expect {
      try file.write(toPath: folder.path("no/such/folder/links.csv"), named: "no/links.csv")
    } throws: { error in
      error as? InterchangeError
        == .unwritableFile(file: "no/links.csv", reason: "its folder does not exist")
    }
  }
}
