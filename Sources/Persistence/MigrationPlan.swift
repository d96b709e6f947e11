import CSQLite
import Foundation

/// What opening a database does to one table: statements to run, rows to fill in, indexes to
/// make; the same rules for an SQLite file and a PostgreSQL database (see ``SQLDialect``).
///
/// The rules: a missing table is created with its indexes. An existing one must have been made
/// by Loop (it has `loop_seq`), with a recorded version no newer than the schema's; each of its
/// columns must still be declared with the same type and optionality. Declared columns it lacks
/// are added (a non-optional one needs a default, which existing rows get exactly), hidden
/// folded columns are added and filled from the rows or dropped, stale indexes are dropped and
/// missing ones created. Anything else is refused before the first change.
struct MigrationPlan {
  var table: String
  var version: Int
  var columns: String
  var beforeBackfill: [String] = []
  /// Columns just added whose default every existing row gets, bound exactly.
  var defaults: [(column: String, value: SQLValue, kind: ValueKind)] = []
  var backfill: ((MigrationTarget) throws(PersistenceError) -> Void)?
  var indexes: [(String, IndexDescription)] = []
  /// Whether `loop_meta` already records this version and these columns.
  var isRecorded = false

  /// Whether applying the plan changes nothing.
  var isEmpty: Bool {
    beforeBackfill.isEmpty && defaults.isEmpty && backfill == nil && indexes.isEmpty && isRecorded
  }
}

/// Where a plan is applied.
enum MigrationTarget {
  case sqlite(SQLiteDatabase)
  case postgres(PostgresConnection)

  func execute(_ sql: String) throws(PersistenceError) {
    switch self {
    case .sqlite(let database): try database.execute(sql)
    case .postgres(let connection): try connection.execute(sql)
    }
  }

  func run(_ sql: String, _ parameters: [SQLValue], kinds: [ValueKind]) throws(PersistenceError) {
    switch self {
    case .sqlite(let database): try database.run(sql, parameters)
    case .postgres(let connection): try connection.run(sql, parameters, kinds: kinds)
    }
  }
}

extension MigrationPlan {
  /// Runs the plan in `target`, inside the caller's write transaction, and records the
  /// table's version and columns in `loop_meta`.
  func apply(in target: MigrationTarget) throws(PersistenceError) {
    for statement in beforeBackfill {
      try target.execute(statement)
    }
    for (column, value, kind) in defaults {
      try target.run("UPDATE \(quoted(table)) SET \(column) = ?", [value], kinds: [kind])
    }
    try backfill?(target)
    for (statement, index) in indexes {
      do {
        try target.execute(statement)
      } catch let error where error.isUniqueConstraintFailure {
        throw .incompatibleSchema(
          table: table, column: index.columns.joined(separator: ", "),
          reason: "existing rows share values in the new unique index")
      }
    }
    guard !isEmpty else { return }
    try target.run(
      """
      INSERT INTO loop_meta (table_name, version, columns) VALUES (?, ?, ?)
      ON CONFLICT (table_name) DO UPDATE SET version = excluded.version, columns = excluded.columns
      """, [.text(table), .integer(Int64(version)), .text(columns)],
      kinds: [.text, .integer, .text])
  }

  /// Runs the plan in an SQLite file.
  func apply(in database: SQLiteDatabase) throws(PersistenceError) {
    try apply(in: .sqlite(database))
  }
}

extension PersistenceError {
  /// Whether a statement failed because rows would share values in a unique index.
  var isUniqueConstraintFailure: Bool {
    switch self {
    case .sqlite(let code, _, _): code & 0xFF == SQLITE_CONSTRAINT
    case .postgres(let code, _, _): code == "23505"
    default: false
    }
  }
}

extension TableDescription {
  /// What opening `database` must do to this table.
  func migrationPlan(in database: SQLiteDatabase) throws(PersistenceError) -> MigrationPlan {
    try migrationPlan(for: ExistingTable(table, in: database), dialect: .sqlite)
  }

  /// What opening the database of `connection` must do to this table.
  func migrationPlan(in connection: PostgresConnection) throws(PersistenceError) -> MigrationPlan {
    try migrationPlan(for: ExistingTable(table, in: connection), dialect: .postgres)
  }

