import CLibPQ
import Foundation

/// One connection to a PostgreSQL server through libpq: prepared statements, values in
/// PostgreSQL's binary format, and errors as ``PersistenceError``s that never show a password.
///
/// Not thread-safe: the ``ModelContainer`` owning it serializes every call behind its lock.
///
/// NB: a lost connection is opened again by ``reopenIfLost()``, which the backend calls only
/// between transactions: inside one, every statement after the loss must fail, or the rest of
/// the transaction would be saved on its own.
final class PostgresConnection {
  private var handle: OpaquePointer?
  /// The server as messages name it: `user@host:port/database`.
  let server: String
  /// How many times the statements prepared on the server were dropped (the connection opened
  /// again, or the cache of statements emptied): a statement prepared before is prepared again.
  private(set) var generation = 0
  private let parameters: [(String, String)]
  private let secrets: [String]
  private var cache: [String: PostgresStatement] = [:]
  private var statementCount = 0
  private static let cacheLimit = 64

  /// Connects with `connectionString`, a libpq URL (`postgresql://user@host:port/db`) or
  /// `key=value` string.
  init(connectionString: String) throws(PersistenceError) {
    try LibPQ.require()
    let parsed = PostgresConnectionString(connectionString)
    secrets = parsed.secrets
    // NB: the string is expanded in place of `dbname`; what comes before it is a default the
    // string may override (a timeout), what comes after it is what Loop needs (UTF-8 text).
    parameters = [
      ("connect_timeout", "10"), ("fallback_application_name", "loop"),
      ("dbname", connectionString), ("client_encoding", "UTF8"),
    ]
    guard parsed.isValid else {
      server = parsed.name
      throw .cannotConnect(
        server: parsed.name,
        reason: "the connection string is neither a postgresql:// URL nor key=value pairs")
    }
    handle = Self.connect(parameters)
    server = handle.map(Self.name(of:)) ?? parsed.name
    guard let handle, PQstatus(handle) == CONNECTION_OK else {
      let error = connectionFailure()
      PQfinish(handle)
      self.handle = nil
      throw error
    }
  }

  deinit {
    cache.removeAll()
    PQfinish(handle)
  }

  private static func connect(_ parameters: [(String, String)]) -> OpaquePointer? {
    let keywords = parameters.map { strdup($0.0) }
    let values = parameters.map { strdup($0.1) }
    defer {
      for pointer in keywords + values { free(pointer) }
    }
    let keywordPointers = keywords.map { UnsafePointer($0) } + [nil]
    let valuePointers = values.map { UnsafePointer($0) } + [nil]
    let handle = PQconnectdbParams(keywordPointers, valuePointers, 1)
    // NB: libpq prints the server's notices (`relation "loop_meta" already exists, skipping`)
    // on standard error, where the user would read them: Loop reports what matters itself.
    PQsetNoticeProcessor(handle, { _, _ in }, nil)
    return handle
  }

  /// `user@host:port/database` of a connection, open or failed.
  private static func name(of handle: OpaquePointer) -> String {
    func field(_ read: (OpaquePointer) -> UnsafeMutablePointer<CChar>?) -> String {
      read(handle).map { String(cString: $0) } ?? ""
    }
    return "\(field(PQuser))@\(field(PQhost)):\(field(PQport))/\(field(PQdb))"
  }

  /// The error for a connection that could not be made, in one sentence naming the server.
  private func connectionFailure() -> PersistenceError {
    let message = handle.map { String(cString: PQerrorMessage($0)) } ?? "out of memory"
    let user = handle.flatMap { PQuser($0) }.map { String(cString: $0) } ?? ""
    let database = handle.flatMap { PQdb($0) }.map { String(cString: $0) } ?? ""
    let reason: String
    if let handle, PQconnectionNeedsPassword(handle) != 0 {
      reason = "the server asks for the password of user '\(user)' and none was given"
    } else if message.contains("password authentication failed") {
      reason = "the server refused the password of user '\(user)'"
    } else if message.contains("database \"\(database)\" does not exist") {
      reason = "the database '\(database)' does not exist"
    } else if message.contains("role \"\(user)\" does not exist") {
      reason = "the user '\(user)' does not exist"
    } else if message.contains("Connection refused") || message.contains("No such file")
      || message.contains("could not translate host name") || message.contains("timeout expired")
    {
      reason = "no server answers there (is it running?)"
    } else {
      reason = firstLine(of: message)
    }
    return .cannotConnect(server: server, reason: reason)
  }

  /// The first line of a libpq message without its `FATAL:` or `ERROR:` prefix, with every
  /// secret of the connection string hidden.
  func firstLine(of message: String) -> String {
    var line = message.split(whereSeparator: \.isNewline).first.map(String.init) ?? message
    for prefix in ["FATAL:", "ERROR:"] where line.hasPrefix(prefix) {
      line = line.dropFirst(prefix.count).trimmingCharacters(in: .whitespaces)
    }
    for secret in secrets where !secret.isEmpty {
      line = line.replacingOccurrences(of: secret, with: "********")
    }
    return line.trimmingCharacters(in: CharacterSet(charactersIn: ". "))
  }

