import Foundation
import Persistence
import Testing

/// The storages every persistence and client behaviour runs on; all must give the same results.
public enum Backend: String, CaseIterable, CustomTestStringConvertible, Sendable {
  /// A fresh in-memory container.
  case inMemory
  /// A fresh SQLite file in a temporary folder.
  case sqlite
  /// A fresh schema on the test server (see ``PostgresTestServer``).
  case postgres

  /// The backends the tests run on: every one, less PostgreSQL outside CI when no server is
  /// given (``PostgresTestServer/skipReason`` says so, once).
  public static var allCases: [Backend] {
    PostgresTestServer.skipReason == nil ? [.inMemory, .sqlite, .postgres] : [.inMemory, .sqlite]
  }

  /// The backends that keep data where another container (or process) can open it again.
  public static var persistent: [Backend] { allCases.filter { $0 != .inMemory } }

  /// The name Swift Testing shows for the argument.
  public var testDescription: String { rawValue }

  /// The storage of this backend, with the SQLite file `file` in `folder` (the PostgreSQL
  /// schema is named after `folder`; ``removeStorage(in:)`` drops it).
  public func storage(file: String, in folder: URL) -> ModelContainer.Storage {
    switch self {
    case .inMemory: .inMemory
    case .sqlite: .file(folder.appendingPathComponent(file).path)
    case .postgres: .postgres(PostgresTestServer.connectionString(for: folder))
    }
  }

  /// Removes what ``storage(file:in:)`` made for `folder`: the folder, and the PostgreSQL schema.
  public static func removeStorage(in folder: URL) {
    try? FileManager.default.removeItem(at: folder)
    PostgresTestServer.dropSchema(for: folder)
  }
}

/// A new, unique folder path in the temporary directory (not created), named after `prefix`.
public func temporaryFolder(_ prefix: String) -> URL {
  FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
}

extension Backend {
  /// Runs `sql` on the storage made for `folder` as another program would, through a
  /// connection of its own: in the SQLite file `file`, or in the PostgreSQL schema.
  public func executeSQL(_ sql: String, file: String, in folder: URL) throws {
    switch self {
    case .inMemory:
      preconditionFailure("an in-memory storage runs no SQL")
    case .sqlite:
      try TestSupport.executeSQL(sql, in: folder.appendingPathComponent(file).path)
    case .postgres:
      let schema = try #require(PostgresTestServer.schema(for: folder))
      try PostgresTestServer.execute("BEGIN; SET LOCAL search_path = \(schema); \(sql); COMMIT")
    }
  }

  /// Everything stored for `folder`, to compare before and after something that must change
  /// nothing: the SQLite file's bytes, or the PostgreSQL schema's tables, columns, indexes and
  /// rows.
  public func snapshot(file: String, in folder: URL) throws -> Data? {
    switch self {
    case .inMemory:
      preconditionFailure("an in-memory storage leaves nothing to compare")
    case .sqlite:
      return FileManager.default.contents(atPath: folder.appendingPathComponent(file).path)
    case .postgres:
      let schema = try #require(PostgresTestServer.schema(for: folder))
      let catalog =
        try PostgresTestServer.value(
          """
          SELECT concat_ws(E'\\n',
            (SELECT string_agg(concat_ws(' ', table_name, column_name, data_type, is_nullable,
               column_default, is_generated), E'\\n' ORDER BY table_name, ordinal_position)
             FROM information_schema.columns WHERE table_schema = '\(schema)'),
            (SELECT string_agg(indexdef, E'\\n' ORDER BY indexname) FROM pg_indexes
             WHERE schemaname = '\(schema)'))
          """) ?? ""
      var rows: [String] = []
      let tables =
        try PostgresTestServer.value(
          "SELECT string_agg(table_name, ' ' ORDER BY table_name) FROM information_schema.tables "
            + "WHERE table_schema = '\(schema)'") ?? ""
      for table in tables.split(separator: " ") {
        rows.append(
          try PostgresTestServer.value(
            "SELECT string_agg(t::text, E'\\n' ORDER BY t::text) FROM \(schema).\(table) t")
            ?? "\(table): no rows")
      }
      return Data(([catalog] + rows).joined(separator: "\n").utf8)
    }
  }

  /// Makes the storage made for `folder` refuse to insert a row of `table` whose `column` is
  /// `value` (a trigger raising `refused by the test`), as only a bug could make it refuse a
  /// valid model, so that a test can fail a write half way.
  public func refuseInserts(
    into table: String, where column: String, is value: String, file: String, in folder: URL
  ) throws {
    try refuse("INSERT", on: table, when: "NEW.\(column) = '\(value)'", file: file, in: folder)
  }

  /// Makes the storage made for `folder` refuse to delete any row of `table` (a trigger raising
  /// `refused by the test`).
  public func refuseDeletes(from table: String, file: String, in folder: URL) throws {
    try refuse("DELETE", on: table, when: nil, file: file, in: folder)
  }

  private func refuse(
    _ event: String, on table: String, when condition: String?, file: String, in folder: URL
  ) throws {
    switch self {
    case .inMemory:
      preconditionFailure("an in-memory storage has no triggers")
    case .sqlite:
      try executeSQL(
        """
        CREATE TRIGGER refuse BEFORE \(event) ON \(table)\(condition.map { " WHEN \($0)" } ?? "")
        BEGIN SELECT RAISE(ABORT, 'refused by the test'); END
        """, file: file, in: folder)
    case .postgres:
      try executeSQL(
        """
        CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF \(condition ?? "true") THEN RAISE EXCEPTION 'refused by the test'; END IF;
          RETURN \(event == "DELETE" ? "OLD" : "NEW");
        END $$;
        CREATE TRIGGER refuse BEFORE \(event) ON \(table) FOR EACH ROW EXECUTE FUNCTION refuse()
        """, file: file, in: folder)
    }
  }

  /// How the storage's error message says a write was refused by
  /// ``refuseInserts(into:where:is:file:in:)``'s trigger.
  public var refusalMessage: String {
    self == .postgres ? "refused by the test" : "constraint failed"
  }
}

/// Where a client's tests run it: on its own in-memory storage (the interface module's
/// `inMemory()`), and through a container on every ``Backend``; all must give the same results.
public enum ClientStorage: CaseIterable, CustomTestStringConvertible, Sendable {
  /// The client's `inMemory()` storage, which needs no container.
  case inMemoryValue
  /// A container on a backend.
  case container(Backend)

  /// The storages the tests run on: the in-memory value, then every backend of
  /// ``Backend/allCases``.
  public static var allCases: [ClientStorage] {
    [.inMemoryValue] + Backend.allCases.map(ClientStorage.container)
  }

  /// The name Swift Testing shows for the argument.
  public var testDescription: String {
    switch self {
    case .inMemoryValue: "inMemory()"
    case .container(let backend): backend.testDescription
    }
  }
}
