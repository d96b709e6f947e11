import CategoryClient
import Foundation
import LinkClient
import Loop
import Persistence
import Synchronization
import Testing

/// The two storages every client behaviour runs on; both must give the same results.
enum Backend: String, CaseIterable, CustomTestStringConvertible, Sendable {
  case inMemory
  case sqlite

  var testDescription: String { rawValue }
}

/// A category client and a link client sharing a fresh storage, as the app has them, with a
/// clock the test moves and ids that count up.
final class Harness: Sendable {
  let categories: CategoryClient
  let links: LinkClient
  let context: ModelContext
  private let folder: URL
  private let now = Mutex(Harness.start)
  private let uuid = UUIDGenerator.incrementing

  /// The date of the first write: 2001-01-01 plus 1,000 seconds.
  static let start = Date(timeIntervalSinceReferenceDate: 1_000)

  init(_ backend: Backend) throws {
    folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("loop-category-client-tests-\(UUID().uuidString)")
    let storage: ModelContainer.Storage =
      switch backend {
      case .inMemory: .inMemory
      case .sqlite: .file(folder.appendingPathComponent("links.sqlite").path)
      }
    context = ModelContext(try ModelContainer(for: CategoryClient.models, storage: storage))
    categories = CategoryClient.live(context: context)
    links = LinkClient.live(context: context)
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
  func run<R>(_ body: () async throws -> R) async throws -> R {
    try await withDependencies {
      $0.uuid = uuid
      $0.date = DateGenerator { [self] in date }
    } operation: {
      try await body()
    }
  }
}

/// The id the counting `uuid` dependency gives the `number`th new category (from 0).
func categoryID(_ number: UInt64) -> Category.ID { Category.ID(UUID(counting: number)) }

/// The id the counting `uuid` dependency gives the `number`th new link (from 0).
func linkID(_ number: UInt64) -> Link.ID { Link.ID(UUID(counting: number)) }
