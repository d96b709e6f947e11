import CSQLite
import Foundation
import Loop
import Testing

@testable import Persistence

/// The id prefix length an SQLite file keeps (`StoredIDPrefixLength`): stored after a pass over
/// enough ids, read instead of the pass, and always the length of the ids as they are, whoever
/// changed them since.
@Suite struct StoredIDPrefixLengthTests {
  /// A file holding ``many`` ids (neighbours share at most 3 digits: length 4), and a context
  /// on it.
  private final class File {
    let folder = TemporaryFolder()
    let path: String
    let context: ModelContext

    init() throws {
      path = folder.path("store.sqlite")
      context = try Self.context(path)
      // NB: in transactions too small to store the length themselves (see `largeWrites`).
      for chunk in stride(from: 0, to: many.count, by: 512) {
        try context.transaction { context in
          for id in many[chunk..<(chunk + 512)] {
            try context.insert(Prefixed(id: Prefixed.ID(uuid(id))))
          }
        }
      }
    }

    /// Inserts `count` ids after those of ``many`` and `extra` in one transaction, which throws
    /// `Abandoned` when `abandoned`.
    func insertInOneTransaction(
      _ count: Int, and extra: String, abandoned: Bool = false
    ) throws {
      try context.transaction { context in
        for offset in 0..<count {
          let digits =
            String(format: "F%07X", offset * 0x1_0000) + String(repeating: "0", count: 24)
          try context.insert(Prefixed(id: Prefixed.ID(uuid(digits))))
        }
        try context.insert(Prefixed(id: Prefixed.ID(uuid(extra))))
        if abandoned { throw Abandoned() }
      }
    }

    /// A new context on the file: another connection.
    func reopened() throws -> ModelContext { try Self.context(path) }

    private static func context(_ path: String) throws -> ModelContext {
      ModelContext(try ModelContainer(for: Prefixed.self, storage: .file(path)))
    }

    /// The stored length of the table, read by another connection; `nil` when none.
    func storedLength() throws -> Int? {
      var length: Int?
      try OutsideWriter(path).query("SELECT length FROM loop_id_prefix WHERE table_name = 'ids'") {
        length = Int(sqlite3_column_int64($0, 0))
      }
      return length
    }
  }

  @Test func aLengthFoundByThePassIsStoredForTheNextReader() throws {
    let file = try File()
    #expect(try file.storedLength() == nil)
    #expect(try file.context.fetchIDPrefixLength(Prefixed.self) == 4)
    #expect(try file.storedLength() == 4)
  }

  @Test func storingTheLengthLeavesTheConnectionSyncingItsCommits() throws {
    let file = try File()
    _ = try file.context.fetchIDPrefixLength(Prefixed.self)
    #expect(try file.storedLength() == 4)
    var level: Int64?
    try file.context.container.withBackend { backend in
      let database = try #require((backend as? SQLiteBackend)?.database)
      try database.query("PRAGMA synchronous") { statement in
        level = statement.integer(at: 0)
        return false
      }
    }
    #expect(level == 2)
  }

  @Test func theStoredLengthIsWhatAnotherConnectionReads() throws {
    let file = try File()
    _ = try file.context.fetchIDPrefixLength(Prefixed.self)
    // NB: a length no pass over these ids gives: only a reader of the stored row answers it.
    try OutsideWriter(file.path).run("UPDATE loop_id_prefix SET length = 17")
    #expect(try file.reopened().fetchIDPrefixLength(Prefixed.self) == 17)
  }

  @Test func tooFewIdsAreNotStored() throws {
    let folder = TemporaryFolder()
    let path = folder.path("store.sqlite")
    let context = ModelContext(try ModelContainer(for: Prefixed.self, storage: .file(path)))
    try context.transaction { context in
      for id in many.dropLast() { try context.insert(Prefixed(id: Prefixed.ID(uuid(id)))) }
    }
    #expect(try context.fetchIDPrefixLength(Prefixed.self) == 4)
    // Neither the large write nor the pass stored it.
    var tables = 0
    try OutsideWriter(path).query(
      "SELECT count(*) FROM sqlite_schema WHERE name LIKE 'loop_id_prefix%'"
    ) { tables = Int(sqlite3_column_int64($0, 0)) }
    #expect(tables == 0)
  }

