import CategoryClient
import Foundation
import LinkClient
import LoopTesting
import Synchronization

/// In-memory clients sharing one storage, and the dependencies every test store gets: ids that
/// count up (shared by seeding and the store, so they never collide) and a clock the test moves.
final class Fixture: Sendable {
  let categoryClient: CategoryClient
  let linkClient: LinkClient
  let uuid = UUIDGenerator.incrementing
  private let now = Mutex(Fixture.start)

  /// The date of the first write.
  static let start = Date(timeIntervalSinceReferenceDate: 1_000)

  init() {
    (categoryClient, linkClient) = CategoryClient.inMemoryWithLinkClient()
  }

  /// The current date of the fixture's `date` dependency.
  var date: Date { now.withLock { $0 } }

  /// Moves the `date` dependency forward.
  func advance(by seconds: TimeInterval) {
    now.withLock { $0 += seconds }
  }

  /// Sets the dependencies of a test store.
  func prepare(_ dependencies: inout DependencyValues) {
    dependencies.categoryClient = categoryClient
    dependencies.linkClient = linkClient
    dependencies.uuid = uuid
    dependencies.date = DateGenerator { [self] in date }
  }

  /// Writes through the clients before the story starts, with the same dependencies.
  @discardableResult
  func seed<R>(_ body: @Sendable (CategoryClient, LinkClient) async throws -> R) async throws -> R {
    try await withDependencies(prepare) { try await body(categoryClient, linkClient) }
  }
}

/// The id the counting `uuid` dependency gives the `number`th new model (from 0).
func categoryID(_ number: UInt64) -> Category.ID { Category.ID(UUID(counting: number)) }
