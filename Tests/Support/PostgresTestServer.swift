import CLibPQ
import Foundation
import Persistence
import Synchronization
import Testing

/// The PostgreSQL server the tests run on: the one `LOOP_POSTGRES_URL` names (`scripts/postgres
/// run swift test` starts a throwaway one and sets it), one for the whole run.
///
/// Each test gets a schema of its own on it (``connectionString(for:)``), dropped when the test
/// is done (``dropSchema(for:)``): creating and dropping a schema costs milliseconds, a database
/// a second. Outside CI, without `LOOP_POSTGRES_URL`, the PostgreSQL cases are left out and
/// ``skipReason`` says why (printed once); in CI (`CI` set) they always run, and fail with that
/// reason when there is no server.
public enum PostgresTestServer {
  /// The server's URL, from `LOOP_POSTGRES_URL`.
  public static let url: String? = {
    let url = ProcessInfo.processInfo.environment["LOOP_POSTGRES_URL"] ?? ""
    return url.isEmpty ? nil : url
  }()

  /// Whether this is a CI run, which runs every PostgreSQL test.
  public static let isCI = !(ProcessInfo.processInfo.environment["CI"] ?? "").isEmpty

  /// Why the PostgreSQL cases are not run, or `nil` when they are.
  public static let skipReason: String? = {
    guard url == nil, !isCI else { return nil }
    let reason =
      "PostgreSQL tests skipped: LOOP_POSTGRES_URL is unset (scripts/postgres run swift test "
      + "starts a throwaway server and runs them)."
    print(reason)
    return reason
  }()

  /// The admin connection, opened on first use.
  private static let admin = Mutex<AdminConnection?>(nil)

  /// The schema made for each test folder.
  private static let schemas = Mutex<[String: String]>([:])

  /// A connection string to a new, empty schema made for the test whose temporary folder is
  /// `folder` (the schema is named after it).
  ///
  /// In CI without a server it records why the test cannot run, and returns a connection
  /// string that fails to connect.
  public static func connectionString(for folder: URL) -> String {
    guard let url else {
      Issue.record(
        Comment(
          rawValue: "LOOP_POSTGRES_URL is unset, and CI runs every PostgreSQL test: run the "
            + "tests with scripts/postgres run swift test."))
      return "postgresql://loop@invalid.invalid/none"
    }
    let schema = schemas.withLock { schemas in
      let key = folder.path
      if let known = schemas[key] { return known }
      let letters = folder.lastPathComponent.lowercased().filter { $0.isLetter || $0.isNumber }
      let name = String(("t_" + letters).prefix(60))
      schemas[key] = name
      return name
    }
    do {
      try execute("CREATE SCHEMA IF NOT EXISTS \(schema)")
    } catch {
      Issue.record("Cannot make the schema '\(schema)' on the test server: \(error)")
    }
    return connectionString(url, schema: schema)
  }

  /// `url` with its `search_path` (and its application name, which the server lists its
  /// connections under) set to `schema`, and more settings and parameters (`user`, `password`)
  /// if given.
  public static func connectionString(
    _ url: String, schema: String, settings: [String: String] = [:],
    parameters: [String: String] = [:]
  ) -> String {
    let options = (["search_path": schema].merging(settings) { $1 })
      .sorted { $0.key < $1.key }.map { "-c\($0.key)=\($0.value)" }
    let all = (["application_name": schema].merging(parameters) { $1 }).sorted { $0.key < $1.key }
    guard url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") else {
      return url + " options='\(options.joined(separator: " "))'"
        + all.map { " \($0.key)=\($0.value)" }.joined()
    }
    func encoded(_ text: String) -> String {
      text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
    }
    let separator = url.contains("?") ? "&" : "?"
    return url + separator + "options=" + encoded(options.joined(separator: " "))
      + all.map { "&\($0.key)=\(encoded($0.value))" }.joined()
  }

  /// Where the test server is, as libpq names it: `host:port` (the host may be a socket's
  /// folder).
  public static func address() throws -> String {
    try admin.withLock { admin in
      if admin == nil, let url { admin = try AdminConnection(url) }
      guard let connection = admin else { throw AdminConnection.Failure("no test server") }
      return connection.address
    }
  }

  /// The schema made for `folder`, if any: also the application name its connections show in
  /// `pg_stat_activity`.
  public static func schema(for folder: URL) -> String? {
    schemas.withLock { $0[folder.path] }
  }

  /// Drops the schema made for `folder`, if any, with everything in it.
  public static func dropSchema(for folder: URL) {
    guard let schema = schemas.withLock({ $0.removeValue(forKey: folder.path) }) else { return }
    try? execute("DROP SCHEMA IF EXISTS \(schema) CASCADE")
  }

  /// Runs `sql` (statements without results) on the test server as its superuser.
  public static func execute(_ sql: String) throws {
    try admin.withLock { admin in
      if admin == nil, let url { admin = try AdminConnection(url) }
      guard let connection = admin else { throw AdminConnection.Failure("no test server") }
      try connection.execute(sql)
    }
  }

  /// The first column of the first row `sql` answers on the test server, as text.
  public static func value(_ sql: String) throws -> String? {
    try admin.withLock { admin in
      if admin == nil, let url { admin = try AdminConnection(url) }
      guard let connection = admin else { throw AdminConnection.Failure("no test server") }
      return try connection.value(sql)
    }
  }
}

/// A libpq connection of the test's own to the test server, beside Loop's: to make and drop
/// schemas, and to play another program working on the same database.
public final class AdminConnection: @unchecked Sendable {
  /// A failure of the connection or of a statement, with libpq's message.
  public struct Failure: Error, CustomStringConvertible {
    /// libpq's message.
    public var description: String

    init(_ description: String) { self.description = description }
  }

  private let handle: OpaquePointer

  /// Connects to `url`.
  public init(_ url: String) throws {
    guard let handle = PQconnectdb(url), PQstatus(handle) == CONNECTION_OK else {
      throw Failure("cannot connect to the test server")
    }
    PQsetNoticeProcessor(handle, { _, _ in }, nil)
    self.handle = handle
  }

  deinit { PQfinish(handle) }

  /// `host:port` of the connection, as libpq names them.
  public var address: String {
    "\(String(cString: PQhost(handle))):\(String(cString: PQport(handle)))"
  }

  /// Runs `sql`, which may hold several statements.
  public func execute(_ sql: String) throws {
    let result = PQexec(handle, sql)
    defer { PQclear(result) }
    let status = PQresultStatus(result)
    guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
      throw Failure(String(cString: PQerrorMessage(handle)))
    }
  }

  /// The first column of the first row `sql` answers, as text, or `nil` when there is none.
  public func value(_ sql: String) throws -> String? {
    let result = PQexec(handle, sql)
    defer { PQclear(result) }
    guard PQresultStatus(result) == PGRES_TUPLES_OK else {
      throw Failure(String(cString: PQerrorMessage(handle)))
    }
    guard PQntuples(result) > 0, PQgetisnull(result, 0, 0) == 0 else { return nil }
    return String(cString: PQgetvalue(result, 0, 0))
  }
}
