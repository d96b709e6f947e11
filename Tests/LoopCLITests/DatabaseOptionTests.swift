import Foundation
import Persistence
import Testing

@testable import LoopCLI

/// Where `loop` keeps its data: `--in-memory`, `--db` (a path or a PostgreSQL URL),
/// `LOOP_DATABASE_URL`, or the default file; and the line an interactive `loop` starts with.
@Suite struct DatabaseOptionTests {
  private func storage(_ arguments: [String], environment: [String: String] = [:]) throws
    -> ModelContainer.Storage
  {
    Launcher.storage(
      try LaunchOptions(arguments: arguments), environment: environment,
      defaultPath: "/home/a/.local/share/loop/loop.sqlite")
  }

  @Test func aPostgresURLGivenWithDbIsAPostgreSQLDatabase() throws {
    #expect(
      try storage(["--db", "postgresql://alice@db.example/loop"])
        == .postgres("postgresql://alice@db.example/loop"))
    #expect(
      try storage(["--db", "postgres://db.example/loop"]) == .postgres("postgres://db.example/loop")
    )
  }

  @Test func anythingElseGivenWithDbIsAFile() throws {
    #expect(try storage(["--db", "data.sqlite"]) == .file("data.sqlite"))
  }

  @Test func loopDatabaseURLNamesTheDatabaseWhenDbDoesNot() throws {
    let environment = ["LOOP_DATABASE_URL": "postgresql://alice@db.example/loop"]
    #expect(
      try storage([], environment: environment) == .postgres("postgresql://alice@db.example/loop"))
    #expect(
      try storage([], environment: ["LOOP_DATABASE_URL": "/data/loop.sqlite"])
        == .file("/data/loop.sqlite"))
  }

  @Test func dbAndInMemoryWinOverLoopDatabaseURL() throws {
    let environment = ["LOOP_DATABASE_URL": "postgresql://alice@db.example/loop"]
    #expect(try storage(["--db", "x.sqlite"], environment: environment) == .file("x.sqlite"))
    #expect(try storage(["--in-memory"], environment: environment) == .inMemory)
  }

  @Test func withoutDbOrAnEmptyLoopDatabaseURLTheDefaultFileIsUsed() throws {
    let expected = ModelContainer.Storage.file("/home/a/.local/share/loop/loop.sqlite")
    #expect(try storage([]) == expected)
    #expect(try storage([], environment: ["LOOP_DATABASE_URL": ""]) == expected)
  }

  @Test func theGreetingSaysWhereTheDataIsKept() {
    #expect(
      Launcher.greeting(.file("/d/loop.sqlite"), existed: true)
        == "loop \(Launcher.version): your data is in '/d/loop.sqlite'.")
    #expect(
      Launcher.greeting(.file("/d/loop.sqlite"), existed: false)
        == "loop \(Launcher.version): your data will be kept in '/d/loop.sqlite' (new).")
    #expect(
      Launcher.greeting(.inMemory, existed: false)
        == "loop \(Launcher.version): your data is in memory only; nothing is kept.")
  }

  @Test func theGreetingNamesAPostgreSQLServerWithoutItsPassword() {
    let greeting = Launcher.greeting(
      .postgres("postgresql://alice:s3cret-pw@db.example:5433/ledger"), existed: true)
    #expect(
      greeting
        == "loop \(Launcher.version): your data is in PostgreSQL at alice@db.example:5433/ledger.")
  }
}
