import Foundation
import Synchronization

/// The store of a set of model types, in an SQLite file, a PostgreSQL database or in memory:
/// SwiftData's `ModelContainer`.
///
/// ```swift
/// let container = try ModelContainer(for: Link.self, Category.self, storage: .file(path))
/// let context = ModelContext(container)
/// try context.insert(link)
/// ```
///
/// The three storages answer every call alike: the same models in the same order, the same
/// errors. `.postgres("postgresql://user@host:5432/loop")` keeps the models on a PostgreSQL
/// server that several processes, on several machines, share; see ``Storage/postgres(_:)``.
///
/// Opening a file creates it (and its folders) when missing, then checks it before writing
/// anything: a file that is not an SQLite database, or one whose tables cannot be brought to the
/// models' schemas, is reported and left untouched. New tables, added columns and indexes are
/// then created in one transaction.
///
/// A container is `Sendable`: every call from any task or thread is serialized behind one
/// recursive lock, so a ``ModelContext/transaction(_:)`` also sees only its own writes until it
/// commits. Several containers (in several processes) can open the same file: in SQLite's WAL
/// mode readers never wait, and a writer waits for another's transaction for as long as that one
/// keeps writing (however long an import takes), giving up only after ten seconds without
/// progress.
public final class ModelContainer: Sendable {
  /// Where a container keeps its models.
  ///
  /// Its description names the place without a secret: a path, `in memory`, or
  /// `PostgreSQL at user@host:port/database` (never a password, which a connection string may
  /// hold).
  public enum Storage: Sendable, Equatable, CustomStringConvertible, CustomReflectable {
    /// In memory, evaluated in Swift, gone with the container. For tests and previews; it answers
    /// every call exactly as the SQLite backend does.
    case inMemory
    /// In the SQLite database file at this path.
    case file(String)
    /// In a PostgreSQL database, through libpq: a connection string, as a URL
    /// (`postgresql://user:password@host:5432/database`) or `key=value` pairs (`host=… dbname=…`).
    ///
    /// The tables are created in the connection's current schema (the first of its
    /// `search_path` that exists, `public` by default) and migrated as in a file. Strings compare
    /// and sort byte by byte (the `"C"` collation, as in SQLite and Swift), doubles keep every
    /// bit, UUIDs are `uuid`, and a `Date` is a `timestamptz` column beside the exact seconds
    /// Loop reads. Several processes may share the database: their transactions take turns, and
    /// one that PostgreSQL aborts for a serialization failure or a deadlock runs again.
    ///
    /// NB: on PostgreSQL the body of ``ModelContext/transaction(_:)`` may run more than once.
    case postgres(String)

    /// Where the models are kept, without a password: a path, `in memory`, or
    /// `PostgreSQL at user@host:port/database`.
    public var description: String {
      switch self {
      case .inMemory: "in memory"
      case .file(let path): path
      case .postgres(let connection): "PostgreSQL at \(PostgresConnectionString(connection).name)"
      }
    }

    /// The storage as a dump shows it: its ``description``, so that no dump shows a password.
    public var customMirror: Mirror {
      Mirror(self, children: ["storage": description], displayStyle: .enum)
    }
  }

  /// Where the models are kept.
  public let storage: Storage

  private let lock = NSRecursiveLock()
  private let backend: any StorageBackend
  /// How many writes were asked of the container; see ``writeCount``.
  private let writes = Atomic(0)
  /// The ``TableDescription`` of each model type, keyed by the type.
  private let tables: [ObjectIdentifier: any AnyTableDescription]

