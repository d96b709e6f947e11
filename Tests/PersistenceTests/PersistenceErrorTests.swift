import Persistence
import Testing

@Suite struct PersistenceErrorTests {
  static let messages: [(PersistenceError, String)] = [
    (
      .duplicateID(model: "Link", id: "42"),
      "Cannot insert Link with id '42': a Link with that id already exists."
    ),
    (.notFound(model: "Link", id: "42"), "No Link with id '42' exists."),
    (
      .uniqueViolation(model: "Link", columns: ["url"], id: "42"),
      "Cannot save Link with id '42': another Link has the same value in the unique index on "
        + "'url'."
    ),
    (
      .invalidValue(model: "Item", column: "score", value: "nan"),
      "Cannot store the value 'nan' in column 'score' of Item."
    ),
    (
      .decodingFailed(
        model: "Item", column: "kind", reason: "no case of Kind has the raw value 'x'"),
      "Cannot read column 'kind' of Item: no case of Kind has the raw value 'x'."
    ),
    (
      .invalidFetch(model: "Item", reason: "fetchLimit is -1, below 0"),
      "Invalid fetch of Item: fetchLimit is -1, below 0."
    ),
    (
      .predicateFailed(model: "Item", reason: "boom"),
      "The predicate on Item failed: boom."
    ),
    (
      .unregisteredModel("Tag"),
      "Tag is not registered with this container; pass Tag.self to ModelContainer(for:storage:)."
    ),
    (
      .invalidSchema(model: "Item", reason: "its id must not be optional"),
      "The schema of Item is invalid: its id must not be optional."
    ),
    (
      .incompatibleSchema(table: "notes", column: "text", reason: "it was removed"),
      "Table 'notes' cannot be migrated (column 'text'): it was removed."
    ),
    (
      .incompatibleSchema(table: "notes", column: nil, reason: "it is newer"),
      "Table 'notes' cannot be migrated: it is newer."
    ),
    (.cannotOpen(path: "/x", reason: "it is a folder"), "Cannot open '/x': it is a folder."),
    (.notADatabase(path: "/x"), "'/x' is not an SQLite database."),
    (
      .corruptDatabase(path: "/x", reason: "database disk image is malformed"),
      "The database '/x' is damaged: database disk image is malformed."
    ),
    (
      .sqlite(code: 5, message: "database is locked", sql: "COMMIT"),
      "SQLite error 5: database is locked (in 'COMMIT')."
    ),
    (
      .sqlite(code: 5, message: "database is locked", sql: nil),
      "SQLite error 5: database is locked."
    ),
  ]

  @Test(arguments: messages)
  func describesWhatHappenedAndToWhat(_ error: PersistenceError, _ message: String) {
    #expect(error.description == message)
  }
}
