import Foundation
import Testing

@testable import LoopCLI

/// The README's "Importing a bank statement", run through the REPL on its own files.
///
/// If what the REPL prints changes, the README is wrong.
@MainActor
@Suite struct ReadmeStatementTests {
  /// The section's fenced blocks: the statement (`csv`), its rules (`rules`), the session
  /// (`text`).
  static func blocks() throws -> (statement: String, rules: String, session: String) {
    let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("README.md")
    let text = try String(contentsOf: readme, encoding: .utf8)
    let section = try #require(
      text.components(separatedBy: "## Importing a bank statement\n").dropFirst().first?
        .components(separatedBy: "\n## ").first)
    func block(_ language: String) throws -> String {
      let start = try #require(
        section.components(separatedBy: "```\(language)\n").dropFirst().first)
      return try #require(start.components(separatedBy: "```").first)
    }
    return (try block("csv"), try block("rules"), try block("text"))
  }

  @Test func theReadmeStatementImportsAsItsSessionShows() async throws {
    let (statement, rules, session) = try Self.blocks()
    let folder = try TemporaryFolder()
    try Data(statement.utf8).write(to: URL(fileURLWithPath: folder.path("umsaetze.csv")))
    try Data(rules.utf8).write(to: URL(fileURLWithPath: folder.path("umsaetze.csv.rules")))
    let log = Captured()
    let repl = Session(
      environment: try transcriptEnvironment(),
      console: Console(writeOutput: { log.append($0) }, writeError: { log.append($0) }),
      configuration: Session.Configuration(mode: .interactive, currentDirectory: folder.url.path))
    let commands = session.split(separator: "\n").filter { $0.hasPrefix("loop> ") }
      .map { String($0.dropFirst("loop> ".count)) }
    #expect(commands.count == 3)
    for command in commands {
      log.append("loop> \(command)\n")
      _ = await repl.execute(command)
    }
    #expect(log.value == session)
  }

  @Test func theReadmeStatementWithoutItsRulesImportsTheSameTransactions() async throws {
    let (statement, rules, _) = try Self.blocks()
    let withRules = try TemporaryFolder()
    try Data(statement.utf8).write(to: URL(fileURLWithPath: withRules.path("umsaetze.csv")))
    // NB: without the if block that categorises: inferred rules set no category.
    let uncategorised = try #require(rules.components(separatedBy: "if REWE").first)
    try Data(uncategorised.utf8)
      .write(to: URL(fileURLWithPath: withRules.path("umsaetze.csv.rules")))
    let without = try TemporaryFolder()
    try Data(statement.utf8).write(to: URL(fileURLWithPath: without.path("umsaetze.csv")))
    let script = "ledger import umsaetze.csv --quiet\nledger list"
    let ruled = try await transcript(script, currentDirectory: withRules.url.path)
    let inferred = try await transcript(script, currentDirectory: without.url.path)
    #expect(ruled.status == 0)
    #expect(ruled.transcript.contains("Imported 2 transactions"))
    #expect(
      ruled.transcript.components(separatedBy: "> ledger list").last
        == inferred.transcript.components(separatedBy: "> ledger list").last)
  }
}
