import CSQLite
import Foundation
import Persistence
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

private struct Memo: PersistentModel, Equatable {
  var id: Int
  var text: String
  static let schema = Schema<Memo>(
    table: "memos", columns: [Column(\.id, "id"), Column(\.text, "text")])
  init(id: Int, text: String) {
    self.id = id
    self.text = text
  }
  init(row: Row<Memo>) throws {
    id = try row[\.id]
    text = try row[\.text]
  }
}

/// A database file and the folders a container creates for it are its owner's alone whatever
/// the umask, and SQLite gives its `-wal`, `-shm` and `-journal` files the file's mode.
///
/// NB: serialized, and the umasks tried only add bits to what other tests in this process
/// create meanwhile (never take the owner's), since the umask is the whole process's.
@Suite(.serialized) struct DatabaseFileModeTests {
  /// Runs `body` with the process's umask set to `mask`, then restores it.
  func withUmask<R>(_ mask: mode_t, _ body: () throws -> R) rethrows -> R {
    let previous = umask(mask)
    defer { umask(previous) }
    return try body()
  }

  /// The permission bits of the file or folder at `path`, or `nil` when there is none.
  func mode(_ path: String) -> mode_t? {
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    return status.st_mode & 0o7777
  }

  @Test(arguments: [0o022, 0o000] as [mode_t])
  func aNewDatabaseItsFoldersAndItsLogAreTheOwnersAlone(umask mask: mode_t) throws {
    let folder = TemporaryFolder()
    let path = folder.path("data/loop/store.sqlite")
    try withUmask(mask) {
      let context = ModelContext(try ModelContainer(for: Memo.self, storage: .file(path)))
      try context.insert(Memo(id: 1, text: "private"))
      for created in [folder.url.path, folder.path("data"), folder.path("data/loop")] {
        #expect(mode(created) == 0o700, "\(created)")
      }
      // NB: the write-ahead log and its index exist while the container is open.
      for file in [path, path + "-wal", path + "-shm"] {
        #expect(mode(file) == 0o600, "\(file)")
      }
    }
  }

  @Test func aRollbackJournalTakesTheDatabasesMode() throws {
    let folder = TemporaryFolder()
    let path = folder.path("store.sqlite")
    try withUmask(0o022) {
      _ = try ModelContainer(for: Memo.self, storage: .file(path))
      var database: OpaquePointer?
      defer { sqlite3_close(database) }
      #expect(sqlite3_open(path, &database) == SQLITE_OK)
      // NB: out of WAL mode, a write transaction keeps its undo log in a `-journal` file.
      for sql in [
        "PRAGMA journal_mode = DELETE", "BEGIN IMMEDIATE",
        "INSERT INTO memos (id, text) VALUES (1, 'private')",
      ] {
        #expect(sqlite3_exec(database, sql, nil, nil, nil) == SQLITE_OK, "\(sql)")
      }
      #expect(mode(path + "-journal") == 0o600)
      #expect(sqlite3_exec(database, "ROLLBACK", nil, nil, nil) == SQLITE_OK)
    }
  }

  @Test func anExistingDatabaseKeepsItsModeAndItsLogTakesIt() throws {
    let folder = TemporaryFolder()
    let path = folder.path("store.sqlite")
    _ = try ModelContainer(for: Memo.self, storage: .file(path))
    #expect(chmod(path, 0o640) == 0)
    try withUmask(0o022) {
      let context = ModelContext(try ModelContainer(for: Memo.self, storage: .file(path)))
      try context.insert(Memo(id: 1, text: "shared with the group"))
      #expect(mode(path) == 0o640)
      #expect(mode(path + "-wal") == 0o640)
    }
  }
}
