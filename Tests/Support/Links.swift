import CSQLite
import CategoryClient
import CategoryClientLive
import Foundation
import LinkClient
import LinkClientLive
import Loop
import Persistence
import Synchronization
import Testing

import struct LinkClient.Comment

/// A link client and a category client sharing a fresh storage, as the app has them, with a
/// clock the test moves and ids that count up.
///
/// The clients are built as the app builds them (`live(context:)`), or on the interface's
/// ``InMemoryLinkStorage`` for ``ClientStorage/inMemoryValue``. The storage is used directly
/// only to seed what no endpoint of the client under test adds.
public final class Harness: Sendable {
  /// The link client.
  public let links: LinkClient
  /// The category client, on the same storage.
  public let categories: CategoryClient
  /// The clients' storage.
  public let storage: any LinkStorage
  private let container: ModelContext?
  private let folder = temporaryFolder("loop-client-tests")
  /// The storage's backend (`nil` for the in-memory value's storage).
  public let backend: Backend?
  /// The PostgreSQL schema of the storage (also its connections' application name), if any.
  public var schema: String? { PostgresTestServer.schema(for: folder) }
  private let now = Mutex(Harness.start)
  private let uuid = UUIDGenerator.incrementing

  /// The date of the first write: 2001-01-01 plus 1,000 seconds.
  public static let start = Date(timeIntervalSinceReferenceDate: 1_000)

  /// Opens a fresh storage of `backend`.
  public convenience init(_ backend: Backend) throws {
    try self.init(.container(backend))
  }

  /// Opens a fresh storage of `kind`.
  public init(_ kind: ClientStorage) throws {
    switch kind {
    case .inMemoryValue:
      backend = nil
      container = nil
      storage = InMemoryLinkStorage()
      links = LinkClient(storage: storage)
      categories = CategoryClient(storage: storage)
    case .container(let backend):
      self.backend = backend
      let file = backend.storage(file: "links.sqlite", in: folder)
      let context = ModelContext(try ModelContainer(for: LinkClient.models, storage: file))
      container = context
      storage = ContextLinkStorage(context: context)
      links = LinkClient.live(context: context)
      categories = CategoryClient.live(context: context)
    }
  }

  /// The clients' context; a test that reads or writes the container itself runs on a backend.
  public var context: ModelContext {
    get throws { try #require(container, "the in-memory value's storage has no context") }
  }

  deinit {
    Backend.removeStorage(in: folder)
  }

  /// The clock's current date.
  public var date: Date { now.withLock { $0 } }

  /// Moves the clock forward.
  public func advance(by seconds: TimeInterval) {
    now.withLock { $0 += seconds }
  }

  /// Runs `body`, given the link client, with the harness's `date` and counting `uuid`
  /// dependencies.
  public func run<R>(_ body: (LinkClient) async throws -> R) async throws -> R {
    try await withDependencies {
      $0.uuid = uuid
      $0.date = DateGenerator { [self] in date }
    } operation: {
      try await body(links)
    }
  }

  /// Makes the storage refuse to insert a link titled `title` (see
  /// `Backend.refuseInserts(into:where:is:file:in:)`), so that a test can fail an import as it
  /// writes its last link.
  ///
  /// NB: the in-memory storage has nothing like a trigger; its rollback is the one of every
  /// transaction, tested through dry runs (which write everything, then roll back).
  public func refuseLinks(titled title: String) throws {
    let backend = try #require(backend, "the in-memory value's storage has no triggers")
    try backend.refuseInserts(
      into: "links", where: "title", is: title, file: "links.sqlite", in: folder)
  }

  /// Stores a category directly, with an id apart from the counting ones.
  @discardableResult
  public func seedCategory(_ number: UInt64, _ name: String) throws -> Category {
    let category = Category(
      id: Category.ID(UUID(counting: 1_000 + number)), name: name, createdAt: Self.start)
    try storage.insert(category)
    return category
  }
}

/// The id the counting `uuid` dependency gives the `number`th new model (from 0).
public func id<Model>(_ number: UInt64) -> ModelID<Model> { ModelID(UUID(counting: number)) }

/// The id the counting `uuid` dependency gives the `number`th new link (from 0).
public func linkID(_ number: UInt64) -> Link.ID { id(number) }

/// The id the counting `uuid` dependency gives the `number`th new comment (from 0).
public func commentID(_ number: UInt64) -> Comment.ID { id(number) }

/// The id the counting `uuid` dependency gives the `number`th new category (from 0).
public func categoryID(_ number: UInt64) -> Category.ID { id(number) }

/// A URL from a literal the test knows is valid.
public func url(_ string: String) -> URL {
  guard let url = URL(string: string) else { preconditionFailure("bad test URL '\(string)'") }
  return url
}

/// Runs `sql` (one statement or several, such as a `CREATE TRIGGER`) on the SQLite file at
/// `path`, through a connection of its own.
public func executeSQL(_ sql: String, in path: String) throws {
  var database: OpaquePointer?
  defer { sqlite3_close(database) }
  guard sqlite3_open(path, &database) == SQLITE_OK,
    sqlite3_exec(database, sql, nil, nil, nil) == SQLITE_OK
  else {
    throw PersistenceError.sqlite(
      code: sqlite3_errcode(database), message: String(cString: sqlite3_errmsg(database)),
      sql: sql)
  }
}
