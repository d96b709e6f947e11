import CSQLite
import Foundation

/// What opening a file does to one table: statements to run, rows to fill in, indexes to make.
struct MigrationPlan {
  var table: String
  var version: Int
  var columns: String
  var beforeBackfill: [String] = []
  /// Columns just added whose default every existing row gets, bound exactly.
  var defaults: [(column: String, value: SQLValue)] = []
  var backfill: ((SQLiteDatabase) throws(PersistenceError) -> Void)?
  var indexes: [(String, IndexDescription)] = []
}

extension MigrationPlan {
  /// Runs the plan in `database`, inside the caller's write transaction, and records the
  /// table's version and columns in `loop_meta`.
  func apply(in database: SQLiteDatabase) throws(PersistenceError) {
    for statement in beforeBackfill {
      try database.execute(statement)
    }
    for (column, value) in defaults {
      try database.run("UPDATE \(quoted(table)) SET \(column) = ?", [value])
    }
    try backfill?(database)
    for (statement, index) in indexes {
      try mappingErrors {
        try database.execute(statement)
      } sqliteFailed: { [table] code, _ in
        guard code & 0xFF == SQLITE_CONSTRAINT else { return nil }
        return .incompatibleSchema(
          table: table, column: index.columns.joined(separator: ", "),
          reason: "existing rows share values in the new unique index")
      }
    }
    try database.run(
      """
      INSERT INTO loop_meta (table_name, version, columns) VALUES (?, ?, ?)
      ON CONFLICT (table_name) DO UPDATE SET version = excluded.version, columns = excluded.columns
      """, [.text(table), .integer(Int64(version)), .text(columns)])
  }
}

extension TableDescription {
  func migrationPlan(in database: SQLiteDatabase) throws(PersistenceError) -> MigrationPlan {
    var plan = MigrationPlan(
      table: table, version: version,
      columns: stored.map { "\($0.name) \($0.type.rawValue)" }.joined(separator: ", "))
    let existing = try existingColumns(in: database)
    let creates = indexes.map { index in
      (
        "CREATE \(index.isUnique ? "UNIQUE " : "")INDEX IF NOT EXISTS \(quoted(index.name)) ON "
          + "\(quoted(table)) (\(index.columns.map(quoted).joined(separator: ", ")))", index
      )
    }
    guard !existing.isEmpty else {
      plan.beforeBackfill = [createTable(quoted(table), columns: stored.indices)]
      plan.indexes = creates
      return plan
    }
    try checkVersion(in: database)
    func incompatible(_ column: String?, _ reason: String) -> PersistenceError {
      .incompatibleSchema(table: table, column: column, reason: reason)
    }
    guard let sequence = existing.first(where: { $0.name == "loop_seq" }), sequence.isKey else {
      throw incompatible(nil, "the table was not created by Loop (it has no 'loop_seq' column)")
    }
    _ = sequence
    var dropped: [String] = []
    var kept: [Int] = []
    var hasRealColumns = false
    for column in existing where column.name != "loop_seq" {
      guard let position = stored.firstIndex(where: { $0.name == column.name }) else {
        if column.name.hasPrefix("loop_folded_") {
          dropped.append(column.name)
          continue
        }
        throw incompatible(
          column.name, "the file has this column but the schema no longer declares it")
      }
      let declared = stored[position]
      kept.append(position)
      // NB: `ANY` is how Loop stores reals (see `ColumnType.sqlType`); files written before it
      // have `REAL` columns, which the table is rebuilt to replace.
      if column.type == "REAL" { hasRealColumns = true }
      let declaredType = declared.type.rawValue + (declared.isOptional ? "" : " NOT NULL")
      let storedType =
        (column.type == "ANY" ? ColumnType.real.rawValue : column.type)
        + (column.notNull ? " NOT NULL" : "")
      guard declaredType == storedType else {
        throw incompatible(
          column.name, "the file stores it as \(storedType), the schema declares \(declaredType)")
      }
    }
    // Stale indexes first (a column with an index cannot be dropped), then columns.
    for name in try existingIndexes(in: database)
    where !indexes.contains(where: { $0.name == name }) {
      plan.beforeBackfill.append("DROP INDEX \(quoted(name))")
    }
    if hasRealColumns {
      // SQLite cannot change a column's type: copy the rows (`loop_seq` included, so the order
      // stays) into a new table with the same columns, less stale folded ones, then swap them.
      // Dropping the old table drops its indexes; `plan.indexes` makes them again.
      let copy = quoted("loop_rebuild_\(table)")
      let names = ([quoted("loop_seq")] + kept.map { stored[$0].quotedName })
        .joined(separator: ", ")
      plan.beforeBackfill += [
        createTable(copy, columns: kept),
        "INSERT INTO \(copy) (\(names)) SELECT \(names) FROM \(quoted(table))",
        "DROP TABLE \(quoted(table))",
        "ALTER TABLE \(copy) RENAME TO \(quoted(table))",
      ]
      dropped = []
    }
    for name in dropped {
      plan.beforeBackfill.append("ALTER TABLE \(quoted(table)) DROP COLUMN \(quoted(name))")
    }
    var addedFolds: [Int] = []
    for (position, column) in stored.enumerated()
    where !existing.contains(where: { $0.name == column.name }) {
      var declaration = column.declaration
      if column.foldedSource != nil {
        addedFolds.append(position)
      } else if !column.isOptional {
        guard case .success(let value) = columns[position].defaultValue else {
          throw incompatible(column.name, "a new non-optional column needs a default value")
        }
        guard let literal = sqlLiteral(value) else {
          throw incompatible(column.name, "its default cannot be written in SQL")
        }
        declaration += " DEFAULT \(literal)"
        // NB: existing rows read a default from the schema's text, as SQLite parses it (which
        // may round a real's last bit, and turns -0.0 into 0): store the exact value instead.
        if case .real = value { plan.defaults.append((column.quotedName, value)) }
      }
      plan.beforeBackfill.append("ALTER TABLE \(quoted(table)) ADD COLUMN \(declaration)")
    }
    if !addedFolds.isEmpty {
      plan.backfill = { database throws(PersistenceError) in
        try self.backfill(addedFolds, in: database)
      }
    }
    plan.indexes = creates
    return plan
  }

