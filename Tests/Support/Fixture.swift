import CategoryClient
import Foundation
import LinkClient
import LoopTesting
import Synchronization

/// In-memory clients sharing one storage, and the dependencies every test store gets: ids that
/// count up (shared by seeding and the store, so they never collide), a date the test moves,
/// and a test clock.
public final class Fixture: Sendable {
  /// The category client.
  public let categoryClient: CategoryClient
  /// The link client, on the same storage.
  public let linkClient: LinkClient
  /// The store's `continuousClock`; only the test moves it.
  public let clock = TestClock()
  /// The ids, shared by seeding and the store.
  public let uuid = UUIDGenerator.incrementing
  private let now = Mutex(Fixture.start)

  /// The date of the first write.
  public static let start = Date(timeIntervalSinceReferenceDate: 1_000)

  /// Opens fresh in-memory clients.
  public init() {
    (categoryClient, linkClient) = CategoryClient.inMemoryWithLinkClient()
  }

  /// The current date of the fixture's `date` dependency.
  public var date: Date { now.withLock { $0 } }

  /// Moves the `date` dependency forward.
  public func advance(by seconds: TimeInterval) {
    now.withLock { $0 += seconds }
  }

  /// Sets the dependencies of a test store.
  public func prepare(_ dependencies: inout DependencyValues) {
    dependencies.categoryClient = categoryClient
    dependencies.linkClient = linkClient
    dependencies.uuid = uuid
    dependencies.date = DateGenerator { [self] in date }
    dependencies.continuousClock = clock
  }

  /// Writes through the clients before the story starts, with the same dependencies.
  @discardableResult
  public func seed<R>(_ body: @Sendable (CategoryClient, LinkClient) async throws -> R) async throws
    -> R
  {
    try await withDependencies(prepare) { try await body(categoryClient, linkClient) }
  }

  /// Adds links with these titles (at `https://example.com/<n>`), a minute apart, the last the
  /// newest; each in the category given, if any.
  @discardableResult
  public func seedLinks(_ titles: [String], in categories: [Category.ID?] = []) async throws
    -> [Link]
  {
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
  public func stored(_ id: Link.ID) async throws -> Link {
    try await linkClient.fetchLink(id)
  }
}

/// The address `Fixture.seedLinks` gives its `index`th link (from 0).
public func seededURL(_ index: Int) -> URL {
  guard let url = URL(string: "https://example.com/\(index)") else {
    preconditionFailure("bad test URL for link \(index)")
  }
  return url
}

/// When `Fixture.seedLinks` adds its `index`th link (from 0): a minute apart from the start.
public func seededDate(_ index: Int) -> Date {
  Fixture.start.addingTimeInterval(60 * Double(index))
}

/// Counts the times a child alone dismissed itself (its `DismissEffect` in a test).
@MainActor
public final class Dismissals {
  /// How many times.
  public var count = 0

  /// Starts at zero.
  public init() {}
}