  @Test func anInsertThroughLoopKeepsTheStoredLengthAndLengthensIt() throws {
    let file = try File()
    _ = try file.context.fetchIDPrefixLength(Prefixed.self)
    try file.context.insert(
      Prefixed(id: Prefixed.ID(uuid("F" + String(repeating: "0", count: 31)))))
    #expect(try file.storedLength() == 4)
    try file.context.insert(Prefixed(id: Prefixed.ID(uuid(closeToFirst))))
    #expect(try file.storedLength() == 12)
    #expect(try file.reopened().fetchIDPrefixLength(Prefixed.self) == 12)
  }

  @Test func aCloseIDAfterTheFirstInsertOfATransactionIsCounted() throws {
    let file = try File()
    _ = try file.context.fetchIDPrefixLength(Prefixed.self)
    try file.context.transaction { context in
      try context.insert(Prefixed(id: Prefixed.ID(uuid("F" + String(repeating: "0", count: 31)))))
      try context.insert(Prefixed(id: Prefixed.ID(uuid(closeToFirst))))
    }
    #expect(try file.storedLength() == nil)
    #expect(try file.context.fetchIDPrefixLength(Prefixed.self) == 12)
  }

  @Test func aDuplicateInsertKeepsTheStoredLength() throws {
    let file = try File()
    _ = try file.context.fetchIDPrefixLength(Prefixed.self)
    #expect(throws: PersistenceError.self) {
      try file.context.insert(Prefixed(id: Prefixed.ID(uuid(many[3]))))
    }
    #expect(try file.storedLength() == 4)
  }

  @Test func aDeletedCloseIDShortensTheStoredLength() throws {
    let file = try File()
    let close = Prefixed(id: Prefixed.ID(uuid(closeToFirst)))
    try file.context.insert(close)
    #expect(try file.context.fetchIDPrefixLength(Prefixed.self) == 12)
    try file.context.delete(close)
    #expect(try file.context.fetchIDPrefixLength(Prefixed.self) == 4)
    #expect(try file.storedLength() == 4)
  }

  @Test func anUpdateThroughLoopKeepsTheStoredLength() throws {
    let file = try File()
    _ = try file.context.fetchIDPrefixLength(Prefixed.self)
    try file.context.update(Prefixed(id: Prefixed.ID(uuid(many[7])), note: "changed"))
    #expect(try file.storedLength() == 4)
    #expect(
      try file.reopened().fetch(FetchDescriptor<Prefixed>()).compactMap(\.note) == ["changed"])
  }

  @Test func anUpdateByAnotherConnectionForgetsTheStoredLength() throws {
    let file = try File()
    _ = try file.context.fetchIDPrefixLength(Prefixed.self)
    try OutsideWriter(file.path).run("UPDATE ids SET note = 'changed' WHERE id = x'\(many[7])'")
    #expect(try file.storedLength() == nil)
    #expect(try file.context.fetchIDPrefixLength(Prefixed.self) == 4)
  }

  @Test func aDeletedIDOutsideTheClosestPairKeepsTheStoredLength() throws {
    let file = try File()
    try file.context.insert(Prefixed(id: Prefixed.ID(uuid(closeToFirst))))
    #expect(try file.context.fetchIDPrefixLength(Prefixed.self) == 12)
    try file.context.delete(Prefixed.self, id: Prefixed.ID(uuid(many[500])))
    #expect(try file.storedLength() == 12)
    try file.context.delete(Prefixed.self, id: Prefixed.ID(uuid(many[0])))
    #expect(try file.storedLength() == nil)
    #expect(try file.context.fetchIDPrefixLength(Prefixed.self) == 4)
  }

  @Test func anIDChangedInPlaceChangesTheStoredLength() throws {
    let file = try File()
    _ = try file.context.fetchIDPrefixLength(Prefixed.self)
    try OutsideWriter(file.path).run(
      "UPDATE ids SET id = x'\(closeToFirst)' WHERE id = x'\(many[1])'")
    #expect(try file.context.fetchIDPrefixLength(Prefixed.self) == 12)
  }

  @Test func anOutsideWritersInsertAndDeleteAreSeen() throws {
    let file = try File()
    _ = try file.context.fetchIDPrefixLength(Prefixed.self)
    let outside = try OutsideWriter(file.path)
    try outside.run("INSERT INTO ids (id) VALUES (x'\(closeToFirst)')")
    #expect(try file.context.fetchIDPrefixLength(Prefixed.self) == 12)
    #expect(try file.reopened().fetchIDPrefixLength(Prefixed.self) == 12)
    try outside.run("DELETE FROM ids WHERE id = x'\(closeToFirst)'")
    #expect(try file.context.fetchIDPrefixLength(Prefixed.self) == 4)
  }

  @Test func aWholeTableDeletedIsSeen() throws {
    let file = try File()
    _ = try file.context.fetchIDPrefixLength(Prefixed.self)
    try OutsideWriter(file.path).run("DELETE FROM ids")
    #expect(try file.context.fetchIDPrefixLength(Prefixed.self) == 1)
  }

  @Test func aStoredLengthWithoutItsTriggersIsNotBelieved() throws {
    let file = try File()
    _ = try file.context.fetchIDPrefixLength(Prefixed.self)
    let outside = try OutsideWriter(file.path)
    try outside.run("DROP TRIGGER loop_id_prefix_ids_insert")
    try outside.run("INSERT INTO ids (id) VALUES (x'\(closeToFirst)')")
    #expect(try file.storedLength() == 4)
    #expect(try file.context.fetchIDPrefixLength(Prefixed.self) == 12)
    // The pass put the trigger back, with the length it found.
    #expect(try file.storedLength() == 12)
    try outside.run("DELETE FROM ids WHERE id = x'\(closeToFirst)'")
    #expect(try file.context.fetchIDPrefixLength(Prefixed.self) == 4)
  }

  @Test func aTriggerChangedByAnOutsideToolIsNotBelieved() throws {
    let file = try File()
    _ = try file.context.fetchIDPrefixLength(Prefixed.self)
    let outside = try OutsideWriter(file.path)
    try outside.run("DROP TRIGGER loop_id_prefix_ids_insert")
    try outside.run(
      "CREATE TRIGGER loop_id_prefix_ids_insert AFTER INSERT ON ids BEGIN SELECT 1; END")
    try outside.run("INSERT INTO ids (id) VALUES (x'\(closeToFirst)')")
    #expect(try file.context.fetchIDPrefixLength(Prefixed.self) == 12)
  }

  @Test func aLengthFoundWhileAnotherConnectionWritesIsExactButNotStored() throws {
    let file = try File()
    let outside = try OutsideWriter(file.path)
    try outside.run("BEGIN IMMEDIATE")
    try outside.run("INSERT INTO ids (id) VALUES (x'\(closeToFirst)')")
    // NB: the write lock is the other connection's: storing gives up at once, and the length
    // is that of the committed ids.
    #expect(try file.context.fetchIDPrefixLength(Prefixed.self) == 4)
    try outside.run("COMMIT")
    #expect(try file.storedLength() == nil)
    #expect(try file.context.fetchIDPrefixLength(Prefixed.self) == 12)
  }

  @Test func insideATransactionTheLengthCountsItsOwnWrites() throws {
    let file = try File()
    _ = try file.context.fetchIDPrefixLength(Prefixed.self)
    let length = try file.context.transaction { context in
      try context.insert(Prefixed(id: Prefixed.ID(uuid(closeToFirst))))
      return try context.fetchIDPrefixLength(Prefixed.self)
    }
    #expect(length == 12)
    #expect(try file.storedLength() == 12)
  }

  @Test func aLargeWriteStoresTheLengthOfWhatItWrote() throws {
    let file = try File()
    #expect(try file.storedLength() == nil)
    try file.insertInOneTransaction(1_000, and: closeToFirst)
    #expect(try file.storedLength() == 12)
    #expect(try file.reopened().fetchIDPrefixLength(Prefixed.self) == 12)
  }

  @Test func aLargeWritePutsTheTriggersBack() throws {
    let file = try File()
    _ = try file.context.fetchIDPrefixLength(Prefixed.self)
    try file.insertInOneTransaction(1_000, and: closeToFirst)
    let outside = try OutsideWriter(file.path)
    try outside.run("DELETE FROM ids WHERE id = x'\(closeToFirst)'")
    #expect(try file.storedLength() == nil)
    #expect(try file.context.fetchIDPrefixLength(Prefixed.self) == 4)
  }

  @Test func aLargeWriteRolledBackKeepsTheStoredLengthAndItsTriggers() throws {
    let file = try File()
    _ = try file.context.fetchIDPrefixLength(Prefixed.self)
    #expect(throws: Abandoned.self) {
      try file.insertInOneTransaction(1_000, and: closeToFirst, abandoned: true)
    }
    #expect(try file.storedLength() == 4)
    try OutsideWriter(file.path).run("INSERT INTO ids (id) VALUES (x'\(closeToFirst)')")
    #expect(try file.context.fetchIDPrefixLength(Prefixed.self) == 12)
  }

  @Test func aRolledBackTransactionKeepsTheStoredLength() throws {
    let file = try File()
    _ = try file.context.fetchIDPrefixLength(Prefixed.self)
    #expect(throws: Abandoned.self) {
      try file.context.transaction { context in
        try context.insert(Prefixed(id: Prefixed.ID(uuid(closeToFirst))))
        throw Abandoned()
      }
    }
    #expect(try file.storedLength() == 4)
    #expect(try file.context.fetchIDPrefixLength(Prefixed.self) == 4)
  }
}

