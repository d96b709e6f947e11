import CSQLite
import Foundation

/// A model's table in an open database, with its prepared statements.
final class SQLiteTable<T: PersistentModel> {
  let description: TableDescription<T>
  let database: SQLiteDatabase
  /// `SELECT <schema columns>, loop_seq FROM <table>`.
  let selectAll: String
  let insert: SQLiteStatement
  let update: SQLiteStatement
  let selectByID: SQLiteStatement
  let existsByID: SQLiteStatement
  let deleteByID: SQLiteStatement
  let deleteBySequence: SQLiteStatement
  /// The values of the row being written, kept between inserts for their storage.
  var values: [SQLValue] = []
  private var idColumnChecked = false
  private var orders = SQLOrders<T, SQLiteStatement>()

  init(_ description: TableDescription<T>, database: SQLiteDatabase) throws(PersistenceError) {
    self.description = description
    self.database = database
    let table = quoted(description.table)
    let names = description.stored.map { quoted($0.name) }
    let id = names[description.idIndex]
    let selected = description.columns.map { quoted($0.name) } + [quoted("loop_seq")]
    selectAll = "SELECT \(selected.joined(separator: ", ")) FROM \(table)"
    insert = try database.prepareUncached(
      "INSERT INTO \(table) (\(names.joined(separator: ", "))) VALUES ("
        + Array(repeating: "?", count: names.count).joined(separator: ", ") + ")")
    update = try database.prepareUncached(
      "UPDATE \(table) SET \(description.updateAssignments(names)) WHERE \(id) = ?")
    selectByID = try database.prepareUncached("\(selectAll) WHERE \(id) = ?")
    existsByID = try database.prepareUncached("SELECT 1 FROM \(table) WHERE \(id) = ?")
    deleteByID = try database.prepareUncached("DELETE FROM \(table) WHERE \(id) = ?")
    deleteBySequence = try database.prepareUncached(
      "DELETE FROM \(table) WHERE \(quoted("loop_seq")) = ?")
  }

  func checkIDColumn(_ model: T) throws(PersistenceError) {
    guard !idColumnChecked else { return }
    try description.checkIDColumn(model)
    idColumnChecked = true
  }

  func exists(_ id: SQLValue) throws -> Bool {
    var found = false
    try existsByID.run([id]) { _ in
      found = true
      return false
    }
    return found
  }

  /// The first unique index (in declaration order) that `values` conflict with, as an error.
  func conflict(_ values: [SQLValue], model: T) throws -> PersistenceError? {
    let id = values[description.idIndex]
    for index in description.indexes where index.isUnique {
      let key = index.positions.map { values[$0] }
      if key.contains(.null) { continue }
      let conditions = index.columns.map { "\(quoted($0)) = ?" }
      let sql =
        "SELECT 1 FROM \(quoted(description.table)) WHERE "
        + conditions.joined(separator: " AND ")
        + " AND \(quoted(description.stored[description.idIndex].name)) <> ? LIMIT 1"
      var found = false
      try database.query(sql, key + [id]) { _ in
        found = true
        return false
      }
      if found {
        return .uniqueViolation(
          model: description.modelName, columns: index.columns, id: "\(model.id)")
      }
    }
    return nil
  }

  /// The cached ``SQLOrder`` for `descriptors`.
  func order(_ descriptors: [SortDescriptor<T>]) -> SQLOrder<SQLiteStatement> {
    orders.order(descriptors) { [description] in description.orderBy($0, dialect: .sqlite) }
  }

  /// The statement selecting every row in `order` (with `LIMIT ? OFFSET ?` when `limited`).
  func unfilteredSelect(_ order: SQLOrder<SQLiteStatement>, limited: Bool) throws(PersistenceError)
    -> SQLiteStatement
  {
    if let statement = limited ? order.limited : order.plain { return statement }
    let sql =
      selectAll + " ORDER BY " + (order.orderBy ?? quoted("loop_seq"))
      + (limited ? " LIMIT ? OFFSET ?" : "")
    let statement = try database.prepareUncached(sql)
    if limited { order.limited = statement } else { order.plain = statement }
    return statement
  }

  /// The `ORDER BY` terms for `descriptors` (ending with `loop_seq`), or `nil` when one of them
  /// cannot be sorted by SQL exactly as Swift sorts it.
  func orderBy(_ descriptors: [SortDescriptor<T>]) -> String? {
    description.orderBy(descriptors, dialect: .sqlite)
  }

  // MARK: Reading rows

  /// The model in the current row of `statement`, a select of ``selectAll``'s columns.
  func model(at statement: SQLiteStatement) throws -> T {
    try T(row: Row(table: description, source: .statement(statement)))
  }

  /// Calls `body` with each model (and its `loop_seq`) the predicate accepts.
  ///
  /// Rows come in `orderBy` order (insertion order when `nil`), until `body` returns `false`. The
  /// translatable part of the predicate runs in SQL, the whole predicate in Swift.
  func scan(
    predicate: Predicate<T>?, orderBy: String?, _ body: (T, Int64) throws -> Bool
  ) throws {
    var translator = PredicateTranslator(table: description)
    let plan = translator.translate(predicate)
    var sql = selectAll
    if let clause = plan?.whereClause { sql += " WHERE " + clause.sql }
    sql += " ORDER BY " + (orderBy ?? quoted("loop_seq"))
    let sequenceColumn = Int32(description.columns.count)
    try database.query(sql, plan?.whereClause?.parameters ?? []) { statement in
      let model = try model(at: statement)
      if let predicate, plan?.exact != true, try !evaluate(predicate, model) { return true }
      return try body(model, statement.integer(at: sequenceColumn))
    }
  }
}

extension TableDescription {
  /// The table's prepared statements in `database`.
  func makeSQLiteTable(_ database: SQLiteDatabase) throws(PersistenceError) -> AnyObject {
    try SQLiteTable(self, database: database)
  }
}
