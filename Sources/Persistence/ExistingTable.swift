import Foundation

/// A model's table as the database holds it, read from its catalog before a ``MigrationPlan``
/// is made: no columns when the table does not exist.
struct ExistingTable {
  /// A column as the catalog describes it.
  struct Column {
    var name: String
    /// The declared type, as the dialect spells it (upper case in SQLite).
    var type: String
    var notNull: Bool
    var isKey: Bool = false
    /// Whether the database computes it (PostgreSQL's generated columns).
    var isGenerated = false
    /// The collation of a text column (PostgreSQL).
    var collation = ""
  }

  /// The columns, in order; empty when the table does not exist.
  var storedColumns: [Column] = []
  /// The names of Loop's indexes on it (`loop_index_…`, `loop_unique_…`).
  var indexes: [String] = []
  /// The version `loop_meta` records for it, if any.
  var version: Int64?
  /// The columns `loop_meta` records for it, if any.
  var columns: String?

  /// Reads the table `table` of an SQLite file.
  init(_ table: String, in database: SQLiteDatabase) throws(PersistenceError) {
    try mappingErrors {
      try database.query(
        "SELECT name, type, \"notnull\", pk FROM pragma_table_info(?)", [.text(table)]
      ) { statement in
        storedColumns.append(
          Column(
            name: statement.text(at: 0), type: statement.text(at: 1).uppercased(),
            notNull: statement.integer(at: 2) != 0, isKey: statement.integer(at: 3) != 0))
        return true
      }
      guard !storedColumns.isEmpty else { return }
      try database.query(
        "SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = ?", [.text(table)]
      ) { statement in
        indexes.append(statement.text(at: 0))
        return true
      }
      var hasMeta = false
      try database.query(
        "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'loop_meta'"
      ) { _ in
        hasMeta = true
        return false
      }
      guard hasMeta else { return }
      try database.query(
        "SELECT version, columns FROM loop_meta WHERE table_name = ?", [.text(table)]
      ) { statement in
        version = statement.integer(at: 0)
        columns = statement.text(at: 1)
        return false
      }
    }
    indexes = indexes.filter(Self.isLoopIndex)
  }

  /// Reads the table `table` in the current schema of a PostgreSQL connection, whose
  /// `loop_meta` exists.
  init(_ table: String, in connection: PostgresConnection) throws(PersistenceError) {
    let columns = try connection.run(
      """
      SELECT a.attname::text, format_type(a.atttypid, a.atttypmod), a.attnotnull,
        a.attnum = ANY (coalesce(k.conkey, '{}')), a.attgenerated <> '',
        coalesce(o.collname::text, '')
      FROM pg_attribute a
      JOIN pg_class c ON c.oid = a.attrelid
      LEFT JOIN pg_constraint k ON k.conrelid = c.oid AND k.contype = 'p'
      LEFT JOIN pg_collation o ON o.oid = a.attcollation
      WHERE c.relnamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema())
        AND c.relname = ? AND c.relkind = 'r'
        AND a.attnum > 0 AND NOT a.attisdropped
      ORDER BY a.attnum
      """, [.text(table)], kinds: [.text])
    func text(_ result: PostgresResult, _ row: Int32, _ column: Int32) -> String {
      guard case .text(let text) = result.value(row: row, column: column) else { return "" }
      return text
    }
    func flag(_ result: PostgresResult, _ row: Int32, _ column: Int32) -> Bool {
      result.value(row: row, column: column) == .integer(1)
    }
    for row in 0..<columns.count {
      storedColumns.append(
        Column(
          name: text(columns, row, 0), type: text(columns, row, 1),
          notNull: flag(columns, row, 2), isKey: flag(columns, row, 3),
          isGenerated: flag(columns, row, 4), collation: text(columns, row, 5)))
    }
    guard !storedColumns.isEmpty else { return }
    let indexes = try connection.run(
      "SELECT indexname::text FROM pg_indexes WHERE schemaname = current_schema() AND "
        + "tablename = ?", [.text(table)], kinds: [.text])
    for row in 0..<indexes.count {
      self.indexes.append(text(indexes, row, 0))
    }
    self.indexes = self.indexes.filter(Self.isLoopIndex)
    let meta = try connection.run(
      "SELECT version, columns FROM loop_meta WHERE table_name = ?", [.text(table)],
      kinds: [.text])
    if meta.count > 0 {
      version = meta.integer(row: 0, column: 0)
      self.columns = text(meta, 0, 1)
    }
  }

  private static func isLoopIndex(_ name: String) -> Bool {
    name.hasPrefix("loop_index_") || name.hasPrefix("loop_unique_")
  }
}
