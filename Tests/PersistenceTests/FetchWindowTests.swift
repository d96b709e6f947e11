import Foundation
import Persistence
import TestSupport
import Testing

/// Fetch windows (`fetchLimit`, `fetchOffset`) at the edges: every non-negative window answers
/// with what fits, on both backends, whichever way the predicate and the sort are answered.
@Suite struct FetchWindowTests {
  /// A window, and the ids it selects from five rows.
  struct Window: Sendable, CustomTestStringConvertible {
    var limit: Int?
    var offset: Int?
    var expected: [Int]

    var testDescription: String {
      "limit \(limit.map { "\($0)" } ?? "nil"), offset \(offset.map { "\($0)" } ?? "nil")"
    }
  }

  static let windows = [
    Window(limit: .max, offset: 2, expected: [3, 4, 5]),
    Window(limit: .max, offset: nil, expected: [1, 2, 3, 4, 5]),
    Window(limit: .max - 1, offset: 3, expected: [4, 5]),
    Window(limit: 1, offset: .max, expected: []),
    Window(limit: .max, offset: .max, expected: []),
    Window(limit: nil, offset: .max, expected: []),
    Window(limit: 0, offset: .max, expected: []),
  ]

  @Test(arguments: Backend.allCases, windows)
  func aWindowNearIntMaxAnswersWhatFits(_ backend: Backend, _ window: Window) throws {
    let store = try Store(backend)
    for id in 1...5 { try store.context.insert(Item(id: id, title: "t", note: "n", count: id)) }
    // The same five matches (all the rows, ids 1 to 5 in that order) asked for in every way a
    // backend answers a fetch: no predicate, a translated one, one partly evaluated in Swift,
    // one that may throw; sorted in SQL, in Swift, or not at all.
    let queries: [(predicate: Predicate<Item>?, sortBy: [SortDescriptor<Item>])] = [
      (nil, []),
      (nil, [SortDescriptor(\.count)]),
      (#Predicate { $0.count <= 5 }, [SortDescriptor(\.count)]),
      (#Predicate { $0.count <= 5 }, []),
      (#Predicate { $0.title.count == 1 }, [SortDescriptor(\.count)]),
      (#Predicate { $0.title.count == 1 }, [SortDescriptor(\.title.count)]),
      (#Predicate { $0.note! == "n" }, [SortDescriptor(\.count)]),
    ]
    for (index, query) in queries.enumerated() {
      var descriptor = FetchDescriptor<Item>(predicate: query.predicate, sortBy: query.sortBy)
      descriptor.fetchLimit = window.limit
      descriptor.fetchOffset = window.offset
      #expect(try store.context.fetch(descriptor).map(\.id) == window.expected, "query \(index)")
      #expect(try store.context.fetchCount(descriptor) == window.expected.count, "query \(index)")
    }
  }
}
