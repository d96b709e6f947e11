import Foundation

/// What the code both SQL backends share asks of a connection.
///
/// Preparing a statement, running one, reading its rows: `SQLiteDatabase` and `PostgresConnection` each answer in their own
/// API (see `SQLiteTable.swift` and `PostgresTable.swift`); everything else about a table, its
/// SQL, its rows and its migration is written once, here and in ``SQLBackend``.
protocol SQLConnection: AnyObject {
  /// A statement as this connection prepares it.
  associatedtype Statement: AnyObject
  /// The SQL this connection speaks.
  static var dialect: SQLDialect { get }
  /// Runs `sql`, which may hold several statements and takes no parameters.
  func execute(_ sql: String) throws(PersistenceError)
  /// A statement running `sql` with parameters of `kinds`, kept by its caller.
  func statement(_ sql: String, kinds: [ValueKind]) throws(PersistenceError) -> Statement
  /// Runs `statement` with `parameters`, calling `body` with each row until it returns `false`.
  func rows(
    _ statement: Statement, _ parameters: [SQLValue], _ body: (RowReader.Source) throws -> Bool
  ) throws
  /// Runs `sql` with `parameters` (of `kinds`), calling `body` with each row until it returns
  /// `false`.
  func rows(
    _ sql: String, _ parameters: [SQLValue], kinds: [ValueKind],
    _ body: (RowReader.Source) throws -> Bool
  ) throws
  /// Runs `statement` with `parameters` to completion; returns the rows it changed.
  func changes(_ statement: Statement, _ parameters: [SQLValue]) throws -> Int
  /// Runs `sql` with `parameters` (of `kinds`) to completion; returns the rows it changed.
  func changes(_ sql: String, _ parameters: [SQLValue], kinds: [ValueKind]) throws -> Int
}

extension SQLConnection {
  /// Whether `sql` with `parameters` (of `kinds`) gives a row.
  func hasRow(_ sql: String, _ parameters: [SQLValue], kinds: [ValueKind]) throws -> Bool {
    var found = false
    try rows(sql, parameters, kinds: kinds) { _ in
      found = true
      return false
    }
    return found
  }
}

extension RowReader.Source {
  /// The integer in `column` (0-based) of the row.
  func integer(at column: Int32) -> Int64 {
    switch self {
    case .statement(let statement): statement.integer(at: column)
    case .postgres(let result, let row): result.integer(row: row, column: column)
    case .values(let values):
      if case .integer(let integer) = values[Int(column)] { integer } else { 0 }
    }
  }
}

/// A model's table on an SQL connection: its SQL, its statements, and how its rows are read.
///
/// The SQL is written once for both dialects; `SQLiteTable` and `PostgresTable` are this class
/// on each connection.
final class SQLTable<T: PersistentModel, Connection: SQLConnection> {
  let description: TableDescription<T>
  let connection: Connection
  /// `SELECT <schema columns>, loop_seq FROM <table>`.
  let selectAll: String
  let insert: Connection.Statement
  let update: Connection.Statement
  let selectByID: Connection.Statement
  let existsByID: Connection.Statement
  let deleteByID: Connection.Statement
  let deleteBySequence: Connection.Statement
  /// The kind of each stored column, as its values are bound.
  let kinds: [ValueKind]
  /// Whether an update can break a unique index (besides the id's, which it never changes).
  let hasUniqueIndexes: Bool
  /// The values of the row being written, kept between inserts for their storage.
  var values: [SQLValue] = []
  /// The quoted table name.
  private let table: String
  /// The quoted name of each stored column.
  private let names: [String]
  private var idColumnChecked = false
  private var orders = SQLOrders<T, Connection.Statement>()

  init(_ description: TableDescription<T>, connection: Connection) throws(PersistenceError) {
    self.description = description
    self.connection = connection
    let dialect = Connection.dialect
    let table = quoted(description.table)
    let names = description.stored.map(dialect.columnName)
    let id = names[description.idIndex]
    let kinds = description.stored.map(\.kind)
    let idKind = [kinds[description.idIndex]]
    (self.table, self.names, self.kinds) = (table, names, kinds)
    selectAll = description.selectAllSQL(dialect)
    insert = try connection.statement(
      "INSERT INTO \(table) (\(names.joined(separator: ", "))) VALUES ("
        + Array(repeating: "?", count: names.count).joined(separator: ", ") + ")"
        + dialect.insertConflictClause,
      kinds: kinds)
    var updateKinds = kinds
    updateKinds.remove(at: description.idIndex)
    update = try connection.statement(
      "UPDATE \(table) SET \(description.updateAssignments(names)) WHERE \(id) = ?",
      kinds: updateKinds + idKind)
    selectByID = try connection.statement("\(selectAll) WHERE \(id) = ?", kinds: idKind)
    existsByID = try connection.statement("SELECT 1 FROM \(table) WHERE \(id) = ?", kinds: idKind)
    deleteByID = try connection.statement("DELETE FROM \(table) WHERE \(id) = ?", kinds: idKind)
    deleteBySequence = try connection.statement(
      "DELETE FROM \(table) WHERE \(quoted("loop_seq")) = ?", kinds: [.integer])
    hasUniqueIndexes = description.indexes.contains(where: \.isUnique)
  }

