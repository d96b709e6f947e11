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
