import Foundation

/// A model's table on a PostgreSQL server, with its statements.
typealias PostgresTable<T: PersistentModel> = SQLTable<T, PostgresConnection>

/// A PostgreSQL connection as a table's shared code uses it: a statement is prepared on the
/// server at its first run, and a result holds all its rows.
extension PostgresConnection: SQLConnection {
  static var dialect: SQLDialect { .postgres }

  func statement(_ sql: String, kinds: [ValueKind]) -> PostgresStatement {
    PostgresStatement(sql: sql, kinds: kinds)
  }

  func rows(
    _ statement: PostgresStatement, _ parameters: [SQLValue],
    _ body: (RowReader.Source) throws -> Bool
  ) throws {
    try forEach(in: run(statement, parameters), body)
  }

  func rows(
    _ sql: String, _ parameters: [SQLValue], kinds: [ValueKind],
    _ body: (RowReader.Source) throws -> Bool
  ) throws {
    try forEach(in: run(sql, parameters, kinds: kinds), body)
  }

  private func forEach(in result: PostgresResult, _ body: (RowReader.Source) throws -> Bool)
    throws
  {
    for row in 0..<result.count {
      guard try body(.postgres(result, row: row)) else { return }
    }
  }

  func changes(_ statement: PostgresStatement, _ parameters: [SQLValue]) throws -> Int {
    try run(statement, parameters).changes
  }

  func changes(_ sql: String, _ parameters: [SQLValue], kinds: [ValueKind]) throws -> Int {
    try run(sql, parameters, kinds: kinds).changes
  }
}

extension SQLTable where Connection == PostgresConnection {
  /// The models in `result`, a select of ``selectAll``'s columns.
  func models(in result: PostgresResult) throws -> [T] {
    var models: [T] = []
    models.reserveCapacity(Int(result.count))
    for row in 0..<result.count {
      models.append(try T(row: Row(table: description, source: .postgres(result, row: row))))
    }
    return models
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
}

extension TableDescription {
  /// The table's statements on `connection`.
  func makePostgresTable(_ connection: PostgresConnection) throws(PersistenceError) -> AnyObject {
    try PostgresTable(self, connection: connection)
  }
}
