import CSQLite
import Foundation

/// Tells SQLite to copy a bound buffer before `sqlite3_bind_*` returns.
private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// Tells SQLite a bound buffer stays valid, unchanged, until it is bound again or cleared
/// (`SQLITE_STATIC`).
private let borrowed: sqlite3_destructor_type? = nil

/// A thin wrapper of one SQLite connection with a cache of prepared statements.
///
/// Not thread-safe: the ``ModelContainer`` owning it serializes every call behind its lock.
final class SQLiteDatabase {
  let handle: OpaquePointer
  let path: String
  private var cache: [String: SQLiteStatement] = [:]
  private static let cacheLimit = 64
  private let busyWait: BusyWait

  /// Opens (creating if missing) the database file at `path`, without reading or writing it.
  init(path: String) throws(PersistenceError) {
    var handle: OpaquePointer?
    let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
    let code = sqlite3_open_v2(path, &handle, flags, nil)
    guard code == SQLITE_OK, let handle else {
      let reason = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
      sqlite3_close_v2(handle)
      throw .cannotOpen(path: path, reason: reason)
    }
    sqlite3_extended_result_codes(handle, 1)
    self.handle = handle
    self.path = path
    // NB: lets a second process (or connection) wait for the write lock instead of failing
    // at once with SQLITE_BUSY; see `BusyWait`.
    busyWait = BusyWait(path: path)
    sqlite3_busy_handler(
      handle,
      { context, attempts in
        guard let context else { return 0 }
        return Unmanaged<BusyWait>.fromOpaque(context).takeUnretainedValue()
          .shouldRetry(after: attempts) ? 1 : 0
      }, Unmanaged.passUnretained(busyWait).toOpaque())
  }

  deinit {
    cache.removeAll()
    sqlite3_close_v2(handle)
  }

  /// Runs `body` with every lock another connection holds failing at once (`SQLITE_BUSY`)
  /// instead of being waited for.
  func withoutWaiting<R>(_ body: () throws -> R) rethrows -> R {
    busyWait.isWaiting = false
    defer { busyWait.isWaiting = true }
    return try body()
  }

  /// Runs `body` with commits that do not wait for the disk (`PRAGMA synchronous = NORMAL`),
  /// then gives the connection back its setting; outside a transaction only (SQLite's rule).
  ///
  /// For writes worth no wait, such as a stored length a reader can find again: in WAL mode a
  /// power loss may undo such a commit, with every later one, but never damages the file.
  /// NB: the first commit after the log was emptied synced the log, its folder and the log
  /// again: about 11 ms, nearly the pass whose result it stored.
  func withoutSyncing<R>(_ body: () throws -> R) throws -> R {
    var level: Int64 = 2
    try query("PRAGMA synchronous") { statement in
      level = statement.integer(at: 0)
      return false
    }
    guard level > 1 else { return try body() }
    try execute("PRAGMA synchronous = NORMAL")
    defer { try? execute("PRAGMA synchronous = \(level)") }
    return try body()
  }

  /// Runs SQL without parameters (DDL, pragmas, transaction control); may hold several
  /// statements.
  func execute(_ sql: String) throws(PersistenceError) {
    var message: UnsafeMutablePointer<CChar>?
    let code = sqlite3_exec(handle, sql, nil, nil, &message)
    sqlite3_free(message)
    guard code == SQLITE_OK else { throw error(code: code, sql: sql) }
  }

  /// A prepared statement for `sql`, from the cache when it was prepared before.
  func prepare(_ sql: String) throws(PersistenceError) -> SQLiteStatement {
    if let statement = cache[sql] { return statement }
    let statement = try prepareUncached(sql)
    if cache.count >= Self.cacheLimit { cache.removeAll(keepingCapacity: true) }
    cache[sql] = statement
    return statement
  }

