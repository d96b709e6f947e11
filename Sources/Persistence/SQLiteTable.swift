import CSQLite
import Foundation

/// A model's table in an open SQLite database, with its prepared statements.
typealias SQLiteTable<T: PersistentModel> = SQLTable<T, SQLiteDatabase>

/// An SQLite database as a table's shared code uses it: statements are prepared at once, and
/// rows are read in place from the stepping statement.
extension SQLiteDatabase: SQLConnection {
  static var dialect: SQLDialect { .sqlite }

  func statement(_ sql: String, kinds: [ValueKind]) throws(PersistenceError) -> SQLiteStatement {
    try prepareUncached(sql)
  }

  func rows(
    _ statement: SQLiteStatement, _ parameters: [SQLValue],
    _ body: (RowReader.Source) throws -> Bool
  ) throws {
    try statement.run(parameters) { try body(.statement($0)) }
  }

  func rows(
    _ sql: String, _ parameters: [SQLValue], kinds: [ValueKind],
    _ body: (RowReader.Source) throws -> Bool
  ) throws {
    try query(sql, parameters) { try body(.statement($0)) }
  }

  func changes(_ statement: SQLiteStatement, _ parameters: [SQLValue]) throws -> Int {
    try statement.execute(parameters)
    return changes
  }

  func changes(_ sql: String, _ parameters: [SQLValue], kinds: [ValueKind]) throws -> Int {
    try run(sql, parameters)
    return changes
  }
}

extension TableDescription {
  /// The table's prepared statements in `database`.
  func makeSQLiteTable(_ database: SQLiteDatabase) throws(PersistenceError) -> AnyObject {
    try SQLiteTable(self, connection: database)
  }
}
