import Foundation

/// A table's id prefix length (``IDPrefix``) kept in the file, so that asking for it again need
/// not walk every id.
///
/// The length is a row of `loop_id_prefix`, written after a pass over the ids. Three triggers
/// on the model's table delete that row whenever one of its rows is inserted, updated or
/// deleted, whoever writes (this connection, another process, the `sqlite3` shell): a row that
/// is there is the length of the ids as they are. The row is believed only while the three
/// triggers are there as written here, since a table rebuilt by a migration, or a trigger an
/// outside tool dropped, no longer deletes it.
///
/// An update through Loop puts the length back (it never changes an id, nor deletes a row), as
/// do a transaction's first insert (grown to what the new id needs) and a delete by id of an
/// id no closest pair holds. A transaction that inserts many models (`SQLiteBackend.largeWriteInserts`) drops the
/// triggers of the table it fills and stores the length anew, from a pass, before it commits.
///
/// NB: any update deletes the row, not only one of the id: `UPDATE OR REPLACE` deletes the
/// rows it conflicts with without firing delete triggers (unless recursive triggers are on).
struct StoredIDPrefixLength {
  /// The table holding the lengths, by table name.
  static let lengthsTable = "loop_id_prefix"
  /// The fewest ids worth storing a length for: below it, the pass costs less than the write.
  static let minimumIDs = 4_096

  let database: SQLiteDatabase
  /// The model's table.
  let table: String

  /// The stored length, or `nil` when none is stored or it cannot be believed.
  func read() throws -> Int? {
    var triggers: [String: String] = [:]
    var hasLengths = false
    try database.query(
      """
      SELECT type, name, sql FROM sqlite_schema
      WHERE (type = 'trigger' AND tbl_name = ?) OR (type = 'table' AND name = ?)
      """, [.text(table), .text(Self.lengthsTable)]
    ) { statement in
      if statement.text(at: 0) == "table" {
        hasLengths = true
      } else {
        triggers[statement.text(at: 1)] = statement.text(at: 2)
      }
      return true
    }
    guard hasLengths, triggerSQL.allSatisfy({ triggers[$0.name] == $0.sql }) else { return nil }
    var length: Int?
    try database.query(
      "SELECT length FROM \(Self.lengthsTable) WHERE table_name = ?", [.text(table)]
    ) { statement in
      length = Int(statement.integer(at: 0))
      return false
    }
    return length
  }

  /// Writes `length`, with the lengths table and the triggers when they are missing.
  ///
  /// Runs inside the caller's transaction, whose reads gave `length`: its first write fails
  /// when another connection wrote since they began, so a length is never stored for ids that
  /// are no longer the table's.
  func store(_ length: Int) throws {
    var statements = [
      """
      CREATE TABLE IF NOT EXISTS \(Self.lengthsTable) (
        table_name TEXT PRIMARY KEY, length INTEGER NOT NULL
      ) STRICT
      """
    ]
    for trigger in triggerSQL {
      statements.append("DROP TRIGGER IF EXISTS \(quoted(trigger.name))")
      statements.append(trigger.sql)
    }
    for sql in statements { try database.execute(sql) }
    try put(length)
  }

  /// Writes `length` where ``read()`` found the triggers, inside the caller's write transaction.
  func put(_ length: Int) throws {
    try database.run(
      "INSERT OR REPLACE INTO \(Self.lengthsTable) (table_name, length) VALUES (?, ?)",
      [.text(table), .integer(Int64(length))])
  }

  /// Deletes the stored length and the triggers, inside the caller's write transaction.
  func forget() throws(PersistenceError) {
    var hasLengths = false
    try mappingErrors {
      try database.query(
        "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?", [.text(Self.lengthsTable)]
      ) { _ in
        hasLengths = true
        return false
      }
    }
    guard hasLengths else { return }
    try database.run(
      "DELETE FROM \(Self.lengthsTable) WHERE table_name = ?", [.text(table)])
    for trigger in triggerSQL {
      try database.execute("DROP TRIGGER IF EXISTS \(quoted(trigger.name))")
    }
  }

  /// The triggers that delete the stored length on any change of the table, by name.
  ///
  /// NB: made without Foundation: a listing reads them before its first row.
  private var triggerSQL: [(name: String, sql: String)] {
    let literal = table.split(separator: "'", omittingEmptySubsequences: false)
      .joined(separator: "''")
    let forget = "DELETE FROM \(Self.lengthsTable) WHERE table_name = '\(literal)'"
    return [("INSERT", "insert"), ("UPDATE", "update"), ("DELETE", "delete")].map {
      event, suffix in
      let name = "\(Self.lengthsTable)_\(table)_\(suffix)"
      return (
        name,
        "CREATE TRIGGER \(quoted(name)) AFTER \(event) ON \(quoted(table)) BEGIN \(forget); END"
      )
    }
  }
}
