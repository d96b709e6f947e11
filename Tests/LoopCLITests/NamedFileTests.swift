import Foundation
import LoopCLI
import TestSupport
import Testing

/// A script or a recording that cannot be read is reported in the words `import` uses for the
/// same problem, and leaves nothing behind.
@MainActor
@Suite struct NamedFileTests {
  /// Runs `loop` in this process and returns its status and what it printed as errors.
  func run(_ arguments: [String]) async -> (status: Int32, error: String) {
    let error = Captured()
    let status = await Launcher.main(
      arguments: arguments, environment: [:],
      console: Console(writeOutput: { _ in }, writeError: { error.append($0) }))
    return (status, error.value)
  }

  @Test func aMissingScriptIsReportedBeforeTheDatabaseOrTheRecordingIsMade() async throws {
    let folder = try TemporaryFolder()
    let script = folder.path("setup.loop")
    let result = await run([
      "--db", folder.path("new.sqlite"), "--record", folder.path("r.txt"), "--script", script,
    ])
    #expect(result.error == "error: Cannot read '\(script)': there is no such file.\n")
    #expect(result.status == 1)
    #expect(!FileManager.default.fileExists(atPath: folder.path("new.sqlite")))
    #expect(!FileManager.default.fileExists(atPath: folder.path("r.txt")))
  }

  @Test func aFolderGivenAsARecordingIsReportedAsAFolder() async throws {
    let folder = try TemporaryFolder()
    let result = await run(["replay", folder.url.path])
    #expect(result.error == "error: Cannot read '\(folder.url.path)': it is a folder.\n")
    #expect(result.status == 1)
  }

  @Test func aScriptThatIsNotUTF8IsReportedAsSuch() async throws {
    let folder = try TemporaryFolder()
    let script = folder.path("latin1.loop")
    // NB: "habit add Café" in Latin-1: é is the single byte 0xE9.
    try Data("habit add Caf".utf8 + [0xE9, 0x0A]).write(to: URL(fileURLWithPath: script))
    let result = await run(["--in-memory", "--script", script])
    #expect(result.error == "error: '\(script)' is not UTF-8 text.\n")
    #expect(result.status == 1)
  }
}