  /// What must be done to bring `existing` to this table's schema (read-only; throws when it
  /// cannot be done without losing data).
  func migrationPlan(for existing: ExistingTable, dialect: SQLDialect) throws(PersistenceError)
    -> MigrationPlan
  {
    var plan = MigrationPlan(
      table: table, version: version,
      columns: stored.map { "\($0.name) \($0.type.rawValue)" }.joined(separator: ", "))
    plan.isRecorded = existing.version == Int64(version) && existing.columns == plan.columns
    let creates = indexes.map { index in
      (dialect.createIndex(index, table: table, stored: stored), index)
    }
    guard !existing.storedColumns.isEmpty else {
      plan.beforeBackfill =
        [createTable(quoted(table), columns: stored.indices, dialect)]
        + dialect.idIndexes(stored[idIndex], table: table)
      plan.indexes = creates
      return plan
    }
    if let recorded = existing.version, recorded > Int64(version) {
      throw .incompatibleSchema(
        table: table, column: nil,
        reason:
          "\(dialect.holder) has schema version \(recorded), newer than version \(version) of "
          + modelName)
    }
    func incompatible(_ column: String?, _ reason: String) -> PersistenceError {
      .incompatibleSchema(table: table, column: column, reason: reason)
    }
    guard existing.storedColumns.contains(where: { $0.name == "loop_seq" && $0.isKey }) else {
      throw incompatible(nil, "the table was not created by Loop (it has no 'loop_seq' column)")
    }
    let names = stored.map { dialect.declarations($0).map(\.name) }
    var dropped: [String] = []
    var kept: [Int] = []
    var hasRealColumns = false
    for column in existing.storedColumns where column.name != "loop_seq" {
      if let position = names.firstIndex(where: { $0.dropFirst().contains(column.name) }) {
        // PostgreSQL's `timestamptz` copy of a date, which it computes itself.
        guard column.type == SQLDialect.nativeDateType, column.isGenerated else {
          throw incompatible(
            column.name,
            "\(dialect.holder) stores it as \(column.type), not as the instant computed from "
              + "'\(names[position][0])'")
        }
        continue
      }
      guard let position = names.firstIndex(where: { $0.first == column.name }) else {
        if column.name.hasPrefix("loop_folded_") {
          dropped.append(column.name)
          continue
        }
        throw incompatible(
          column.name, "\(dialect.holder) has this column but the schema no longer declares it")
      }
      let declared = stored[position]
      kept.append(position)
      // NB: `ANY` is how Loop stores reals in SQLite (see `ColumnType.sqlType`); files written
      // before it have `REAL` columns, which the table is rebuilt to replace.
      if dialect == .sqlite, column.type == "REAL" { hasRealColumns = true }
      let declaredType = dialect.typeName(declared.kind) + (declared.isOptional ? "" : " NOT NULL")
      let storedType =
        (column.type == "ANY" ? ColumnType.real.rawValue : column.type)
        + (column.notNull ? " NOT NULL" : "")
      guard declaredType == storedType else {
        throw incompatible(
          column.name,
          "\(dialect.holder) stores it as \(storedType), the schema declares \(declaredType)")
      }
      if dialect == .postgres, declared.kind == .text, column.collation != "C" {
        throw incompatible(
          column.name,
          "\(dialect.holder) compares it in the collation '\(column.collation)', and Loop "
            + "compares text byte by byte (\"C\")")
      }
    }
    // Stale indexes first (a column with an index cannot be dropped), then columns.
    let indexNames = indexes.map { dialect.identifier($0.name) }
    for name in existing.indexes where !indexNames.contains(name) {
      plan.beforeBackfill.append("DROP INDEX \(quoted(name))")
    }
    if hasRealColumns {
      // SQLite cannot change a column's type: copy the rows (`loop_seq` included, so the order
      // stays) into a new table with the same columns, less stale folded ones, then swap them.
      // Dropping the old table drops its indexes; `plan.indexes` makes them again.
      let copy = quoted("loop_rebuild_\(table)")
      let copied = ([quoted("loop_seq")] + kept.map { stored[$0].quotedName })
        .joined(separator: ", ")
      plan.beforeBackfill += [
        createTable(copy, columns: kept, dialect),
        "INSERT INTO \(copy) (\(copied)) SELECT \(copied) FROM \(quoted(table))",
        "DROP TABLE \(quoted(table))",
        "ALTER TABLE \(copy) RENAME TO \(quoted(table))",
      ]
      dropped = []
    }
    // The indexes missing (all of them after a rebuild, which dropped them).
    let missing = creates.filter {
      hasRealColumns || !existing.indexes.contains(dialect.identifier($0.1.name))
    }
    for name in dropped {
      plan.beforeBackfill.append("ALTER TABLE \(quoted(table)) DROP COLUMN \(quoted(name))")
    }
    var addedFolds: [Int] = []
    let existingNames = Set(existing.storedColumns.map(\.name))
    for (position, column) in stored.enumerated() {
      for (offset, (name, declaration)) in dialect.declarations(column).enumerated()
      where !existingNames.contains(name) {
        var declaration = declaration
        if offset > 0 {
          // A computed copy: nothing to fill in.
        } else if column.foldedSource != nil {
          addedFolds.append(position)
        } else if !column.isOptional {
          guard case .success(let value) = columns[position].defaultValue else {
            throw incompatible(column.name, "a new non-optional column needs a default value")
          }
          guard let literal = dialect.literal(value, kind: column.kind) else {
            throw incompatible(column.name, "its default cannot be written in SQL")
          }
          declaration += " DEFAULT \(literal)"
          // NB: existing rows read a default from the schema's text, as the database parses it
          // (which may round a real's last bit, and turns -0.0 into 0): store the exact value.
          if case .real = value {
            plan.defaults.append((dialect.columnName(column), value, column.kind))
          }
        }
        plan.beforeBackfill.append("ALTER TABLE \(quoted(table)) ADD COLUMN \(declaration)")
      }
    }
    if !addedFolds.isEmpty {
      plan.backfill = { target throws(PersistenceError) in
        try self.backfill(addedFolds, in: target)
      }
    }
    plan.indexes = missing
    return plan
  }

