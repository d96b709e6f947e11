import Foundation
import Persistence
import TestSupport
import Testing

// Versions of one table, "notes", as an app's schema evolves.

struct NoteV1: PersistentModel, Equatable {
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

struct NoteV2: PersistentModel, Equatable {
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

struct NoteNeedingDefault: PersistentModel {
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

struct NoteWithoutText: PersistentModel {
  var id: Int
  static let schema = Schema<NoteWithoutText>(
    table: "notes", version: 2, columns: [Column(\.id, "id")])
  init(row: Row<NoteWithoutText>) throws { id = try row[\.id] }
}

struct NoteWithNumericText: PersistentModel {
  var id: Int
  var text: Int
  static let schema = Schema<NoteWithNumericText>(
    table: "notes", version: 2, columns: [Column(\.id, "id"), Column(\.text, "text")])
  init(row: Row<NoteWithNumericText>) throws {
    id = try row[\.id]
    text = try row[\.text]
  }
}

struct NoteWithUniqueText: PersistentModel {
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

struct NoteWithKind: PersistentModel {
  var id: Int
  var text: Kind
  static let schema = Schema<NoteWithKind>(
    table: "notes", columns: [Column(\.id, "id"), Column(\.text, "text")])
  init(row: Row<NoteWithKind>) throws {
    id = try row[\.id]
    text = try row[\.text]
  }
}

/// Reopening a stored database (an SQLite file, a PostgreSQL schema) and bringing it to a newer
/// schema: what fits is migrated in place, what does not is refused and changes nothing.
@Suite struct MigrationTests {
  private let folder = TemporaryFolder()

  /// The storage of `backend` this test reopens.
  private func storage(_ backend: Backend) -> ModelContainer.Storage {
    backend.storage(file: "a/b/c/store.sqlite", in: folder.url)
  }

  private func write(_ notes: [NoteV1], _ backend: Backend) throws {
    let context = ModelContext(try ModelContainer(for: NoteV1.self, storage: storage(backend)))
    for note in notes { try context.insert(note) }
  }

  private func snapshot(_ backend: Backend) throws -> Data? {
    try backend.snapshot(file: "a/b/c/store.sqlite", in: folder.url)
  }

  /// "the file" for SQLite, "the database" for PostgreSQL, as the messages say.
  private func holder(_ backend: Backend) -> String {
    backend == .sqlite ? "the file" : "the database"
  }

  @Test(arguments: Backend.persistent)
  func reopeningFindsTheData(_ backend: Backend) throws {
    defer { Backend.removeStorage(in: folder.url) }
    try write([NoteV1(id: 1, text: "one"), NoteV1(id: 2, text: "two")], backend)
    let context = ModelContext(try ModelContainer(for: NoteV1.self, storage: storage(backend)))
    #expect(
      try context.fetchAll(NoteV1.self) == [NoteV1(id: 1, text: "one"), NoteV1(id: 2, text: "two")])
  }

  @Test(arguments: Backend.persistent)
  func twoContainersShareOneDatabase(_ backend: Backend) throws {
    defer { Backend.removeStorage(in: folder.url) }
    let first = ModelContext(try ModelContainer(for: NoteV1.self, storage: storage(backend)))
    let second = ModelContext(try ModelContainer(for: NoteV1.self, storage: storage(backend)))
    try first.insert(NoteV1(id: 1, text: "from first"))
    try second.insert(NoteV1(id: 2, text: "from second"))
    #expect(try first.fetchAll(NoteV1.self).map(\.id) == [1, 2])
    #expect(throws: PersistenceError.duplicateID(model: "NoteV1", id: "1")) {
      try second.insert(NoteV1(id: 1, text: "again"))
    }
  }

  @Test(arguments: Backend.persistent)
  func addingColumnsFillsDefaults(_ backend: Backend) throws {
    defer { Backend.removeStorage(in: folder.url) }
    try write([NoteV1(id: 1, text: "Äpfel")], backend)
    let context = ModelContext(try ModelContainer(for: NoteV2.self, storage: storage(backend)))
    let note = try context.fetch(NoteV2.self, id: 1)
    #expect(note?.priority == 5)
    #expect(note?.tag == nil)
    #expect(note?.text == "Äpfel")
  }

  @Test(arguments: Backend.persistent)
  func aColumnMadeSearchableIsFilledForExistingRows(_ backend: Backend) throws {
    defer { Backend.removeStorage(in: folder.url) }
    try write([NoteV1(id: 1, text: "Äpfel"), NoteV1(id: 2, text: "Birnen")], backend)
    let context = ModelContext(try ModelContainer(for: NoteV2.self, storage: storage(backend)))
    let query = "äPFEL".caseFolded
    #expect(
      try context.fetchAll(NoteV2.self, predicate: #Predicate { $0.text.caseFolded == query })
        .map(\.id) == [1])
  }