  /// Opens a container for the given model types.
  ///
  /// - Parameters:
  ///   - types: Every model type the container stores.
  ///   - storage: ``Storage/inMemory``, ``Storage/file(_:)`` or ``Storage/postgres(_:)``.
  /// - Throws: ``PersistenceError/invalidSchema(model:reason:)`` for a malformed schema (or two
  ///   models sharing a table); for a file, ``PersistenceError/cannotOpen(path:reason:)``,
  ///   ``PersistenceError/notADatabase(path:)``,
  ///   ``PersistenceError/corruptDatabase(path:reason:)`` or
  ///   ``PersistenceError/incompatibleSchema(table:column:reason:)``; for PostgreSQL,
  ///   ``PersistenceError/cannotConnect(server:reason:)``,
  ///   ``PersistenceError/cannotOpen(path:reason:)`` (a database Loop cannot use) or
  ///   ``PersistenceError/incompatibleSchema(table:column:reason:)``.
  public convenience init(for types: any PersistentModel.Type..., storage: Storage) throws {
    try self.init(for: types, storage: storage)
  }

  /// Opens a container for the given model types.
  ///
  /// - Parameters:
  ///   - types: Every model type the container stores.
  ///   - storage: ``Storage/inMemory``, ``Storage/file(_:)`` or ``Storage/postgres(_:)``.
  /// - Throws: As the variadic `init(for:storage:)`.
  public init(for types: [any PersistentModel.Type], storage: Storage) throws {
    var tables: [ObjectIdentifier: any AnyTableDescription] = [:]
    var descriptions: [any AnyTableDescription] = []
    for type in types {
      let description = try Self.describe(type)
      guard tables[description.modelID] == nil else { continue }
      if let other = descriptions.first(where: { $0.table == description.table }) {
        throw PersistenceError.invalidSchema(
          model: description.modelName,
          reason: "its table '\(description.table)' is also the table of \(other.modelName)")
      }
      tables[description.modelID] = description
      descriptions.append(description)
    }
    self.storage = storage
    self.tables = tables
    switch storage {
    case .inMemory:
      backend = InMemoryBackend(descriptions: descriptions)
    case .file(let path):
      backend = try SQLiteBackend(path: path, descriptions: descriptions)
    case .postgres(let connection):
      backend = try PostgresBackend(connectionString: connection, descriptions: descriptions)
    }
  }

  private static func describe<T: PersistentModel>(_ type: T.Type) throws(PersistenceError)
    -> any AnyTableDescription
  {
    try TableDescription(T.schema)
  }

  /// Checks the whole database file for damage (SQLite's `PRAGMA integrity_check`).
  ///
  /// It reads every page, so it takes time on a large file; the in-memory storage has nothing
  /// to check, and a PostgreSQL server checks its own files: there it checks that the server
  /// answers.
  ///
  /// - Throws: ``PersistenceError/corruptDatabase(path:reason:)`` listing the problems found;
  ///   on PostgreSQL, ``PersistenceError/connectionLost(server:reason:)`` or
  ///   ``PersistenceError/cannotConnect(server:reason:)``.
  public func checkIntegrity() throws {
    try withBackend { try $0.checkIntegrity() }
  }

  /// Runs `body` with the backend, holding the lock.
  func withBackend<R>(_ body: (any StorageBackend) throws -> R) throws -> R {
    lock.lock()
    defer { lock.unlock() }
    return try body(backend)
  }

  /// Runs `body`, which writes, with the backend, holding the lock; counted in ``writeCount``.
  func withWritingBackend<R>(_ body: (any StorageBackend) throws -> R) throws -> R {
    // NB: counted before the write, so a reader that noted the count before reading sees it
    // change whichever of the two took the lock first.
    writes.add(1, ordering: .sequentiallyConsistent)
    return try withBackend(body)
  }

  /// How many inserts, updates and deletes were asked of this container (in this process)
  /// since it opened, whether they succeeded or not.
  ///
  /// Something kept from a read (a page read ahead) is still what a read would give when the
  /// count has not changed since that read began.
  package var writeCount: Int { writes.load(ordering: .sequentiallyConsistent) }

  /// The validated schema of `type`.
  func table<T: PersistentModel>(_ type: T.Type) throws(PersistenceError) -> TableDescription<T> {
    guard let table = tables[ObjectIdentifier(type)] else {
      throw .unregisteredModel("\(T.self)")
    }
    // NB: keyed by the model type, so this is always `T`'s description; a checked cast would
    // look up generic metadata on every call.
    return unsafeDowncast(table, to: TableDescription<T>.self)
  }
}