  /// A new prepared statement for `sql`, owned by the caller.
  func prepareUncached(_ sql: String) throws(PersistenceError) -> SQLiteStatement {
    var statement: OpaquePointer?
    let code = sqlite3_prepare_v3(
      handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
    guard code == SQLITE_OK, let statement else {
      throw error(code: code, sql: sql)
    }
    return SQLiteStatement(handle: statement, database: self, sql: sql)
  }

  /// Runs `sql` with `parameters`, stepping through every row with `body`.
  func query(
    _ sql: String, _ parameters: [SQLValue] = [],
    _ body: (SQLiteStatement) throws -> Bool = { _ in true }
  ) throws {
    let statement = try prepare(sql)
    try statement.run(parameters, body)
  }

  /// Runs `sql` with `parameters` to completion, ignoring any rows.
  func run(_ sql: String, _ parameters: [SQLValue] = []) throws(PersistenceError) {
    try prepare(sql).execute(parameters)
  }

  /// The rows changed by the last `INSERT`, `UPDATE` or `DELETE`.
  var changes: Int { Int(sqlite3_changes64(handle)) }

  /// Whether no transaction is open.
  var isAutocommit: Bool { sqlite3_get_autocommit(handle) != 0 }

  /// The error for a failed call, with SQLite's extended code and message; a damaged file or
  /// one that is not a database is reported as such.
  func error(code: Int32, sql: String?) -> PersistenceError {
    let extended = sqlite3_extended_errcode(handle)
    let message = String(cString: sqlite3_errmsg(handle))
    switch (extended == 0 ? code : extended) & 0xFF {
    case SQLITE_CORRUPT: return .corruptDatabase(path: path, reason: message)
    case SQLITE_NOTADB: return .notADatabase(path: path)
    default: return .sqlite(code: extended == 0 ? code : extended, message: message, sql: sql)
    }
  }
}

/// Runs `body` and reports what it throws as one ``PersistenceError``: the one place the SQLite
/// backend maps errors.
///
/// - An SQLite error (``PersistenceError/sqlite(code:message:sql:)``) for which `sqliteFailed`
///   names a more specific error (a violated constraint as a duplicate id or a unique index, a
///   file that cannot be read as `cannotOpen`) becomes that error.
/// - Any other `PersistenceError` is rethrown as it is.
/// - Any other error (one thrown while rows were read, such as a model's own decoding error)
///   becomes `otherError(error)`: by default an SQLite error, `SQLITE_ERROR`, describing it.
///
/// - Parameters:
///   - body: The work, which may throw anything.
///   - sqliteFailed: The specific error for an SQLite error's extended code and message, or
///     `nil` to report it as it is.
///   - otherError: The error for one that is not a `PersistenceError`.
/// - Returns: What `body` returns.
/// - Throws: The mapped error.
func mappingErrors<R>(
  _ body: () throws -> R,
  sqliteFailed: (_ code: Int32, _ message: String) throws -> PersistenceError? = { _, _ in nil },
  otherError: (any Error) -> PersistenceError = {
    .sqlite(code: SQLITE_ERROR, message: "\($0)", sql: nil)
  }
) throws(PersistenceError) -> R {
  do {
    do {
      return try body()
    } catch PersistenceError.sqlite(let code, let message, let sql) {
      throw try sqliteFailed(code, message)
        ?? PersistenceError.sqlite(code: code, message: message, sql: sql)
    }
  } catch let error as PersistenceError {
    throw error
  } catch {
    throw otherError(error)
  }
}

/// A prepared statement.
///
/// It is reset after every use, so it never holds a read transaction open.
final class SQLiteStatement {
  let handle: OpaquePointer
  let sql: String
  private unowned let database: SQLiteDatabase

  init(handle: OpaquePointer, database: SQLiteDatabase, sql: String) {
    self.handle = handle
    self.database = database
    self.sql = sql
  }

  deinit { sqlite3_finalize(handle) }

  /// Binds `parameters`, steps through the rows (calling `body` on each until it returns
  /// `false`), and resets.
  func run(_ parameters: [SQLValue], _ body: (SQLiteStatement) throws -> Bool) throws {
    defer {
      sqlite3_reset(handle)
      sqlite3_clear_bindings(handle)
    }
    for (offset, value) in parameters.enumerated() {
      try bind(value, at: Int32(offset + 1))
    }
    while try step() {
      guard try body(self) else { return }
    }
  }

