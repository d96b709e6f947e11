import Foundation
import LinkClient
import Loop
import Persistence
import Synchronization
import TestSupport
import Testing

/// `addLinks` (a batch in one transaction) and `fetchLinksWithIDPrefix` (resolving short refs),
/// on both storages.
@Suite struct LinkClientBatchAndPrefixTests {
  /// Links with the ids `first`, then `second`, … given in order (the `uuid` dependency hands
  /// them out), titled by their position.
  func seed(_ harness: Harness, ids: [String]) async throws -> [Link] {
    let uuids = ids.compactMap(UUID.init(uuidString:))
    let next = Mutex(0)
    return try await withDependencies {
      $0.uuid = UUIDGenerator {
        next.withLock { index in
          defer { index += 1 }
          return uuids[index]
        }
      }
      $0.date = .constant(Harness.start)
    } operation: {
      try await harness.links.addLinks(
        ids.indices.map { LinkDraft(title: "Link \($0)", url: "https://example.com/\($0)") })
    }
  }

  static let ids = [
    "9F3A0000-0000-0000-0000-000000000001",
    "9F3B0000-0000-0000-0000-000000000002",
    "9F3A1234-0000-0000-0000-000000000003",
    "0A000000-0000-0000-0000-000000000004",
    "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF",
  ]

  @Test(arguments: ClientStorage.allCases)
  func addLinksStoresEveryDraftInOrder(_ kind: ClientStorage) async throws {
    let harness = try Harness(kind)
    let links = try await harness.run { client in
      try await client.addLinks([
        LinkDraft(title: " First ", url: "https://a.example"),
        LinkDraft(title: "Second", url: "https://b.example", memo: "two"),
      ])
    }
    #expect(
      links == [
        Link(
          id: linkID(0), title: "First", url: url("https://a.example"), createdAt: Harness.start),
        Link(
          id: linkID(1), title: "Second", url: url("https://b.example"), memo: "two",
          createdAt: Harness.start),
      ])
    #expect(try await harness.links.fetchLinks().map(\.id) == [linkID(1), linkID(0)])
  }

  @Test(arguments: ClientStorage.allCases)
  func addLinksStoresNothingWhenOneDraftFails(_ kind: ClientStorage) async throws {
    let harness = try Harness(kind)
    await #expect(throws: LinkError.invalidURL("nope")) {
      try await harness.run { client in
        try await client.addLinks([
          LinkDraft(title: "Good", url: "https://a.example"),
          LinkDraft(title: "Bad", url: "nope"),
        ])
      }
    }
    let missing = Category.ID(UUID(counting: 99))
    await #expect(throws: LinkError.categoryNotFound(missing)) {
      try await harness.run { client in
        try await client.addLinks([
          LinkDraft(title: "Good", url: "https://a.example"),
          LinkDraft(title: "Lost", url: "https://b.example", categoryID: missing),
        ])
      }
    }
    #expect(try await harness.links.fetchLinks() == [])
  }

  @Test(arguments: ClientStorage.allCases)
  func addLinksInACategory(_ kind: ClientStorage) async throws {
    let harness = try Harness(kind)
    let work = try harness.seedCategory(1, "Work")
    let links = try await harness.run { client in
      try await client.addLinks([
        LinkDraft(title: "A", url: "https://a.example", categoryID: work.id),
        LinkDraft(title: "B", url: "https://b.example", categoryID: work.id),
      ])
    }
    #expect(try await harness.links.fetchLinksInCategory(work.id) == links.reversed())
  }

  static let prefixes: [(String, [Int])] = [
    ("9f3a", [0, 2]),
    ("9F3A", [0, 2]),
    ("9f3a1", [2]),
    ("9f3a-1234", [2]),
    ("9f3", [0, 2, 1]),
    ("9", [0, 2, 1]),
    ("0a", [3]),
    ("ffffffffffffffffffffffffffffffff", [4]),
    ("f", [4]),
    ("1", []),
    ("9f3c", []),
    ("xyz", []),
    ("9f3a0000000000000000000000000000100", []),
  ]

  @Test(arguments: ClientStorage.allCases)
  func fetchLinksWithIDPrefixFindsTheRangeByID(_ kind: ClientStorage) async throws {
    let harness = try Harness(kind)
    let links = try await seed(harness, ids: Self.ids)
    for (prefix, expected) in Self.prefixes {
      let found = try await harness.links.fetchLinksWithIDPrefix(prefix, 10)
      #expect(found == expected.map { links[$0] }, "prefix '\(prefix)'")
    }
  }

  @Test(arguments: ClientStorage.allCases)
  func fetchLinksWithIDPrefixStopsAtTheLimit(_ kind: ClientStorage) async throws {
    let harness = try Harness(kind)
    let links = try await seed(harness, ids: Self.ids)
    #expect(try await harness.links.fetchLinksWithIDPrefix("9", 2) == [links[0], links[2]])
    #expect(try await harness.links.fetchLinksWithIDPrefix("9", 0) == [])
    #expect(try await harness.links.fetchLinksWithIDPrefix("", 10).count == 5)
  }

  @Test(arguments: ClientStorage.allCases)
  func fetchIDPrefixLengthOfAllIsOneWithoutTwoLinks(_ kind: ClientStorage) async throws {
    let harness = try Harness(kind)
    #expect(try await harness.links.fetchIDPrefixLengthOfAll() == 1)
    _ = try await seed(harness, ids: [Self.ids[0]])
    #expect(try await harness.links.fetchIDPrefixLengthOfAll() == 1)
  }

  @Test(arguments: ClientStorage.allCases)
  func fetchIDPrefixLengthOfAllIsTheLongestRefOfAnyLink(_ kind: ClientStorage) async throws {
    let harness = try Harness(kind)
    let links = try await seed(
      harness, ids: Self.ids + ["9F3A1234-5000-0000-0000-000000000006"])
    var longest = 1
    for link in links {
      longest = max(longest, try await harness.links.fetchIDPrefixLength(link.id))
    }
    #expect(longest == 9)
    #expect(try await harness.links.fetchIDPrefixLengthOfAll() == longest)
  }
}
