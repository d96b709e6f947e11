import Foundation
import Persistence
import TestSupport
import Testing

// Versions of one table, "notes", as an app's schema evolves.

private struct NoteV1: PersistentModel, Equatable {
  var id: Int
  var text: String
  static let schema = Schema<NoteV1>(
    table: "notes", columns: [Column(\.id, "id"), Column(\.text, "text")])
  init(id: Int, text: String) {
    self.id = id
    self.text = text
  }
  init(row: Row<NoteV1>) throws {
    id = try row[\.id]
    text = try row[\.text]
  }
}

private struct NoteV2: PersistentModel, Equatable {
  var id: Int
  var text: String
  var priority: Int
  var tag: String?
  static let schema = Schema<NoteV2>(
    table: "notes", version: 2,
    columns: [
      Column(\.id, "id"), Column(\.text, "text", options: .searchable),
      Column(\.priority, "priority", default: 5), Column(\.tag, "tag"),
    ],
    indexes: [Index(\.priority)])
  init(row: Row<NoteV2>) throws {
    id = try row[\.id]
    text = try row[\.text]
    priority = try row[\.priority]
    tag = try row[\.tag]
  }
}

private struct NoteNeedingDefault: PersistentModel {
  var id: Int
  var text: String
  var priority: Int
  static let schema = Schema<NoteNeedingDefault>(
    table: "notes", version: 2,
    columns: [Column(\.id, "id"), Column(\.text, "text"), Column(\.priority, "priority")])
  init(row: Row<NoteNeedingDefault>) throws {
    id = try row[\.id]
    text = try row[\.text]
    priority = try row[\.priority]
  }
}

private struct NoteWithoutText: PersistentModel {
  var id: Int
  static let schema = Schema<NoteWithoutText>(
    table: "notes", version: 2, columns: [Column(\.id, "id")])
  init(row: Row<NoteWithoutText>) throws { id = try row[\.id] }
}

private struct NoteWithNumericText: PersistentModel {
  var id: Int
  var text: Int
  static let schema = Schema<NoteWithNumericText>(
    table: "notes", version: 2, columns: [Column(\.id, "id"), Column(\.text, "text")])
  init(row: Row<NoteWithNumericText>) throws {
    id = try row[\.id]
    text = try row[\.text]
  }
}

private struct NoteWithUniqueText: PersistentModel {
  var id: Int
  var text: String
  static let schema = Schema<NoteWithUniqueText>(
    table: "notes", version: 2, columns: [Column(\.id, "id"), Column(\.text, "text")],
    indexes: [Index(\.text, unique: true)])
  init(row: Row<NoteWithUniqueText>) throws {
    id = try row[\.id]
    text = try row[\.text]
  }
}

private struct NoteWithKind: PersistentModel {
  var id: Int
  var text: Kind
  static let schema = Schema<NoteWithKind>(
    table: "notes", columns: [Column(\.id, "id"), Column(\.text, "text")])
  init(row: Row<NoteWithKind>) throws {
    id = try row[\.id]
    text = try row[\.text]
  }
}

@Suite struct SQLiteFileTests {
  private func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

  private func write(_ notes: [NoteV1], to path: String) throws {
    let context = ModelContext(try ModelContainer(for: NoteV1.self, storage: .file(path)))
    for note in notes { try context.insert(note) }
  }

