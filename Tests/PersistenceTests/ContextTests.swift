import Foundation
import Persistence
import TestSupport
import Testing

@Suite struct ContextTests {
  @Test(arguments: Backend.allCases)
  func insertThenFetchReturnsTheModel(_ backend: Backend) throws {
    let store = try Store(backend)
    let item = Item(
      id: 1, title: "Äpfel", note: "n", count: 3, score: 1.5, isDone: true, flag: false,
      date: date(10.25), dueDate: date(20), kind: .video,
      uuid: UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F") ?? UUID(),
      link: url("https://example.com/a?b=c"), data: Data([1, 2, 3]), big: .max)
    try store.context.insert(item)
    #expect(try store.context.fetchAll(Item.self) == [item])
    #expect(try store.context.fetch(Item.self, id: 1) == item)
    #expect(try store.context.fetch(Item.self, id: 2) == nil)
  }

  @Test(arguments: Backend.allCases)
  func extremeValuesRoundTrip(_ backend: Backend) throws {
    let store = try Store(backend)
    let item = Item(
      id: .min, title: "", note: "", count: .max, score: -.infinity, isDone: false, flag: true,
      date: date(-1e12), dueDate: date(.greatestFiniteMagnitude), kind: .note, link: nil,
      data: Data(), big: .min)
    try store.context.insert(item)
    #expect(try store.context.fetch(Item.self, id: .min) == item)
  }