/// What a transaction a test gives up throws.
private struct Abandoned: Error {}

/// A model whose table holds its ids and a note an update can change.
private struct Prefixed: PersistentModel, Equatable {
  typealias ID = ModelID<Prefixed>
  var id: ID
  var note: String?

  static let schema = Schema<Prefixed>(
    table: "ids", columns: [Column(\.id, "id"), Column(\.note, "note")])

  init(id: ID, note: String? = nil) {
    self.id = id
    self.note = note
  }

  init(row: Row<Prefixed>) throws {
    id = try row[\.id]
    note = try row[\.note]
  }
}

/// Just enough ids to be stored, each 0x11000 after the one before in their first 8 digits:
/// neighbours share at most 3 digits.
private let many = (0..<StoredIDPrefixLength.minimumIDs).map {
  String(format: "%08X", ($0 + 1) * 0x0001_1000) + String(repeating: "0", count: 24)
}

/// An id sharing 11 digits with the first of ``many``.
private let closeToFirst = String(many[0].prefix(11)) + "8" + String(repeating: "0", count: 20)

/// A connection of its own, as another process or the `sqlite3` shell would have.
private final class OutsideWriter {
  private let handle: OpaquePointer

  init(_ path: String) throws {
    var handle: OpaquePointer?
    guard sqlite3_open(path, &handle) == SQLITE_OK, let handle else {
      throw Failure(message: "cannot open '\(path)'")
    }
    self.handle = handle
  }

  deinit { sqlite3_close(handle) }

  /// Runs `sql`, failing on any error.
  func run(_ sql: String) throws {
    guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else {
      throw Failure(message: String(cString: sqlite3_errmsg(handle)))
    }
  }

  /// Runs `sql`, calling `row` on each row; a missing table reads as no rows.
  func query(_ sql: String, _ row: (OpaquePointer) -> Void) throws {
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
      let message = String(cString: sqlite3_errmsg(handle))
      if message.hasPrefix("no such table") { return }
      throw Failure(message: message)
    }
    defer { sqlite3_finalize(statement) }
    while sqlite3_step(statement) == SQLITE_ROW { row(statement) }
  }

  struct Failure: Error {
    var message: String
  }
}