  /// `CREATE TABLE` for the stored columns at `positions`, after the hidden `loop_seq`.
  private func createTable(_ name: String, columns positions: some Sequence<Int>) -> String {
    let declarations =
      [quoted("loop_seq") + " INTEGER PRIMARY KEY"]
      + positions.map { position in
        stored[position].declaration + (position == idIndex ? " UNIQUE" : "")
      }
    return "CREATE TABLE \(name) (\(declarations.joined(separator: ", "))) STRICT"
  }

  private struct ExistingColumn {
    var name: String
    var type: String
    var notNull: Bool
    var isKey: Bool
  }

  private func existingColumns(in database: SQLiteDatabase) throws(PersistenceError)
    -> [ExistingColumn]
  {
    var columns: [ExistingColumn] = []
    try mappingErrors {
      try database.query(
        "SELECT name, type, \"notnull\", pk FROM pragma_table_info(?)", [.text(table)]
      ) { statement in
        columns.append(
          ExistingColumn(
            name: statement.text(at: 0), type: statement.text(at: 1).uppercased(),
            notNull: statement.integer(at: 2) != 0, isKey: statement.integer(at: 3) != 0))
        return true
      }
    }
    return columns
  }

  private func existingIndexes(in database: SQLiteDatabase) throws(PersistenceError) -> [String] {
    var names: [String] = []
    try mappingErrors {
      try database.query(
        "SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = ?", [.text(table)]
      ) { statement in
        let name = statement.text(at: 0)
        if name.hasPrefix("loop_index_") || name.hasPrefix("loop_unique_") { names.append(name) }
        return true
      }
    }
    return names
  }

  private func checkVersion(in database: SQLiteDatabase) throws(PersistenceError) {
    var recorded: Int64?
    try mappingErrors {
      var hasMeta = false
      try database.query(
        "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'loop_meta'"
      ) { _ in
        hasMeta = true
        return false
      }
      guard hasMeta else { return }
      try database.query(
        "SELECT version FROM loop_meta WHERE table_name = ?", [.text(table)]
      ) { statement in
        recorded = statement.integer(at: 0)
        return false
      }
    }
    if let recorded, recorded > Int64(version) {
      throw .incompatibleSchema(
        table: table, column: nil,
        reason:
          "the file has schema version \(recorded), newer than version \(version) of \(modelName)"
      )
    }
  }

  /// Fills newly added folded columns from the rows' models.
  private func backfill(_ positions: [Int], in database: SQLiteDatabase) throws(PersistenceError) {
    let sequenceColumn = Int32(columns.count)
    var updates: [[SQLValue]] = []
    let selected = (columns.map { quoted($0.name) } + [quoted("loop_seq")])
    try mappingErrors {
      try database.query(
        "SELECT \(selected.joined(separator: ", ")) FROM \(quoted(table))"
      ) { statement in
        let model = try Model(row: Row(table: self, source: .statement(statement)))
        var values: [SQLValue] = withUnsafePointer(to: model) { model in
          positions.map { position in
            guard let source = stored[position].foldedSource, let fold = columns[source].fold
            else { return .null }
            return fold(UnsafeRawPointer(model))
          }
        }
        values.append(.integer(statement.integer(at: sequenceColumn)))
        updates.append(values)
        return true
      }
      let assignments = positions.map { "\(quoted(stored[$0].name)) = ?" }
      let update = try database.prepareUncached(
        "UPDATE \(quoted(table)) SET \(assignments.joined(separator: ", ")) WHERE "
          + "\(quoted("loop_seq")) = ?")
      for values in updates {
        try update.execute(values)
      }
    } otherError: { [table] error in
      .incompatibleSchema(
        table: table, column: nil, reason: "an existing row cannot be read: \(error)")
    }
  }
}

/// `value` written as an SQL literal, for `DEFAULT` clauses (which cannot take parameters).
func sqlLiteral(_ value: SQLValue) -> String? {
  switch value {
  case .null:
    return "NULL"
  case .integer(let integer):
    return "\(integer)"
  case .real(let real):
    if real.isInfinite { return real < 0 ? "-9e999" : "9e999" }
    return "\(real)"
  case .text(let text):
    guard !text.utf8.contains(0) else { return nil }
    return "'\(text.replacingOccurrences(of: "'", with: "''"))'"
  case .blob(let bytes):
    let hex = bytes.map { byte in
      let digits = String(byte, radix: 16, uppercase: true)
      return digits.count == 1 ? "0" + digits : digits
    }
    return "X'\(hex.joined())'"
  }
}