  /// Binds, runs to completion, resets; for statements without rows.
  ///
  /// Text and blobs are bound without a copy, from the parameters' own storage (SQLite copies
  /// them into the row it writes): each is bound inside the closure that lends its bytes, and
  /// the statement runs inside the innermost one. The bindings are cleared before it returns, so
  /// the statement never points at storage that is gone.
  func execute(_ parameters: [SQLValue]) throws(PersistenceError) {
    defer {
      sqlite3_reset(handle)
      sqlite3_clear_bindings(handle)
    }
    try withBindings(parameters, from: 0) { () throws(PersistenceError) in
      while try step() {}
    }
  }

  /// Binds `parameters[offset...]` and runs `body` while the bytes of those bound in place are
  /// valid.
  private func withBindings(
    _ parameters: [SQLValue], from offset: Int, _ body: () throws(PersistenceError) -> Void
  ) throws(PersistenceError) {
    var offset = offset
    while offset < parameters.count {
      let index = Int32(offset + 1)
      let value = parameters[offset]
      offset += 1
      var failure: PersistenceError?
      switch value {
      case .text(var text) where !text.isEmpty:
        text.withUTF8 { bytes in
          do throws(PersistenceError) {
            try bound(
              bytes.withMemoryRebound(to: CChar.self) { bytes in
                sqlite3_bind_text64(
                  handle, index, bytes.baseAddress, sqlite3_uint64(bytes.count), borrowed,
                  UInt8(SQLITE_UTF8))
              })
            try withBindings(parameters, from: offset, body)
          } catch {
            failure = error
          }
        }
      case .blob(let blob) where !blob.isEmpty:
        blob.withUnsafeBytes { bytes in
          do throws(PersistenceError) {
            try bound(
              sqlite3_bind_blob64(
                handle, index, bytes.baseAddress, sqlite3_uint64(bytes.count), borrowed))
            try withBindings(parameters, from: offset, body)
          } catch {
            failure = error
          }
        }
      default:
        try bind(value, at: index)
        continue
      }
      if let failure { throw failure }
      return
    }
    try body()
  }

  private func bound(_ code: Int32) throws(PersistenceError) {
    guard code == SQLITE_OK else { throw database.error(code: code, sql: sql) }
  }

  /// Binds one parameter (1-based).
  func bind(_ value: SQLValue, at index: Int32) throws(PersistenceError) {
    let code: Int32
    switch value {
    case .null:
      code = sqlite3_bind_null(handle, index)
    case .integer(let integer):
      code = sqlite3_bind_int64(handle, index, integer)
    case .real(let real):
      code = sqlite3_bind_double(handle, index, real)
    case .text(let text):
      code = bindText(text, at: index)
    case .blob(let bytes):
      if bytes.isEmpty {
        // NB: a blob bound from a nil pointer would be NULL, not an empty blob.
        code = sqlite3_bind_zeroblob(handle, index, 0)
      } else {
        code = bytes.withUnsafeBytes { buffer in
          sqlite3_bind_blob64(
            handle, index, buffer.baseAddress, sqlite3_uint64(buffer.count), transient)
        }
      }
    }
    guard code == SQLITE_OK else { throw database.error(code: code, sql: sql) }
  }

  private func bindText(_ text: String, at index: Int32) -> Int32 {
    let bound = text.utf8.withContiguousStorageIfAvailable { buffer -> Int32 in
      guard let base = buffer.baseAddress, !buffer.isEmpty else {
        return sqlite3_bind_text(handle, index, "", 0, transient)
      }
      return base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { pointer in
        sqlite3_bind_text64(
          handle, index, pointer, sqlite3_uint64(buffer.count), transient, UInt8(SQLITE_UTF8))
      }
    }
    if let bound { return bound }
    var copy = text
    copy.makeContiguousUTF8()
    return bindText(copy, at: index)
  }

  /// Steps once: `true` when a row is ready, `false` when done.
  func step() throws(PersistenceError) -> Bool {
    switch sqlite3_step(handle) {
    case SQLITE_ROW: return true
    case SQLITE_DONE: return false
    case let code: throw database.error(code: code, sql: sql)
    }
  }

