import Foundation
import Testing

/// libpq (and the libraries it needs) is loaded only when `loop` opens a PostgreSQL store.
///
/// A run on SQLite starts without them. The dynamic loader's own log (`LD_DEBUG=files`, on
/// standard error) says which libraries a run loaded.
@Suite struct LibPQLoadingTests {
  private let loaderLog = ["LD_DEBUG": "files"]

  @Test func aRunOnASQLiteFileNeverLoadsLibPQ() throws {
    let folder = try TemporaryFolder()
    let run = try runLoop(
      ["--db", folder.path("links.sqlite"), "link", "list"], dataHome: folder.url,
      environment: loaderLog)
    #expect(run.status == 0)
    #expect(run.error.contains("file=libsqlite3.so.0"))
    #expect(!run.error.contains("libpq"))
  }

  @Test func aRunOnPostgreSQLLoadsLibPQToConnect() throws {
    let folder = try TemporaryFolder()
    let run = try runLoop(
      ["--db", "postgresql://alice@127.0.0.1:1/ledger", "link", "list"], dataHome: folder.url,
      environment: loaderLog)
    #expect(run.status == 1)
    #expect(run.error.contains("file=libpq.so.5"))
    #expect(
      run.error.contains(
        "error: Cannot connect to PostgreSQL at alice@127.0.0.1:1/ledger: no server answers there"))
  }
}
