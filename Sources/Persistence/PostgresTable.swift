import Foundation

/// A model's table on a PostgreSQL server, with its statements.
final class PostgresTable<T: PersistentModel> {
  let description: TableDescription<T>
  let connection: PostgresConnection
  /// `SELECT <schema columns>, loop_seq FROM <table>`.
  let selectAll: String
  let insert: PostgresStatement
  let update: PostgresStatement
  let selectByID: PostgresStatement
  let existsByID: PostgresStatement
  let deleteByID: PostgresStatement
  let deleteBySequence: PostgresStatement
  /// The kind of each stored column, as its values are bound.
  let kinds: [ValueKind]
  /// Whether an update can break a unique index (besides the id's, which it never changes).
  let hasUniqueIndexes: Bool
  /// The values of the row being written, kept between inserts for their storage.
  var values: [SQLValue] = []
  private var idColumnChecked = false
  private var orders = SQLOrders<T, PostgresStatement>()

  init(_ description: TableDescription<T>, connection: PostgresConnection) {
    self.description = description
    self.connection = connection
    let dialect = SQLDialect.postgres
    let table = quoted(description.table)
    let names = description.stored.map(dialect.columnName)
    let id = names[description.idIndex]
    kinds = description.stored.map(\.kind)
    let idKind = [kinds[description.idIndex]]
    let selected = description.columns.indices.map { names[$0] } + [quoted("loop_seq")]
    selectAll = "SELECT \(selected.joined(separator: ", ")) FROM \(table)"
    // NB: a conflict is not an error here: inside a transaction an error would abort it, and
    // `insert` reports a duplicate as a thrown error the caller may catch and go on from.
    insert = PostgresStatement(
      sql: "INSERT INTO \(table) (\(names.joined(separator: ", "))) VALUES ("
        + Array(repeating: "?", count: names.count).joined(separator: ", ")
        + ") ON CONFLICT DO NOTHING",
      kinds: kinds)
    var updateKinds = kinds
    updateKinds.remove(at: description.idIndex)
    update = PostgresStatement(
      sql: "UPDATE \(table) SET \(description.updateAssignments(names)) WHERE \(id) = ?",
      kinds: updateKinds + idKind)
    selectByID = PostgresStatement(sql: "\(selectAll) WHERE \(id) = ?", kinds: idKind)
    existsByID = PostgresStatement(sql: "SELECT 1 FROM \(table) WHERE \(id) = ?", kinds: idKind)
    deleteByID = PostgresStatement(sql: "DELETE FROM \(table) WHERE \(id) = ?", kinds: idKind)
    deleteBySequence = PostgresStatement(
      sql: "DELETE FROM \(table) WHERE \(quoted("loop_seq")) = ?", kinds: [.integer])
    hasUniqueIndexes = description.indexes.contains(where: \.isUnique)
  }

  func checkIDColumn(_ model: T) throws(PersistenceError) {
    guard !idColumnChecked else { return }
    try description.checkIDColumn(model)
    idColumnChecked = true
  }

  func exists(_ id: SQLValue) throws(PersistenceError) -> Bool {
    try connection.run(existsByID, [id]).count > 0
  }

  /// The first unique index (in declaration order) that `values` conflict with, as an error.
  func conflict(_ values: [SQLValue], model: T) throws(PersistenceError) -> PersistenceError? {
    let dialect = SQLDialect.postgres
    let idIndex = description.idIndex
    for index in description.indexes where index.isUnique {
      let key = index.positions.map { values[$0] }
      if key.contains(.null) { continue }
      let conditions = index.positions.map { "\(dialect.columnName(description.stored[$0])) = ?" }
      let sql =
        "SELECT 1 FROM \(quoted(description.table)) WHERE "
        + conditions.joined(separator: " AND ")
        + " AND \(dialect.columnName(description.stored[idIndex])) <> ? LIMIT 1"
      let kinds = index.positions.map { self.kinds[$0] } + [self.kinds[idIndex]]
      if try connection.run(sql, key + [values[idIndex]], kinds: kinds).count > 0 {
        return uniqueViolation(index, model)
      }
    }
    return nil
  }

  /// The unique index whose constraint `error` reports broken, as an error, if it is one.
  func uniqueViolation(in error: PersistenceError, model: T) -> PersistenceError? {
    guard let constraint = PostgresConnection.constraint(in: error),
      let index = description.indexes.first(where: {
        $0.isUnique && SQLDialect.postgres.identifier($0.name) == constraint
      })
    else { return nil }
    return uniqueViolation(index, model)
  }

  private func uniqueViolation(_ index: IndexDescription, _ model: T) -> PersistenceError {
    .uniqueViolation(model: description.modelName, columns: index.columns, id: "\(model.id)")
  }

  /// The cached ``SQLOrder`` for `descriptors`.
  func order(_ descriptors: [SortDescriptor<T>]) -> SQLOrder<PostgresStatement> {
    orders.order(descriptors) { [description] in description.orderBy($0, dialect: .postgres) }
  }

  /// The statement selecting every row in `order` (with `LIMIT ? OFFSET ?` when `limited`).
  func unfilteredSelect(_ order: SQLOrder<PostgresStatement>, limited: Bool) -> PostgresStatement {
    if let statement = limited ? order.limited : order.plain { return statement }
    let statement = PostgresStatement(
      sql: selectAll + " ORDER BY " + (order.orderBy ?? quoted("loop_seq"))
        + (limited ? " LIMIT ? OFFSET ?" : ""),
      kinds: limited ? [.integer, .integer] : [])
    if limited { order.limited = statement } else { order.plain = statement }
    return statement
  }

  // MARK: Reading rows

  /// The models in `result`, a select of ``selectAll``'s columns.
  func models(in result: PostgresResult) throws -> [T] {
    var models: [T] = []
    models.reserveCapacity(Int(result.count))
    for row in 0..<result.count {
      models.append(try T(row: Row(table: description, source: .postgres(result, row: row))))
    }
    return models
  }

  /// Calls `body` with each model (and its `loop_seq`) the predicate accepts.
  ///
  /// Rows come in `orderBy` order (insertion order when `nil`), until `body` returns `false`. The
  /// translatable part of the predicate runs in SQL, the whole predicate in Swift.
  func scan(
    predicate: Predicate<T>?, orderBy: String?, _ body: (T, Int64) throws -> Bool
  ) throws {
    var translator = PredicateTranslator(table: description, dialect: .postgres)
    let plan = translator.translate(predicate)
    var sql = selectAll
    if let clause = plan?.whereClause { sql += " WHERE " + clause.sql }
    sql += " ORDER BY " + (orderBy ?? quoted("loop_seq"))
    let clause = plan?.whereClause
    let result = try connection.run(sql, clause?.parameters ?? [], kinds: clause?.kinds ?? [])
    let sequenceColumn = Int32(description.columns.count)
    for row in 0..<result.count {
      let model = try T(row: Row(table: description, source: .postgres(result, row: row)))
      if let predicate, plan?.exact != true, try !evaluate(predicate, model) { continue }
      guard try body(model, result.integer(row: row, column: sequenceColumn)) else { return }
    }
  }
}

extension TableDescription {
  /// The table's statements on `connection`.
  func makePostgresTable(_ connection: PostgresConnection) -> AnyObject {
    PostgresTable(self, connection: connection)
  }
}