  @Test(arguments: Backend.persistent)
  func aNewNonOptionalColumnWithoutDefaultFailsAndChangesNothing(_ backend: Backend) throws {
    defer { Backend.removeStorage(in: folder.url) }
    try write([NoteV1(id: 1, text: "one")], backend)
    let before = try snapshot(backend)
    #expect(
      throws: PersistenceError.incompatibleSchema(
        table: "notes", column: "priority",
        reason: "a new non-optional column needs a default value")
    ) {
      try ModelContainer(for: NoteNeedingDefault.self, storage: storage(backend))
    }
    #expect(try snapshot(backend) == before)
  }

  @Test(arguments: Backend.persistent)
  func aRemovedColumnFailsAndChangesNothing(_ backend: Backend) throws {
    defer { Backend.removeStorage(in: folder.url) }
    try write([NoteV1(id: 1, text: "one")], backend)
    let before = try snapshot(backend)
    #expect(
      throws: PersistenceError.incompatibleSchema(
        table: "notes", column: "text",
        reason: "\(holder(backend)) has this column but the schema no longer declares it")
    ) {
      try ModelContainer(for: NoteWithoutText.self, storage: storage(backend))
    }
    #expect(try snapshot(backend) == before)
  }

  @Test(arguments: Backend.persistent)
  func aTableNotCreatedByLoopFailsAndChangesNothing(_ backend: Backend) throws {
    defer { Backend.removeStorage(in: folder.url) }
    _ = storage(backend)
    try FileManager.default.createDirectory(
      at: folder.url.appendingPathComponent("a/b/c"), withIntermediateDirectories: true)
    try backend.executeSQL(
      "CREATE TABLE notes (id INTEGER, text TEXT); INSERT INTO notes VALUES (1, 'one')",
      file: "a/b/c/store.sqlite", in: folder.url)
    let before = try snapshot(backend)
    #expect(
      throws: PersistenceError.incompatibleSchema(
        table: "notes", column: nil,
        reason: "the table was not created by Loop (it has no 'loop_seq' column)")
    ) {
      try ModelContainer(for: NoteV1.self, storage: storage(backend))
    }
    #expect(try snapshot(backend) == before)
  }

  @Test(arguments: Backend.persistent)
  func aChangedColumnTypeFails(_ backend: Backend) throws {
    defer { Backend.removeStorage(in: folder.url) }
    try write([NoteV1(id: 1, text: "one")], backend)
    let (stored, declared) =
      backend == .sqlite ? ("TEXT", "INTEGER") : ("text", "bigint")
    #expect(
      throws: PersistenceError.incompatibleSchema(
        table: "notes", column: "text",
        reason:
          "\(holder(backend)) stores it as \(stored) NOT NULL, the schema declares \(declared) "
          + "NOT NULL")
    ) {
      try ModelContainer(for: NoteWithNumericText.self, storage: storage(backend))
    }
  }

  @Test(arguments: Backend.persistent)
  func aNewerSchemaVersionIsRefused(_ backend: Backend) throws {
    defer { Backend.removeStorage(in: folder.url) }
    _ = try ModelContainer(for: NoteV2.self, storage: storage(backend))
    #expect(
      throws: PersistenceError.incompatibleSchema(
        table: "notes", column: nil,
        reason: "\(holder(backend)) has schema version 2, newer than version 1 of NoteV1")
    ) {
      try ModelContainer(for: NoteV1.self, storage: storage(backend))
    }
  }

  @Test(arguments: Backend.persistent)
  func aUniqueIndexOverDuplicatesFailsAndChangesNothing(_ backend: Backend) throws {
    defer { Backend.removeStorage(in: folder.url) }
    try write([NoteV1(id: 1, text: "same"), NoteV1(id: 2, text: "same")], backend)
    #expect(
      throws: PersistenceError.incompatibleSchema(
        table: "notes", column: "text", reason: "existing rows share values in the new unique index"
      )
    ) {
      try ModelContainer(for: NoteWithUniqueText.self, storage: storage(backend))
    }
    let context = ModelContext(try ModelContainer(for: NoteV1.self, storage: storage(backend)))
    #expect(try context.fetchAll(NoteV1.self).count == 2)
  }

  @Test(arguments: Backend.persistent)
  func aStoredValueThatIsNotACaseFailsToDecode(_ backend: Backend) throws {
    defer { Backend.removeStorage(in: folder.url) }
    try write([NoteV1(id: 1, text: "zzz")], backend)
    let context = ModelContext(
      try ModelContainer(for: NoteWithKind.self, storage: storage(backend)))
    #expect(
      throws: PersistenceError.decodingFailed(
        model: "NoteWithKind", column: "text", reason: "no case of Kind has the raw value 'zzz'")
    ) {
      try context.fetchAll(NoteWithKind.self)
    }
  }
}