  /// The value of result column `index` (0-based) of the current row.
  func value(at index: Int32) -> SQLValue {
    switch sqlite3_column_type(handle, index) {
    case SQLITE_INTEGER:
      return .integer(sqlite3_column_int64(handle, index))
    case SQLITE_FLOAT:
      return .real(sqlite3_column_double(handle, index))
    case SQLITE_TEXT:
      guard let text = sqlite3_column_text(handle, index) else { return .text("") }
      let count = Int(sqlite3_column_bytes(handle, index))
      return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
    case SQLITE_BLOB:
      let count = Int(sqlite3_column_bytes(handle, index))
      guard count > 0, let blob = sqlite3_column_blob(handle, index) else { return .blob([]) }
      return .blob(Array(UnsafeRawBufferPointer(start: blob, count: count)))
    default:
      return .null
    }
  }

  /// The bytes of result column `index` of the current row, if it holds a blob of 16; valid
  /// until the statement steps again.
  func bytes16(at index: Int32) -> UnsafeRawPointer? {
    guard sqlite3_column_type(handle, index) == SQLITE_BLOB,
      sqlite3_column_bytes(handle, index) == 16
    else { return nil }
    return sqlite3_column_blob(handle, index)
  }

  /// The UUID in result column `index` of the current row, if it holds 16 bytes.
  func uuid(at index: Int32) -> UUID? { SQLiteRow(handle: handle).uuid(at: index) }

  /// The 64-bit integer of result column `index` of the current row.
  func integer(at index: Int32) -> Int64 { sqlite3_column_int64(handle, index) }

  /// The text of result column `index` of the current row (empty for `NULL`).
  func text(at index: Int32) -> String {
    guard let text = sqlite3_column_text(handle, index) else { return "" }
    let count = Int(sqlite3_column_bytes(handle, index))
    return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
  }
}

/// The current row of a statement, read in place: what ``RowReader`` reads a row through.
///
/// NB: the statement's handle alone, not the statement: reading a column through the statement
/// object retained and released it each time, and a listing reads six columns of 200,000 rows.
/// Valid while the statement is, on its current row.
struct SQLiteRow {
  let handle: OpaquePointer

  /// The UUID in result column `index`, if it holds 16 bytes.
  func uuid(at index: Int32) -> UUID? {
    // NB: the column's value asked for once, then read through `sqlite3_value_*`: each
    // `sqlite3_column_*` call looks the column up again and checks the connection's state, and a
    // listing reads several columns of 200,000 rows.
    guard let value = sqlite3_column_value(handle, index) else { return nil }
    return Self.uuid(of: value)
  }

  /// The UUID `value` holds, if it is a blob of 16 bytes.
  private static func uuid(of value: OpaquePointer) -> UUID? {
    guard sqlite3_value_type(value) == SQLITE_BLOB, sqlite3_value_bytes(value) == 16,
      let blob = sqlite3_value_blob(value)
    else { return nil }
    var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    withUnsafeMutableBytes(of: &bytes) { buffer in
      buffer.copyMemory(from: UnsafeRawBufferPointer(start: blob, count: 16))
    }
    return UUID(uuid: bytes)
  }

  /// The UUID in result column `index` of the current row: `.some(nil)` for `NULL`, `nil` when
  /// it holds neither `NULL` nor 16 bytes.
  func optionalUUID(at index: Int32) -> UUID?? {
    guard let value = sqlite3_column_value(handle, index) else { return nil }
    if sqlite3_value_type(value) == SQLITE_NULL { return .some(nil) }
    return Self.uuid(of: value).map { .some($0) }
  }

  /// The text in result column `index` of the current row, or `nil` when it holds no text.
  func textIfText(at index: Int32) -> String? {
    guard let value = sqlite3_column_value(handle, index),
      sqlite3_value_type(value) == SQLITE_TEXT
    else { return nil }
    guard let text = sqlite3_value_text(value) else { return "" }
    let count = Int(sqlite3_value_bytes(value))
    return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
  }

  /// The integer in result column `index` of the current row, or `nil` when it holds none.
  func integerIfInteger(at index: Int32) -> Int64? {
    guard let value = sqlite3_column_value(handle, index),
      sqlite3_value_type(value) == SQLITE_INTEGER
    else { return nil }
    return sqlite3_value_int64(value)
  }

  /// The real in result column `index` of the current row, or `nil` when it holds none.
  func realIfReal(at index: Int32) -> Double? {
    guard let value = sqlite3_column_value(handle, index),
      sqlite3_value_type(value) == SQLITE_FLOAT
    else { return nil }
    return sqlite3_value_double(value)
  }
}
