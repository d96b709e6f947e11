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

  /// The files the session imports: a browser's bookmark export, with a link the session saved
  /// before, and a German bank's export.
  static let files = [
    "bookmarks.html": """
    <!DOCTYPE NETSCAPE-Bookmark-file-1>
    <TITLE>Bookmarks</TITLE>
    <H1>Bookmarks</H1>
    <DL><p>
        <DT><H3 ADD_DATE="1741000000">Swift</H3>
        <DL><p>
            <DT><A HREF="https://docs.swift.org/book" ADD_DATE="1741000000">The Swift Programming Language</A>
            <DT><A HREF="https://www.swift.org/documentation/" ADD_DATE="1741000000">Swift Documentation</A>
            <DT><A HREF="javascript:void(0)">Bookmarklet</A>
        </DL><p>
    </DL><p>

    """,
    "bank.csv": """
    date;kind;amount;memo;category
    28.02.2025;income;1.500,00;Bonus;Work
    14.03.2025;expense;42,90;Books;Reading

    """,
  ]

  /// The README session's commands, and an interactive session in `folder` (beside the files
  /// the commands import) that prints into `log`.
  static func session(
    in folder: TemporaryFolder, log: Captured
  ) throws -> (commands: [String], session: Session) {
    let commands = try readmeSession().split(separator: "\n").filter { $0.hasPrefix("loop> ") }
      .map { String($0.dropFirst("loop> ".count)) }
    for (name, text) in files {
      try Data(text.utf8).write(to: URL(fileURLWithPath: folder.path(name)))
    }
    let session = Session(
      environment: try transcriptEnvironment(),
      console: Console(writeOutput: { log.append($0) }, writeError: { log.append($0) }),
      configuration: Session.Configuration(mode: .interactive, currentDirectory: folder.url.path))
    return (commands, session)
  }

  @Test func theReadmeSessionIsWhatTheREPLPrints() async throws {
    let folder = try TemporaryFolder()
    let log = Captured()
    let (commands, session) = try Self.session(in: folder, log: log)
    #expect(commands.count > 10)
    for command in commands {
      log.append("loop> \(command)\n")
      _ = await session.execute(command)
    }
    #expect(log.value == (try Self.readmeSession()))
  }
}