  // MARK: - State

  /// Whether the connection is broken (the server went away, or it was never opened again).
  var isLost: Bool { handle.map { PQstatus($0) != CONNECTION_OK } ?? true }

  /// Opens the connection again when it was lost; statements are prepared again on first use.
  func reopenIfLost() throws(PersistenceError) {
    if let handle, PQstatus(handle) == CONNECTION_OK {
      // NB: a server that closed the connection while it was idle (restarted, or told to by an
      // administrator) shows it only once the connection is read: its last message, then the
      // end of the connection. Read while there is something to read (a few times at most).
      var socket = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
      for _ in 0..<4 where PQstatus(handle) == CONNECTION_OK && poll(&socket, 1, 0) > 0 {
        if PQconsumeInput(handle) == 0 { break }
      }
      if PQstatus(handle) == CONNECTION_OK { return }
    }
    PQfinish(handle)
    handle = Self.connect(parameters)
    generation += 1
    cache.removeAll()
    guard let handle, PQstatus(handle) == CONNECTION_OK else {
      let error = connectionFailure()
      PQfinish(handle)
      self.handle = nil
      throw error
    }
  }

  /// Whether a transaction is open (or failed and not yet rolled back).
  var isInTransaction: Bool {
    guard let handle else { return false }
    return PQtransactionStatus(handle) != PQTRANS_IDLE
  }

  /// Whether the open transaction failed: every statement fails until it is rolled back.
  var isInFailedTransaction: Bool {
    guard let handle else { return false }
    return PQtransactionStatus(handle) == PQTRANS_INERROR
  }

  /// A setting the server reported, such as `server_encoding`.
  func setting(_ name: String) -> String? {
    guard let handle, let value = PQparameterStatus(handle, name) else { return nil }
    return String(cString: value)
  }

  // MARK: - Statements

  /// Runs SQL without parameters (transaction control, DDL); may hold several statements.
  func execute(_ sql: String) throws(PersistenceError) {
    guard let handle else { throw lost() }
    let result = PQexec(handle, sql)
    defer { PQclear(result) }
    try check(result, sql: sql)
  }

  /// Runs `sql` with `parameters` (of `kinds`), preparing it once per connection.
  @discardableResult
  func run(_ sql: String, _ parameters: [SQLValue] = [], kinds: [ValueKind] = [])
    throws(PersistenceError) -> PostgresResult
  {
    let key = kinds.isEmpty ? sql : sql + "\u{0}" + kinds.map { "\($0)" }.joined(separator: ",")
    let statement: PostgresStatement
    if let cached = cache[key] {
      statement = cached
    } else {
      statement = PostgresStatement(sql: sql, kinds: kinds)
      if cache.count >= Self.cacheLimit { forgetStatements() }
      cache[key] = statement
    }
    return try run(statement, parameters)
  }

  /// Drops every statement prepared on the server (each lives as long as the connection), so
  /// that many predicates of different shapes do not pile them up there; the statements the
  /// tables hold are prepared again on their next use.
  private func forgetStatements() {
    cache.removeAll(keepingCapacity: true)
    try? execute("DEALLOCATE ALL")
    generation += 1
  }

  /// Runs a prepared statement with `parameters`, in PostgreSQL's binary format both ways.
  @discardableResult
  func run(_ statement: PostgresStatement, _ parameters: [SQLValue]) throws(PersistenceError)
    -> PostgresResult
  {
    guard let handle else { throw lost() }
    let name = try prepared(statement, on: handle)
    var encoded = PostgresParameters()
    for (value, kind) in zip(parameters, statement.kinds) {
      guard encoded.append(value, as: kind) else {
        throw .invalidValue(model: "a parameter", column: "\(kind)", value: value.debugSummary)
      }
    }
    let result = encoded.withPointers { values, lengths, formats in
      PQexecPrepared(handle, name, Int32(parameters.count), values, lengths, formats, 1)
    }
    do {
      try check(result, sql: statement.sql)
    } catch {
      PQclear(result)
      throw error
    }
    guard let result else { throw lost() }
    return PostgresResult(result)
  }

  /// The name `statement` is prepared under on this connection, preparing it first if needed.
  private func prepared(_ statement: PostgresStatement, on handle: OpaquePointer)
    throws(PersistenceError) -> String
  {
    if statement.generation == generation, let name = statement.name { return name }
    statementCount += 1
    let name = "loop_\(statementCount)"
    let types = statement.kinds.map(\.typeOID)
    let result = PQprepare(
      handle, name, PostgresParameters.numbered(statement.sql), Int32(types.count), types)
    defer { PQclear(result) }
    try check(result, sql: statement.sql)
    statement.name = name
    statement.generation = generation
    return name
  }