  @Test(arguments: Backend.allCases)
  func insertingAnExistingIDFailsAndChangesNothing(_ backend: Backend) throws {
    let store = try Store(backend)
    let original = Item(id: 1, title: "original")
    try store.context.insert(original)
    #expect(throws: PersistenceError.duplicateID(model: "Item", id: "1")) {
      try store.context.insert(Item(id: 1, title: "other"))
    }
    #expect(try store.context.fetchAll(Item.self) == [original])
  }

  @Test(arguments: Backend.allCases)
  func updatingAMissingIDFailsAndChangesNothing(_ backend: Backend) throws {
    let store = try Store(backend)
    let original = Item(id: 1, title: "original")
    try store.context.insert(original)
    #expect(throws: PersistenceError.notFound(model: "Item", id: "2")) {
      try store.context.update(Item(id: 2, title: "other"))
    }
    #expect(try store.context.fetchAll(Item.self) == [original])
  }

  @Test(arguments: Backend.allCases)
  func updateReplacesTheModelAndKeepsItsPlace(_ backend: Backend) throws {
    let store = try Store(backend)
    for id in 1...3 { try store.context.insert(Item(id: id, title: "\(id)")) }
    try store.context.update(Item(id: 1, title: "one", count: 9))
    #expect(try store.context.fetchAll(Item.self).map(\.title) == ["one", "2", "3"])
    #expect(try store.context.fetch(Item.self, id: 1)?.count == 9)
  }

  @Test(arguments: Backend.allCases)
  func deleteRemovesTheModel(_ backend: Backend) throws {
    let store = try Store(backend)
    let item = Item(id: 1, title: "a")
    try store.context.insert(item)
    try store.context.insert(Item(id: 2, title: "b"))
    try store.context.delete(item)
    #expect(try store.context.fetchAll(Item.self).map(\.id) == [2])
  }

  @Test(arguments: Backend.allCases)
  func deletingAMissingIDFailsAndChangesNothing(_ backend: Backend) throws {
    let store = try Store(backend)
    try store.context.insert(Item(id: 1, title: "a"))
    #expect(throws: PersistenceError.notFound(model: "Item", id: "7")) {
      try store.context.delete(Item.self, id: 7)
    }
    #expect(try store.context.fetchCount(FetchDescriptor<Item>()) == 1)
  }

  @Test(arguments: Backend.allCases)
  func deleteWhereReturnsTheCount(_ backend: Backend) throws {
    let store = try Store(backend)
    for id in 1...6 { try store.context.insert(Item(id: id, title: "t\(id)", count: id)) }
    #expect(try store.context.delete(Item.self, where: #Predicate { $0.count > 4 }) == 2)
    // Partly evaluated in Swift:
    #expect(try store.context.delete(Item.self, where: #Predicate { $0.count * 2 == 4 }) == 1)
    #expect(try store.context.delete(Item.self, where: #Predicate { $0.count > 100 }) == 0)
    #expect(try store.context.fetchAll(Item.self).map(\.id) == [1, 3, 4])
  }

  @Test(arguments: Backend.allCases)
  func defaultOrderIsInsertionOrder(_ backend: Backend) throws {
    let store = try Store(backend)
    for id in [3, 1, 2] { try store.context.insert(Item(id: id, title: "t")) }
    try store.context.delete(Item.self, id: 2)
    try store.context.insert(Item(id: 0, title: "t"))
    try store.context.update(Item(id: 3, title: "changed"))
    #expect(try store.context.fetchAll(Item.self).map(\.id) == [3, 1, 0])
  }

  @Test(arguments: Backend.allCases)
  func sortTiesKeepInsertionOrder(_ backend: Backend) throws {
    let store = try Store(backend)
    for (id, count) in [(1, 2), (2, 1), (3, 2), (4, 1), (5, 2)] {
      try store.context.insert(Item(id: id, title: "t", count: count))
    }
    #expect(
      try store.context.fetchAll(Item.self, sortBy: [SortDescriptor(\.count)]).map(\.id)
        == [2, 4, 1, 3, 5])
    #expect(
      try store.context.fetchAll(Item.self, sortBy: [SortDescriptor(\.count, order: .reverse)])
        .map(\.id) == [1, 3, 5, 2, 4])
  }

  @Test(arguments: Backend.allCases)
  func nilSortsFirstForwardAndLastInReverse(_ backend: Backend) throws {
    let store = try Store(backend)
    try store.context.insert(Item(id: 1, title: "t", dueDate: date(5)))
    try store.context.insert(Item(id: 2, title: "t", dueDate: nil))
    try store.context.insert(Item(id: 3, title: "t", dueDate: date(1)))
    #expect(
      try store.context.fetchAll(Item.self, sortBy: [SortDescriptor(\.dueDate)]).map(\.id)
        == [2, 3, 1])
    #expect(
      try store.context.fetchAll(Item.self, sortBy: [SortDescriptor(\.dueDate, order: .reverse)])
        .map(\.id) == [1, 3, 2])
  }

  @Test(arguments: Backend.allCases)
  func sortsByTwoKeysAndByFoldedText(_ backend: Backend) throws {
    let store = try Store(backend)
    for (id, title, count) in [(1, "b", 1), (2, "B", 2), (3, "a", 2), (4, "A", 1)] {
      try store.context.insert(Item(id: id, title: title, count: count))
    }
    #expect(
      try store.context.fetchAll(
        Item.self, sortBy: [SortDescriptor(\.count), SortDescriptor(\.title, order: .reverse)]
      ).map(\.id) == [1, 4, 3, 2])
    #expect(
      try store.context.fetchAll(Item.self, sortBy: [SortDescriptor(\.title.caseFolded)])
        .map(\.id) == [3, 4, 1, 2])
  }

  @Test(arguments: Backend.allCases)
  func sortsSQLCannotDoAreDoneInSwift(_ backend: Backend) throws {
    let store = try Store(backend)
    for (id, title) in [(1, "ccc"), (2, "a"), (3, "bb")] {
      try store.context.insert(Item(id: id, title: title))
    }
    #expect(
      try store.context.fetchAll(Item.self, sortBy: [SortDescriptor(\.title.count)], limit: 2)
        .map(\.id) == [2, 3])
  }

  @Test(arguments: Backend.allCases)
  func limitAndOffset(_ backend: Backend) throws {
    let store = try Store(backend)
    for id in 1...10 { try store.context.insert(Item(id: id, title: "t", count: id)) }
    var descriptor = FetchDescriptor<Item>(
      predicate: #Predicate { $0.count > 2 }, sortBy: [SortDescriptor(\.count, order: .reverse)])
    descriptor.fetchLimit = 3
    descriptor.fetchOffset = 2
    #expect(try store.context.fetch(descriptor).map(\.id) == [8, 7, 6])
    #expect(try store.context.fetchCount(descriptor) == 3)
    descriptor.fetchOffset = 6
    #expect(try store.context.fetch(descriptor).map(\.id) == [4, 3])
    #expect(try store.context.fetchCount(descriptor) == 2)
    descriptor.fetchLimit = 0
    #expect(try store.context.fetch(descriptor) == [])
  }

  @Test(arguments: Backend.allCases)
  func negativeLimitIsRejected(_ backend: Backend) throws {
    let store = try Store(backend)
    #expect(
      throws: PersistenceError.invalidFetch(model: "Item", reason: "fetchLimit is -1, below 0")
    ) {
      try store.context.fetchAll(Item.self, limit: -1)
    }
    var descriptor = FetchDescriptor<Item>()
    descriptor.fetchOffset = -2
    #expect(
      throws: PersistenceError.invalidFetch(model: "Item", reason: "fetchOffset is -2, below 0")
    ) {
      try store.context.fetchCount(descriptor)
    }
  }

  @Test(arguments: Backend.allCases)
  func fetchCountCountsMatches(_ backend: Backend) throws {
    let store = try Store(backend)
    for id in 1...5 { try store.context.insert(Item(id: id, title: "t\(id)", count: id)) }
    #expect(
      try store.context.fetchCount(FetchDescriptor(predicate: #Predicate<Item> { $0.count >= 2 }))
        == 4)
    #expect(
      try store.context.fetchCount(
        FetchDescriptor(predicate: #Predicate<Item> { $0.title.count > 2 }))
        == 0)
  }

  @Test(arguments: Backend.allCases)
  func fetchOneReturnsTheFirstMatch(_ backend: Backend) throws {
    let store = try Store(backend)
    for id in [5, 3, 4] { try store.context.insert(Item(id: id, title: "t", count: id)) }
    #expect(try store.context.fetchOne(Item.self, predicate: #Predicate { $0.count < 5 })?.id == 3)
    #expect(
      try store.context.fetchOne(
        Item.self, predicate: #Predicate { $0.count < 5 }, sortBy: [SortDescriptor(\.count)])?.id
        == 3)
    #expect(try store.context.fetchOne(Item.self, sortBy: [SortDescriptor(\.count)])?.id == 3)
    #expect(try store.context.fetchOne(Item.self, predicate: #Predicate { $0.count > 9 }) == nil)
  }

  @Test(arguments: Backend.allCases)
  func fetchAllTakesEveryParameterOptionally(_ backend: Backend) throws {
    let store = try Store(backend)
    for id in 1...4 { try store.context.insert(Item(id: id, title: "t", count: id % 2)) }
    let context = store.context
    #expect(try context.fetchAll(Item.self).map(\.id) == [1, 2, 3, 4])
    #expect(try context.fetchAll(Item.self, limit: 2).map(\.id) == [1, 2])
    #expect(
      try context.fetchAll(Item.self, sortBy: [SortDescriptor(\.count)]).map(\.id) == [2, 4, 1, 3])
    #expect(
      try context.fetchAll(Item.self, predicate: #Predicate { $0.count == 1 }).map(\.id) == [1, 3])
    #expect(
      try context.fetchAll(
        Item.self, predicate: #Predicate { $0.id > 1 }, sortBy: [SortDescriptor(\.count)], limit: 2
      ).map(\.id) == [2, 4])
  }

  @Test(arguments: Backend.allCases)
  func uniqueIndexRejectsASecondModelWithTheSameValue(_ backend: Backend) throws {
    let store = try Store(backend, Link.self)
    let first = Link(id: UUID(), title: "a", url: url("https://a.example"), lastViewedDate: nil)
    let second = Link(id: UUID(), title: "b", url: url("https://b.example"), lastViewedDate: nil)
    try store.context.insert(first)
    try store.context.insert(second)
    var clash = second
    clash.id = UUID()
    #expect(
      throws: PersistenceError.uniqueViolation(
        model: "Link", columns: ["url"], id: clash.id.uuidString)
    ) {
      try store.context.insert(clash)
    }
    var moved = second
    moved.url = first.url
    #expect(
      throws: PersistenceError.uniqueViolation(
        model: "Link", columns: ["url"], id: second.id.uuidString)
    ) {
      try store.context.update(moved)
    }
    #expect(try store.context.fetchAll(Link.self) == [first, second])
  }

  @Test(arguments: Backend.allCases)
  func stringIDsMatchCanonicallyEquivalentText(_ backend: Backend) throws {
    let store = try Store(backend, Tag.self)
    try store.context.insert(Tag(id: "cafe\u{301}", color: "red"))
    #expect(try store.context.fetch(Tag.self, id: "caf\u{E9}")?.color == "red")
    #expect(throws: PersistenceError.duplicateID(model: "Tag", id: "caf\u{E9}")) {
      try store.context.insert(Tag(id: "caf\u{E9}", color: "blue"))
    }
  }

  /// Two spellings of one text that differ in the order of combining marks added to Unicode
  /// lately (U+1AD2 and U+20EF): Swift holds them equal and sorts them alike, so storage does
  /// (found by the differential tests).
  @Test(arguments: Backend.allCases)
  func recentCombiningMarksAreStoredInTheOrderSwiftComparesIn(_ backend: Backend) throws {
    let store = try Store(backend)
    let spelled = "x\u{1AD2}\u{20EF}_"
    let respelled = "x\u{20EF}\u{1AD2}_"
    #expect(spelled == respelled)
    try store.context.insert(Item(id: 1, title: spelled))
    try store.context.insert(Item(id: 2, title: "x\u{20EF}\u{1AD2}1"))
    #expect(
      try store.context.fetchAll(Item.self, predicate: #Predicate { $0.title == respelled })
        .map(\.id) == [1])
    let ordered = try store.context.fetchAll(
      Item.self, sortBy: [SortDescriptor(\.title.caseFolded)])
    #expect(ordered.map(\.id) == [2, 1])
  }

  @Test(arguments: Backend.allCases)
  func unregisteredModelIsReported(_ backend: Backend) throws {
    let store = try Store(backend, Item.self)
    #expect(throws: PersistenceError.unregisteredModel("Tag")) {
      try store.context.insert(Tag(id: "x", color: "red"))
    }
  }

  @Test(arguments: Backend.allCases)
  func nanCannotBeStored(_ backend: Backend) throws {
    let store = try Store(backend)
    #expect(throws: PersistenceError.invalidValue(model: "Item", column: "score", value: "nan")) {
      try store.context.insert(Item(id: 1, title: "t", score: .nan))
    }
    #expect(try store.context.fetchAll(Item.self) == [])
  }

  @Test(arguments: Backend.allCases)
  func contextsAreUsableFromConcurrentTasks(_ backend: Backend) async throws {
    let store = try Store(backend)
    let context = store.context
    try await withThrowingTaskGroup(of: Void.self) { group in
      for task in 0..<8 {
        group.addTask {
          for offset in 0..<25 {
            try context.insert(Item(id: task * 100 + offset, title: "t"))
            _ = try context.fetchCount(FetchDescriptor<Item>())
          }
        }
      }
      try await group.waitForAll()
    }
    #expect(try context.fetchCount(FetchDescriptor<Item>()) == 200)
  }
}
