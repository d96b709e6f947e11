import Foundation
import Testing

@testable import LoopCLI

@Suite struct ProgressBarTests {
  @Test(arguments: [
    (0, 100_000, Duration.zero, "[░░░░░░░░░░░░░░░░░░░░░░░░]  0/100,000"),
    (
      50_000, 100_000, .seconds(2),
      "[████████████░░░░░░░░░░░░]  50,000/100,000  25,000/s  0:02 left"
    ),
    (
      99_000, 100_000, .milliseconds(2_970),
      "[███████████████████████░]  99,000/100,000  33,333/s  0:01 left"
    ),
    (
      100_000, 100_000, .seconds(3),
      "[████████████████████████]  100,000/100,000  33,333/s  0:00 left"
    ),
    (1, 10_000_000, .milliseconds(50), "[░░░░░░░░░░░░░░░░░░░░░░░░]  1/10,000,000"),
    (
      1_000, 10_000_000, .seconds(1),
      "[░░░░░░░░░░░░░░░░░░░░░░░░]  1,000/10,000,000  1,000/s  2:46:39 left"
    ),
  ])
  func drawsTheBarTheCountTheRateAndTheTimeLeft(
    _ processed: Int, _ total: Int, _ elapsed: Duration, _ line: String
  ) {
    #expect(ProgressBar.line(processed: processed, total: total, elapsed: elapsed) == line)
  }

  @Test(arguments: [
    (0, "0:00"), (59, "0:59"), (61, "1:01"), (3_600, "1:00:00"), (4_000, "1:06:40"),
  ])
  func writesTimeLeftAsAClock(_ seconds: Int, _ text: String) {
    #expect(ProgressBar.clock(seconds) == text)
  }

  @Test(arguments: [
    (0, "0"), (999, "999"), (1_000, "1,000"), (1_234_567, "1,234,567"), (-1_000, "-1,000"),
  ])
  func groupsThousands(_ number: Int, _ text: String) {
    #expect(grouped(number) == text)
  }
}

/// The progress bar a session draws on standard error while an import writes.
@MainActor
@Suite struct ProgressDisplayTests {
  /// Runs one command in a session that may draw progress, and returns standard error as written
  /// (carriage returns and escapes included) and standard output.
  func run(_ command: String, showsProgress: Bool) async throws -> (error: String, output: String) {
    let folder = try TemporaryFolder()
    try Data(bookmarksFile.utf8).write(to: URL(fileURLWithPath: folder.path("bookmarks.html")))
    let output = Captured()
    let error = Captured()
    let session = Session(
      environment: try transcriptEnvironment(),
      console: Console(writeOutput: { output.append($0) }, writeError: { error.append($0) }),
      configuration: Session.Configuration(
        mode: .interactive, showsProgress: showsProgress, currentDirectory: folder.url.path))
    _ = await session.execute(command)
    return (error.value, output.value)
  }

  @Test func anImportDrawsItsProgressThenErasesIt() async throws {
    let (error, output) = try await run("link import bookmarks.html", showsProgress: true)
    #expect(
      error
        == "\r[░░░░░░░░░░░░░░░░░░░░░░░░]  0/4\u{1B}[K\r[████████████████████████]  4/4\u{1B}[K"
        + "\r\u{1B}[K")
    #expect(output.hasPrefix("Imported 2 links, 2 categories; skipped 1 duplicate; rejected 1.\n"))
  }

  @Test func quietOrNotOnATerminalDrawsNothing() async throws {
    #expect(try await run("link import bookmarks.html --quiet", showsProgress: true).error == "")
    #expect(try await run("link import bookmarks.html", showsProgress: false).error == "")
  }
}
