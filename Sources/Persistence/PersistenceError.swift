/// The one error type of the Persistence layer: every failure of a container or a context is one
/// of these cases.
///
/// Each case names what happened and to what (the model type, the id, the column, the file), so a
/// message built from it can be shown as is. Failures reported by SQLite keep its result code and
/// message in ``sqlite(code:message:sql:)``, and PostgreSQL's its SQLSTATE in
/// ``postgres(code:message:sql:)`` (or in the `reason` of the more specific cases). A PostgreSQL
/// server is named `user@host:port/database`: no message shows a password.
///
/// ```swift
/// do {
///   try context.insert(link)
/// } catch PersistenceError.duplicateID(let model, let id) {
///   print("\(model) '\(id)' is already saved")
/// }
/// ```
public enum PersistenceError: Error, Equatable, Sendable, CustomStringConvertible {
  /// `insert` was given a model whose id is already stored; nothing was written.
  case duplicateID(model: String, id: String)

  /// `update` or `delete` was given an id that is not stored; nothing was written.
  case notFound(model: String, id: String)

  /// An `insert` or `update` would store a second model with the same values in a unique index;
  /// nothing was written. `columns` are the index's columns, `id` the id of the rejected model.
  case uniqueViolation(model: String, columns: [String], id: String)

  /// A model's property holds a value that cannot be stored (for example `Double.nan`, or a
  /// custom ``ColumnValue`` that encodes to the wrong storage class); nothing was written.
  case invalidValue(model: String, column: String, value: String)

  /// A stored value cannot be read back as the column's Swift type (for example a raw value that
  /// no enum case has, or `NULL` in a non-optional column).
  case decodingFailed(model: String, column: String, reason: String)

  /// A fetch was asked for a negative `fetchLimit` or `fetchOffset`.
  case invalidFetch(model: String, reason: String)

  /// A predicate threw while it was evaluated in Swift (for example a force unwrap of `nil`).
  case predicateFailed(model: String, reason: String)

  /// The model type was not passed to the container's initializer, so it has no table.
  case unregisteredModel(String)

  /// A model's ``Schema`` is malformed (a bad identifier, a duplicate column, no `id` column, an
  /// index on a key path that is not a column).
  case invalidSchema(model: String, reason: String)

  /// The table stored in the file cannot be brought to the declared schema without losing data;
  /// the file was left untouched. `column` is `nil` when the problem is the table as a whole.
  case incompatibleSchema(table: String, column: String?, reason: String)

  /// The file could not be opened or created (a missing permission, a folder in the way).
  case cannotOpen(path: String, reason: String)

  /// The file exists but is not an SQLite database; it was left untouched.
  case notADatabase(path: String)

  /// The file is an SQLite database whose contents are damaged; it was left untouched.
  case corruptDatabase(path: String, reason: String)

  /// The PostgreSQL server could not be reached, or refused the connection (a wrong password, a
  /// database that does not exist); nothing was read or written. `server` is
  /// `user@host:port/database`, `reason` says what went wrong.
  case cannotConnect(server: String, reason: String)

  /// The connection to the PostgreSQL server broke during a call; `reason` says what the server
  /// or libpq reported, and what became of the transaction in progress: not saved, or, when it
  /// broke while committing, perhaps saved. The next call outside a transaction connects again.
  case connectionLost(server: String, reason: String)

  /// PostgreSQL reported an error that none of the cases above describes. `code` is its
  /// SQLSTATE (such as `40001`), `message` its message and `sql` the statement, when there was
  /// one.
  case postgres(code: String, message: String, sql: String?)

  /// SQLite reported an error that none of the cases above describes. `code` is SQLite's
  /// extended result code, `message` its message and `sql` the statement, when there was one.
  case sqlite(code: Int32, message: String, sql: String?)

  /// A sentence describing the failure, naming the model, id, column or file concerned.
  public var description: String {
    switch self {
    case .duplicateID(let model, let id):
      return "Cannot insert \(model) with id '\(id)': a \(model) with that id already exists."
    case .notFound(let model, let id):
      return "No \(model) with id '\(id)' exists."
    case .uniqueViolation(let model, let columns, let id):
      let list = columns.map { "'\($0)'" }.joined(separator: ", ")
      return
        "Cannot save \(model) with id '\(id)': another \(model) has the same value in the unique "
        + "index on \(list)."
    case .invalidValue(let model, let column, let value):
      return "Cannot store the value '\(value)' in column '\(column)' of \(model)."
    case .decodingFailed(let model, let column, let reason):
      return "Cannot read column '\(column)' of \(model): \(reason)."
    case .invalidFetch(let model, let reason):
      return "Invalid fetch of \(model): \(reason)."
    case .predicateFailed(let model, let reason):
      return "The predicate on \(model) failed: \(reason)."
    case .unregisteredModel(let model):
      return
        "\(model) is not registered with this container; pass \(model).self to "
        + "ModelContainer(for:storage:)."
    case .invalidSchema(let model, let reason):
      return "The schema of \(model) is invalid: \(reason)."
    case .incompatibleSchema(let table, let column, let reason):
      if let column {
        return "Table '\(table)' cannot be migrated (column '\(column)'): \(reason)."
      }
      return "Table '\(table)' cannot be migrated: \(reason)."
    case .cannotOpen(let path, let reason):
      return "Cannot open '\(path)': \(reason)."
    case .notADatabase(let path):
      return "'\(path)' is not an SQLite database."
    case .corruptDatabase(let path, let reason):
      return "The database '\(path)' is damaged: \(reason)."
    case .cannotConnect(let server, let reason):
      return "Cannot connect to PostgreSQL at \(server): \(reason)."
    case .connectionLost(let server, let reason):
      return "The connection to PostgreSQL at \(server) was lost: \(reason)."
    case .postgres(let code, let message, let sql):
      if let sql {
        return "PostgreSQL error \(code): \(message) (in '\(sql)')."
      }
      return "PostgreSQL error \(code): \(message)."
    case .sqlite(let code, let message, let sql):
      if let sql {
        return "SQLite error \(code): \(message) (in '\(sql)')."
      }
      return "SQLite error \(code): \(message)."
    }
  }
}
