import Foundation
import LinkClient
import LinkClientLive
import Loop
import LoopCLI
import Persistence
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Ctrl-C in `loop`: at the prompt it cancels the running command, which leaves nothing
/// half-done, and the prompt comes back; in a script it ends the process, which leaves nothing
/// half-done either.
///
/// NB: no timing is asserted (how fast the prompt comes back is measured by
/// `bigdata_check.py`, on a release build); each test waits for the moment it needs (the
/// progress bar drawn, the first rows printed) before it presses the key.
@Suite(.serialized) struct InterruptTests {
  /// A link CSV of `count` rows, large enough that an import is still writing when the key is
  /// pressed.
  static func writeCSV(count: Int, in folder: TemporaryFolder) throws -> String {
    let path = folder.path("links.csv")
    try Data(ImportBinaryTests.linksCSV(count: count).utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  @Test func ctrlCDuringAnImportAtThePromptRollsItBackAndPromptsAgain() throws {
    let folder = try TemporaryFolder()
    let csv = try Self.writeCSV(count: 60_000, in: folder)
    let db = folder.path("data.sqlite")
    let terminal = try TerminalProcess(["--db", db], dataHome: folder.url)
    #expect(terminal.waitFor("loop> "))
    terminal.type("link import \(csv)\r")
    // The bar shows once the links are being written, inside the import's transaction.
    #expect(terminal.waitFor("░"))
    terminal.type("\u{3}")
    #expect(terminal.waitFor("Cancelled: nothing imported.\nloop> "))
    terminal.type("link list\r")
    #expect(terminal.waitFor("No links yet: add one with 'link add <title> <url>'.\nloop> "))
    #expect(terminal.finish() == 0)
    #expect(!terminal.shown.contains("Imported"))
    #expect(try ImportBinaryTests.checkedLinkCount(in: db) == 0)
  }

  /// Presses Ctrl-C until the terminal shows another prompt, a few times at most.
  ///
  /// NB: pressed again when no prompt follows within seconds: a key pressed while libedit still
  /// sets the terminal up is lost (as Ctrl-D is in `finish()`).
  func interruptUntilPrompted(_ terminal: TerminalProcess) -> Bool {
    let prompts = terminal.shown.components(separatedBy: "loop> ").count - 1
    for _ in 0..<5 {
      terminal.type("\u{3}")
      if terminal.waitFor("loop> ", moreThan: prompts, timeout: 3) { return true }
    }
    return false
  }

  @Test func ctrlCAtThePromptAbandonsTheLineAndPromptsAgain() throws {
    let folder = try TemporaryFolder()
    let terminal = try TerminalProcess(["--db", folder.path("data.sqlite")], dataHome: folder.url)
    #expect(terminal.waitFor("loop> "))
    #expect(interruptUntilPrompted(terminal))
    terminal.type("category add Draft")
    #expect(terminal.waitFor("category add Draft"))
    #expect(interruptUntilPrompted(terminal))
    terminal.type("category list\r")
    #expect(terminal.waitFor("No categories yet: add one with 'category add <name>'.\nloop> "))
    #expect(terminal.finish() == 0)
    #expect(!terminal.shown.contains("Added category"))
  }

  @Test func ctrlCDuringAListingStopsItAndPromptsAgain() async throws {
    let folder = try TemporaryFolder()
    let db = folder.path("data.sqlite")
    let total = 60_000
    do {
      let container = try ModelContainer(for: AppEnvironment.models, storage: .file(db))
      let links = (0..<total).map {
        ImportedLink(line: $0 + 2, title: "Page \($0)", url: "https://example.com/\($0)")
      }
      let client = LinkClient.live(context: ModelContext(container))
      _ = try await withDependencies {
        $0.uuid = .incrementing
        $0.date = .constant(Date(timeIntervalSince1970: 1_742_000_400))
      } operation: {
        try await client.importLinks(links)
      }
    }
    let terminal = try TerminalProcess(["--db", db], dataHome: folder.url)
    #expect(terminal.waitFor("loop> "))
    terminal.type("link list\r")
    #expect(terminal.waitFor("Page "))
    terminal.type("\u{3}")
    #expect(terminal.waitFor("Cancelled.\nloop> "))
    terminal.type("link list --limit 1\r")
    #expect(terminal.waitFor("Page 59999\nloop> "))
    #expect(terminal.finish() == 0)
    let listing = try #require(terminal.shown.components(separatedBy: "link list\n").last)
    let rows = listing.split(separator: "\n").filter { $0.contains("Page ") }.count
    #expect(rows < total)
  }

  @Test func sigintDuringAScriptedImportEndsTheProcessAndImportsNothing() throws {
    let folder = try TemporaryFolder()
    let csv = try Self.writeCSV(count: 60_000, in: folder)
    let script = folder.path("import.loop")
    try Data("category add Reading\nlink import \(csv)\n".utf8)
      .write(to: URL(fileURLWithPath: script))
    let db = folder.path("data.sqlite")
    let process = Process()
    process.executableURL = try loopBinary()
    process.arguments = ["--db", db, "--script", script]
    var environment = ProcessInfo.processInfo.environment
    environment["XDG_DATA_HOME"] = folder.url.path
    process.environment = environment
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    // The first command's answer: the script is at the import.
    let first = output.fileHandleForReading.availableData
    #expect(String(decoding: first, as: UTF8.self).hasPrefix("Added category 'Reading'."))
    process.interrupt()
    process.waitUntilExit()
    #expect(process.terminationReason == .uncaughtSignal)
    #expect(process.terminationStatus == SIGINT)
    #expect(try ImportBinaryTests.checkedLinkCount(in: db) == 0)
  }
}
