import CSQLite
import Foundation
import LinkClient
import Loop
import Persistence
import Synchronization
import Testing

import struct LinkClient.Comment

/// The two storages every client behaviour runs on; both must give the same results.
enum Backend: String, CaseIterable, CustomTestStringConvertible, Sendable {
  case inMemory
  case sqlite

  var testDescription: String { rawValue }
}

/// A link client on a fresh storage, with a clock the test moves and ids that count up.
///
/// The client is built with `live(context:)` as the app builds it. The context is used directly
/// only to seed categories, which `LinkClient` has no endpoint to add (that is `CategoryClient`).
final class Harness: Sendable {
  let client: LinkClient
  let context: ModelContext
  private let folder: URL
  private let now = Mutex(Harness.start)
  private let uuid = UUIDGenerator.incrementing

  /// The date of the first write: 2001-01-01 plus 1,000 seconds.
  static let start = Date(timeIntervalSinceReferenceDate: 1_000)

  init(_ backend: Backend) throws {
    folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("loop-link-client-tests-\(UUID().uuidString)")
    let storage: ModelContainer.Storage =
      switch backend {
      case .inMemory: .inMemory
      case .sqlite: .file(folder.appendingPathComponent("links.sqlite").path)
      }
    context = ModelContext(try ModelContainer(for: LinkClient.models, storage: storage))
    client = LinkClient.live(context: context)
  }

  deinit {
    try? FileManager.default.removeItem(at: folder)
  }

  /// The clock's current date.
  var date: Date { now.withLock { $0 } }

  /// Moves the clock forward.
  func advance(by seconds: TimeInterval) {
    now.withLock { $0 += seconds }
  }

  /// Runs `body` with the harness's `date` and counting `uuid` dependencies.
  func run<R>(_ body: (LinkClient) async throws -> R) async throws -> R {
    try await withDependencies {
      $0.uuid = uuid
      $0.date = DateGenerator { [self] in date }
    } operation: {
      try await body(client)
    }
  }

  /// Makes the SQLite file refuse to insert a link titled `title` (an `ABORT` trigger), so that
  /// a test can fail an import as it writes its last link.
  ///
  /// NB: the in-memory storage has nothing like a trigger; its rollback is the one of every
  /// transaction, tested through dry runs (which write everything, then roll back).
  func refuseLinks(titled title: String) throws {
    try installTrigger(
      """
      CREATE TRIGGER refuse_link BEFORE INSERT ON links WHEN NEW.title = '\(title)'
      BEGIN SELECT RAISE(ABORT, 'refused by the test'); END
      """, in: folder.appendingPathComponent("links.sqlite").path)
  }

  /// Stores a category directly (see the type's note).
  @discardableResult
  func seedCategory(_ number: UInt64, _ name: String) throws -> Category {
    let category = Category(
      id: Category.ID(UUID(counting: 1_000 + number)), name: name, createdAt: Self.start)
    try context.insert(category)
    return category
  }
}

/// The id the counting `uuid` dependency gives the `number`th new model (from 0).
func linkID(_ number: UInt64) -> Link.ID { Link.ID(UUID(counting: number)) }

/// The id the counting `uuid` dependency gives the `number`th new model (from 0).
func commentID(_ number: UInt64) -> Comment.ID { Comment.ID(UUID(counting: number)) }

/// A URL from a literal the test knows is valid.
func url(_ string: String) -> URL {
  guard let url = URL(string: string) else { preconditionFailure("bad test URL '\(string)'") }
  return url
}

/// Runs `sql` (a `CREATE TRIGGER`) on the SQLite file at `path`, through a connection of its own.
func installTrigger(_ sql: String, in path: String) throws {
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
