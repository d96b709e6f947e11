import Foundation
import TestSupport
import Testing

/// A PostgreSQL connection string's password (or `PGPASSWORD`) never leaves the process: no
/// error message, `:state` dump, `:trace`, recording, export, help text or benchmark output
/// shows it; where a connection is named, it is `user@host:port/database`.
@Suite(.serialized) struct SecretsTests {
  static let password = "pw-secret-7f3a"
  static let environmentPassword = "pw-env-91c2"

  /// Whether `text` shows either password.
  private func showsSecret(_ text: String) -> Bool {
    text.contains(Self.password) || text.contains(Self.environmentPassword)
  }

  @Test func aServerThatIsDownIsNamedWithoutThePassword() throws {
    let folder = try TemporaryFolder()
    let run = try runLoop(
      ["--db", "postgresql://alice:\(Self.password)@127.0.0.1:1/ledger", "habit", "list"],
      dataHome: folder.url, environment: ["PGPASSWORD": Self.environmentPassword])
    #expect(run.status == 1)
    #expect(
      run.error
        == """
        error: Cannot connect to PostgreSQL at alice@127.0.0.1:1/ledger: no server answers there \
        (is it running?).
        nothing was changed; choose another database with --db or LOOP_DATABASE_URL

        """)
    #expect(!showsSecret(run.output + run.error))
  }

  @Test func theHelpShowsNoPasswordOfLoopDatabaseURL() throws {
    let folder = try TemporaryFolder()
    let url = "postgresql://alice:\(Self.password)@127.0.0.1:1/ledger"
    let help = try runLoop(
      ["--help"], dataHome: folder.url, environment: ["LOOP_DATABASE_URL": url])
    #expect(help.status == 0)
    #expect(help.output.contains("--db PATH|URL"))
    #expect(!showsSecret(help.output + help.error))
  }

  /// A session on the test server, whose trusting `postgres` user ignores the password given:
  /// every output the session makes is searched for it.
  @Test(.enabled(if: PostgresTestServer.skipReason == nil))
  func noOutputOfASessionShowsThePassword() throws {
    let folder = try TemporaryFolder()
    let url = PostgresTestServer.connectionString(for: folder.url) + "&password=\(Self.password)"
    let schema = try #require(PostgresTestServer.schema(for: folder.url))
    let run = try runLoop(
      ["--db", url, "--record", folder.path("session.txt"), "--keep-going"],
      input: """
        :trace on
        habit add Read
        link add Swift https://swift.org
        :state
        export \(folder.path("all.json"))
        help
        link show nothing
        :trace off
        """, dataHome: folder.url, environment: ["PGPASSWORD": Self.environmentPassword])
    #expect(run.output.contains("Added habit 'Read'"))
    #expect(run.error.contains("error: "))
    #expect(!showsSecret(run.output + run.error))
    let recording = try String(contentsOfFile: folder.path("session.txt"), encoding: .utf8)
    #expect(recording.contains("habit add Read"))
    #expect(!showsSecret(recording))
    let export = try String(contentsOfFile: folder.path("all.json"), encoding: .utf8)
    #expect(export.contains("Read"))
    #expect(!showsSecret(export))

    // A storage failure names the database, without the password.
    let session = try LoopProcess(["--db", url, "--keep-going"], dataHome: folder.url)
    try session.send("habit list")
    let patience = Date(timeIntervalSinceNow: 120)
    _ = session.output.next(before: patience)
    try PostgresTestServer.execute("DROP TABLE \(schema).habits CASCADE")
    try session.send("habit add Swim")
    #expect(try session.finish() == 1)
    let errors = session.errors.rest()
    let server = "postgres@\(try PostgresTestServer.address())/postgres"
    #expect(errors.last == "the database is 'PostgreSQL at \(server)'")
    #expect(!showsSecret(errors.joined(separator: "\n") + session.output.rest().joined()))
  }

  /// `loop-bench`'s PostgreSQL rows name the server without the password.
  @Test(.enabled(if: PostgresTestServer.skipReason == nil))
  func theBenchmarksNameTheServerWithoutThePassword() throws {
    let url = try #require(PostgresTestServer.url) + "&password=\(Self.password)"
    let process = Process()
    process.executableURL = try loopBinary().deletingLastPathComponent()
      .appendingPathComponent("loop-bench")
    process.arguments = ["--quick", "--only", "postgres"]
    var environment = ProcessInfo.processInfo.environment
    environment["LOOP_POSTGRES_URL"] = url
    environment["PGPASSWORD"] = Self.environmentPassword
    process.environment = environment
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let reported = String(
      decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "\(reported)")
    let server = "postgres@\(try PostgresTestServer.address())/postgres"
    #expect(printed.contains("[Persistence (PostgreSQL at \(server))]"))
    #expect(!showsSecret(printed + reported))
  }
}