  /// Throws the error `result` reports, if any.
  private func check(_ result: OpaquePointer?, sql: String?) throws(PersistenceError) {
    let status = result.map(PQresultStatus) ?? PGRES_FATAL_ERROR
    guard status != PGRES_COMMAND_OK, status != PGRES_TUPLES_OK else { return }
    throw error(result, sql: sql)
  }

  /// The error a failed result reports: a lost connection as such, anything else with its
  /// SQLSTATE and message.
  private func error(_ result: OpaquePointer?, sql: String?) -> PersistenceError {
    // NB: PG_DIAG_SQLSTATE and PG_DIAG_MESSAGE_PRIMARY are the characters 'C' and 'M'.
    func field(_ code: UInt8) -> String? {
      result.flatMap { PQresultErrorField($0, Int32(code)) }.map { String(cString: $0) }
    }
    let state = field(UInt8(ascii: "C")) ?? ""
    // 08: connection exceptions; 57P01-57P03: the server is shutting down or restarting.
    if isLost || state.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(state) {
      return lost(field(UInt8(ascii: "M")))
    }
    let message =
      field(UInt8(ascii: "M"))
      ?? handle.map { firstLine(of: String(cString: PQerrorMessage($0))) } ?? "no answer"
    return .postgres(code: state, message: message, sql: sql)
  }

  /// The error for a connection lost during a call.
  func lost(_ message: String? = nil) -> PersistenceError {
    let reason =
      message.map { firstLine(of: $0) }
      ?? handle.map { firstLine(of: String(cString: PQerrorMessage($0))) }
      ?? "it was closed"
    return .connectionLost(server: server, reason: reason.isEmpty ? "it was closed" : reason)
  }

  /// The name of the constraint a failed statement broke, from the error's fields.
  static func constraint(in error: PersistenceError) -> String? {
    guard case .postgres(let code, let message, _) = error, code == "23505" else { return nil }
    // NB: `duplicate key value violates unique constraint "name"`; the result (and its
    // constraint field) is gone once the error is made, and the name is all that is needed.
    guard let open = message.firstIndex(of: "\""), let close = message.lastIndex(of: "\""),
      open < close
    else { return nil }
    return String(message[message.index(after: open)..<close])
  }
}

/// A statement prepared on a connection: its SQL, with `?` for parameters, and their kinds.
final class PostgresStatement {
  let sql: String
  let kinds: [ValueKind]
  /// The name it is prepared under, on the connection of ``generation``.
  fileprivate var name: String?
  fileprivate var generation = -1

  init(sql: String, kinds: [ValueKind]) {
    self.sql = sql
    self.kinds = kinds.map(\.bound)
  }
}

/// What a connection string names, read without connecting: the server for messages, and the
/// secrets no message may show.
struct PostgresConnectionString {
  /// `user@host:port/database`, defaults filled in as libpq fills them.
  var name: String
  /// The password given, as written and as libpq reads it, and `PGPASSWORD`.
  var secrets: [String]
  /// Whether libpq can read the string.
  var isValid: Bool

  init(_ string: String, environment: [String: String] = ProcessInfo.processInfo.environment) {
    var secrets = [environment["PGPASSWORD"]].compactMap { $0 }.filter { !$0.isEmpty }
    var error: UnsafeMutablePointer<CChar>?
    // NB: without libpq the string cannot be read; opening the store reports why.
    let options = (try? LibPQ.require()).flatMap { PQconninfoParse(string, &error) }
    guard let options else {
      if error != nil { PQfreemem(error) }
      self.name = "the server named by the connection string"
      self.secrets = secrets
      self.isValid = false
      return
    }
    defer { PQconninfoFree(options) }
    var values: [String: String] = [:]
    var option = options
    while let keyword = option.pointee.keyword {
      if let value = option.pointee.val {
        values[String(cString: keyword)] = String(cString: value)
      }
      option += 1
    }
    if let password = values["password"], !password.isEmpty {
      secrets.append(password)
      let encoded = password.addingPercentEncoding(withAllowedCharacters: .alphanumerics)
      if let encoded, encoded != password { secrets.append(encoded) }
    }
    func value(_ key: String, _ variable: String) -> String? {
      [values[key], environment[variable]].compactMap { $0 }.first { !$0.isEmpty }
    }
    let user =
      value("user", "PGUSER") ?? (getpwuid(geteuid())?.pointee.pw_name).map {
        String(cString: $0)
      } ?? ""
    let host = value("host", "PGHOST") ?? value("hostaddr", "PGHOSTADDR") ?? "/var/run/postgresql"
    let port = value("port", "PGPORT") ?? "5432"
    let database = value("dbname", "PGDATABASE") ?? user
    self.name = "\(user)@\(host):\(port)/\(database)"
    self.secrets = secrets
    self.isValid = true
  }
}