  @Test func reopeningAFileFindsTheData() throws {
    let folder = TemporaryFolder()
    let path = folder.path("a/b/c/store.sqlite")
    try write([NoteV1(id: 1, text: "one"), NoteV1(id: 2, text: "two")], to: path)
    let context = ModelContext(try ModelContainer(for: NoteV1.self, storage: .file(path)))
    #expect(
      try context.fetchAll(NoteV1.self) == [NoteV1(id: 1, text: "one"), NoteV1(id: 2, text: "two")])
  }

  @Test func twoContainersShareOneFile() throws {
    let folder = TemporaryFolder()
    let path = folder.path("shared.sqlite")
    let first = ModelContext(try ModelContainer(for: NoteV1.self, storage: .file(path)))
    let second = ModelContext(try ModelContainer(for: NoteV1.self, storage: .file(path)))
    try first.insert(NoteV1(id: 1, text: "from first"))
    try second.insert(NoteV1(id: 2, text: "from second"))
    #expect(try first.fetchAll(NoteV1.self).map(\.id) == [1, 2])
    #expect(throws: PersistenceError.duplicateID(model: "NoteV1", id: "1")) {
      try second.insert(NoteV1(id: 1, text: "again"))
    }
  }

  @Test func addingColumnsToAnExistingFileFillsDefaults() throws {
    let folder = TemporaryFolder()
    let path = folder.path("store.sqlite")
    try write([NoteV1(id: 1, text: "Äpfel")], to: path)
    let context = ModelContext(try ModelContainer(for: NoteV2.self, storage: .file(path)))
    let note = try context.fetch(NoteV2.self, id: 1)
    #expect(note?.priority == 5)
    #expect(note?.tag == nil)
    #expect(note?.text == "Äpfel")
  }

  @Test func aColumnMadeSearchableIsFilledForExistingRows() throws {
    let folder = TemporaryFolder()
    let path = folder.path("store.sqlite")
    try write([NoteV1(id: 1, text: "Äpfel"), NoteV1(id: 2, text: "Birnen")], to: path)
    let context = ModelContext(try ModelContainer(for: NoteV2.self, storage: .file(path)))
    let query = "äPFEL".caseFolded
    #expect(
      try context.fetchAll(NoteV2.self, predicate: #Predicate { $0.text.caseFolded == query })
        .map(\.id) == [1])
  }

  @Test func aNewNonOptionalColumnWithoutDefaultFailsAndLeavesTheFileUntouched() throws {
    let folder = TemporaryFolder()
    let path = folder.path("store.sqlite")
    try write([NoteV1(id: 1, text: "one")], to: path)
    let before = bytes(path)
    #expect(
      throws: PersistenceError.incompatibleSchema(
        table: "notes", column: "priority",
        reason: "a new non-optional column needs a default value")
    ) {
      try ModelContainer(for: NoteNeedingDefault.self, storage: .file(path))
    }
    #expect(bytes(path) == before)
  }

  @Test func aRemovedColumnFailsAndLeavesTheFileUntouched() throws {
    let folder = TemporaryFolder()
    let path = folder.path("store.sqlite")
    try write([NoteV1(id: 1, text: "one")], to: path)
    let before = bytes(path)
    #expect(
      throws: PersistenceError.incompatibleSchema(
        table: "notes", column: "text",
        reason: "the file has this column but the schema no longer declares it")
    ) {
      try ModelContainer(for: NoteWithoutText.self, storage: .file(path))
    }
    #expect(bytes(path) == before)
  }

  @Test func aTableNotCreatedByLoopFailsAndLeavesTheFileUntouched() throws {
    let folder = TemporaryFolder()
    let path = folder.path("store.sqlite")
    try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
    try executeSQL(
      "CREATE TABLE notes (id INTEGER, text TEXT); INSERT INTO notes VALUES (1, 'one')", in: path)
    let before = bytes(path)
    #expect(
      throws: PersistenceError.incompatibleSchema(
        table: "notes", column: nil,
        reason: "the table was not created by Loop (it has no 'loop_seq' column)")
    ) {
      try ModelContainer(for: NoteV1.self, storage: .file(path))
    }
    #expect(bytes(path) == before)
  }

  @Test func aChangedColumnTypeFails() throws {
    let folder = TemporaryFolder()
    let path = folder.path("store.sqlite")
    try write([NoteV1(id: 1, text: "one")], to: path)
    #expect(
      throws: PersistenceError.incompatibleSchema(
        table: "notes", column: "text",
        reason: "the file stores it as TEXT NOT NULL, the schema declares INTEGER NOT NULL")
    ) {
      try ModelContainer(for: NoteWithNumericText.self, storage: .file(path))
    }
  }

  @Test func aFileWithANewerSchemaVersionIsRefused() throws {
    let folder = TemporaryFolder()
    let path = folder.path("store.sqlite")
    _ = try ModelContainer(for: NoteV2.self, storage: .file(path))
    #expect(
      throws: PersistenceError.incompatibleSchema(
        table: "notes", column: nil,
        reason: "the file has schema version 2, newer than version 1 of NoteV1")
    ) {
      try ModelContainer(for: NoteV1.self, storage: .file(path))
    }
  }

  @Test func aUniqueIndexOverDuplicatesFailsAndChangesNothing() throws {
    let folder = TemporaryFolder()
    let path = folder.path("store.sqlite")
    try write([NoteV1(id: 1, text: "same"), NoteV1(id: 2, text: "same")], to: path)
    #expect(
      throws: PersistenceError.incompatibleSchema(
        table: "notes", column: "text", reason: "existing rows share values in the new unique index"
      )
    ) {
      try ModelContainer(for: NoteWithUniqueText.self, storage: .file(path))
    }
    let context = ModelContext(try ModelContainer(for: NoteV1.self, storage: .file(path)))
    #expect(try context.fetchAll(NoteV1.self).count == 2)
  }

  @Test func aStoredValueThatIsNotACaseFailsToDecode() throws {
    let folder = TemporaryFolder()
    let path = folder.path("store.sqlite")
    try write([NoteV1(id: 1, text: "zzz")], to: path)
    let context = ModelContext(try ModelContainer(for: NoteWithKind.self, storage: .file(path)))
    #expect(
      throws: PersistenceError.decodingFailed(
        model: "NoteWithKind", column: "text", reason: "no case of Kind has the raw value 'zzz'")
    ) {
      try context.fetchAll(NoteWithKind.self)
    }
  }

  @Test func aFileThatIsNotADatabaseIsReportedAndLeftAlone() throws {
    let folder = TemporaryFolder()
    let path = folder.path("notes.txt")
    try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
    let text = Data(String(repeating: "not a database\n", count: 200).utf8)
    try text.write(to: URL(fileURLWithPath: path))
    #expect(throws: PersistenceError.notADatabase(path: path)) {
      try ModelContainer(for: NoteV1.self, storage: .file(path))
    }
    #expect(bytes(path) == text)
  }

  @Test func aDamagedDatabaseIsReportedAndLeftAlone() throws {
    let folder = TemporaryFolder()
    let path = folder.path("store.sqlite")
    try write([NoteV1(id: 1, text: "one")], to: path)
    var damaged = try #require(bytes(path))
    // Keep the 100-byte header, garble the rest of page 1 (the schema).
    for offset in 100..<min(4_096, damaged.count) { damaged[offset] = 0xA5 }
    try damaged.write(to: URL(fileURLWithPath: path))
    #expect(
      throws: PersistenceError.corruptDatabase(
        path: path, reason: "database disk image is malformed")
    ) {
      try ModelContainer(for: NoteV1.self, storage: .file(path))
    }
    #expect(bytes(path) == damaged)
  }

  @Test func integrityCheckReportsDamagedPages() throws {
    let folder = TemporaryFolder()
    let path = folder.path("store.sqlite")
    try write((1...500).map { NoteV1(id: $0, text: String(repeating: "x", count: 100)) }, to: path)
    var damaged = try #require(bytes(path))
    let page = damaged.count - 8_192
    for offset in page..<(page + 4_096) { damaged[offset] = 0x5A }
    try damaged.write(to: URL(fileURLWithPath: path))
    let container = try ModelContainer(for: NoteV1.self, storage: .file(path))
    #expect {
      try container.checkIntegrity()
    } throws: { error in
      guard case .corruptDatabase(let reported, _) = error as? PersistenceError else {
        return false
      }
      return reported == path
    }
  }

  @Test func aFolderInTheWayCannotBeOpened() throws {
    let folder = TemporaryFolder()
    try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
    #expect(throws: PersistenceError.cannotOpen(path: folder.url.path, reason: "it is a folder")) {
      try ModelContainer(for: NoteV1.self, storage: .file(folder.url.path))
    }
  }
}