  /// `CREATE TABLE` for the stored columns at `positions`, after the hidden `loop_seq`.
  private func createTable(
    _ name: String, columns positions: some Sequence<Int>, _ dialect: SQLDialect
  ) -> String {
    let declarations =
      [dialect.sequenceDeclaration]
      + positions.flatMap { position in
        dialect.declarations(
          stored[position],
          unique: position == idIndex && dialect.declaresUniqueID(stored[position])
        ).map(\.declaration)
      }
    return "CREATE TABLE \(name) (\(declarations.joined(separator: ", ")))"
      + (dialect == .sqlite ? " STRICT" : "")
  }

  /// Fills newly added folded columns from the rows' models.
  private func backfill(_ positions: [Int], in target: MigrationTarget) throws(PersistenceError) {
    let dialect: SQLDialect
    var updates: [[SQLValue]] = []
    func fold(_ model: Model, sequence: Int64) {
      var values: [SQLValue] = withUnsafePointer(to: model) { model in
        positions.map { position in
          guard let source = stored[position].foldedSource, let fold = columns[source].fold
          else { return .null }
          return fold(UnsafeRawPointer(model))
        }
      }
      values.append(.integer(sequence))
      updates.append(values)
    }
    let sequenceColumn = Int32(columns.count)
    do {
      switch target {
      case .sqlite(let database):
        dialect = .sqlite
        try database.query(selectAllSQL(.sqlite)) { statement in
          let model = try Model(row: Row(table: self, source: .statement(statement)))
          fold(model, sequence: statement.integer(at: sequenceColumn))
          return true
        }
      case .postgres(let connection):
        dialect = .postgres
        let result = try connection.run(selectAllSQL(.postgres))
        for row in 0..<result.count {
          let model = try Model(row: Row(table: self, source: .postgres(result, row: row)))
          fold(model, sequence: result.integer(row: row, column: sequenceColumn))
        }
      }
      let assignments = positions.map { "\(dialect.columnName(stored[$0])) = ?" }
      let sql =
        "UPDATE \(quoted(table)) SET \(assignments.joined(separator: ", ")) WHERE "
        + "\(quoted("loop_seq")) = ?"
      let kinds = positions.map { _ in ValueKind.text } + [.integer]
      for values in updates {
        try target.run(sql, values, kinds: kinds)
      }
    } catch let error as PersistenceError {
      throw error
    } catch {
      throw .incompatibleSchema(
        table: table, column: nil, reason: "an existing row cannot be read: \(error)")
    }
  }

  /// `SELECT <schema columns>, loop_seq FROM <table>` in `dialect`.
  func selectAllSQL(_ dialect: SQLDialect) -> String {
    let selected = stored.prefix(columns.count).map(dialect.columnName) + [quoted("loop_seq")]
    return "SELECT \(selected.joined(separator: ", ")) FROM \(quoted(table))"
  }
}

/// `value` written as an SQLite literal, for `DEFAULT` clauses (which cannot take parameters).
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
    return "X'\(hex(bytes))'"
  }
}
