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
