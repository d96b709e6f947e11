import Foundation
import Testing

@testable import LoopCLI

/// The README's session, run through the REPL: if its output changes, the README is wrong.
@MainActor
@Suite struct ReadmeSessionTests {
  /// The fenced block after `## A session` in the README.
  static func readmeSession() throws -> String {
    let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("README.md")
    let text = try String(contentsOf: readme, encoding: .utf8)
    let section = try #require(text.components(separatedBy: "## A session\n").dropFirst().first)
    let block = try #require(section.components(separatedBy: "```text\n").dropFirst().first)
    return try #require(block.components(separatedBy: "```").first)
  }

  @Test func theReadmeSessionIsWhatTheREPLPrints() async throws {
    let expected = try Self.readmeSession()
    let commands = expected.split(separator: "\n").filter { $0.hasPrefix("loop> ") }
      .map { String($0.dropFirst("loop> ".count)) }
    #expect(commands.count > 10)
    let log = Captured()
    let session = Session(
      environment: try transcriptEnvironment(),
      console: Console(writeOutput: { log.append($0) }, writeError: { log.append($0) }),
      configuration: Session.Configuration(mode: .interactive))
    for command in commands {
      log.append("loop> \(command)\n")
      _ = await session.execute(command)
    }
    #expect(log.value == expected)
  }
}