  func checkIDColumn(_ model: T) throws(PersistenceError) {
    guard !idColumnChecked else { return }
    try description.checkIDColumn(model)
    idColumnChecked = true
  }

  // MARK: SQL

  /// `SELECT <columns> FROM <table>`, with `WHERE <clause>`, `ORDER BY <orderBy>` (insertion
  /// order when `nil`) and `LIMIT ? OFFSET ?` when `limited`; ``selectAll``'s columns unless
  /// `columns` names others.
  func select(
    _ columns: String? = nil, where clause: SQLFragment?, orderBy: String?, limited: Bool = false
  ) -> String {
    var sql = columns.map { "SELECT \($0) FROM \(table)" } ?? selectAll
    if let clause { sql += " WHERE " + clause.sql }
    sql += " ORDER BY " + (orderBy ?? quoted("loop_seq"))
    return limited ? sql + " LIMIT ? OFFSET ?" : sql
  }

  /// `<statement> FROM <table>`, with `WHERE <clause>` when there is one.
  func from(_ statement: String, where clause: SQLFragment?) -> String {
    "\(statement) FROM \(table)" + (clause.map { " WHERE " + $0.sql } ?? "")
  }

  /// The quoted name of the id column.
  var idColumn: String { names[description.idIndex] }

  // MARK: Constraints

  func exists(_ id: SQLValue) throws -> Bool {
    var found = false
    try connection.rows(existsByID, [id]) { _ in
      found = true
      return false
    }
    return found
  }

  /// The first unique index (in declaration order) that `values` conflict with, as an error.
  func conflict(_ values: [SQLValue], model: T) throws -> PersistenceError? {
    let idIndex = description.idIndex
    for index in description.indexes where index.isUnique {
      let key = index.positions.map { values[$0] }
      if key.contains(.null) { continue }
      let conditions = index.positions.map { "\(names[$0]) = ?" }
      let sql =
        "SELECT 1 FROM \(table) WHERE " + conditions.joined(separator: " AND ")
        + " AND \(idColumn) <> ? LIMIT 1"
      let kinds = index.positions.map { self.kinds[$0] } + [self.kinds[idIndex]]
      if try connection.hasRow(sql, key + [values[idIndex]], kinds: kinds) {
        return uniqueViolation(index, model)
      }
    }
    return nil
  }

  /// The error for `model` breaking the unique `index`.
  func uniqueViolation(_ index: IndexDescription, _ model: T) -> PersistenceError {
    .uniqueViolation(model: description.modelName, columns: index.columns, id: "\(model.id)")
  }

  // MARK: Sorts

  /// The cached ``SQLOrder`` for `descriptors`.
  func order(_ descriptors: [SortDescriptor<T>]) -> SQLOrder<Connection.Statement> {
    orders.order(descriptors) { [description] in
      description.orderBy($0, dialect: Connection.dialect)
    }
  }

  /// The `ORDER BY` terms for `descriptors` (ending with `loop_seq`), or `nil` when one of them
  /// cannot be sorted by SQL exactly as Swift sorts it.
  func orderBy(_ descriptors: [SortDescriptor<T>]) -> String? {
    description.orderBy(descriptors, dialect: Connection.dialect)
  }

  /// The statement selecting every row in `order` (with `LIMIT ? OFFSET ?` when `limited`).
  func unfilteredSelect(_ order: SQLOrder<Connection.Statement>, limited: Bool)
    throws(PersistenceError) -> Connection.Statement
  {
    if let statement = limited ? order.limited : order.plain { return statement }
    let statement = try connection.statement(
      select(where: nil, orderBy: order.orderBy, limited: limited),
      kinds: limited ? [.integer, .integer] : [])
    if limited { order.limited = statement } else { order.plain = statement }
    return statement
  }

  // MARK: Reading rows

  /// `predicate` translated into the connection's SQL, or `nil` when it must be evaluated in
  /// Swift on every row (see ``PredicateTranslator/translate(_:)``).
  func translate(_ predicate: Predicate<T>?) -> TranslatedPredicate? {
    var translator = PredicateTranslator(table: description, dialect: Connection.dialect)
    return translator.translate(predicate)
  }

  /// Calls `body` with each model (and its `loop_seq`) the predicate accepts.
  ///
  /// Rows come in `orderBy` order (insertion order when `nil`), until `body` returns `false`. The
  /// translatable part of the predicate runs in SQL, the whole predicate in Swift.
  func scan(
    predicate: Predicate<T>?, orderBy: String?, _ body: (T, Int64) throws -> Bool
  ) throws {
    let plan = translate(predicate)
    let clause = plan?.whereClause
    let sequenceColumn = Int32(description.columns.count)
    try connection.rows(
      select(where: clause, orderBy: orderBy), clause?.parameters ?? [], kinds: clause?.kinds ?? []
    ) { source in
      let model = try T(row: Row(table: description, source: source))
      if let predicate, plan?.exact != true, try !evaluate(predicate, model) { return true }
      return try body(model, source.integer(at: sequenceColumn))
    }
  }
}
