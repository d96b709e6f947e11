import CategoryClient
import Foundation
import LinkClient
import LoopTesting
import Synchronization

/// In-memory clients sharing one storage, and the dependencies every test store gets: ids that
/// count up (shared by seeding and the store, so they never collide), a date the test moves,
/// and a test clock.
final class Fixture: Sendable {
  let categoryClient: CategoryClient
  let linkClient: LinkClient
  let clock = TestClock()
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
    dependencies.continuousClock = clock
  }

  /// Writes through the clients before the story starts, with the same dependencies.
  @discardableResult
  func seed<R>(_ body: @Sendable (CategoryClient, LinkClient) async throws -> R) async throws
    -> R
  {
    try await withDependencies(prepare) { try await body(categoryClient, linkClient) }
  }

  /// Adds links with these titles (at `https://example.com/<n>`), a minute apart, the last the
  /// newest; each in the category given, if any.
  @discardableResult
  func seedLinks(_ titles: [String], in categories: [Category.ID?] = []) async throws -> [Link] {
    try await seed { _, links in
      var added: [Link] = []
      for (index, title) in titles.enumerated() {
        let category = index < categories.count ? categories[index] : nil
        added.append(
          try await links.addLink(
            LinkDraft(title: title, url: "https://example.com/\(index)", categoryID: category)))
        self.advance(by: 60)
      }
      return added
    }
  }

  /// Reads a link back from storage.
  func stored(_ id: Link.ID) async throws -> Link {
    try await linkClient.fetchLink(id: id)
  }
}

/// The address `Fixture.seedLinks` gives its `index`th link (from 0).
func seededURL(_ index: Int) -> URL {
  guard let url = URL(string: "https://example.com/\(index)") else {
    preconditionFailure("bad test URL for link \(index)")
  }
  return url
}

/// When `Fixture.seedLinks` adds its `index`th link (from 0): a minute apart from the start.
func seededDate(_ index: Int) -> Date { Fixture.start.addingTimeInterval(60 * Double(index)) }

/// The id the counting `uuid` dependency gives the `number`th new model (from 0).
func id<Model>(_ number: UInt64) -> ModelID<Model> { ModelID(UUID(counting: number)) }

/// Counts the times a child alone dismissed itself (its `DismissEffect` in a test).
@MainActor
final class Dismissals {
  var count = 0
}
