import Foundation
import Persistence
import TestSupport
import Testing

/// The same sorted read asked for again and again, between writes: the in-memory backend keeps
/// the order it sorted until the next write, and must never answer from a stale one.
@Suite struct RepeatedReadTests {
  /// The first `limit` items by `dueDate` descending (nil last), then by insertion, skipping
  /// `offset`, among those with `count` above `minimum`: what every read below must return.
  static func expected(_ items: [Item], minimum: Int, offset: Int, limit: Int) -> [Int] {
    let kept = items.enumerated().filter { $0.element.count > minimum }
    let sorted = kept.sorted { left, right in
      switch (left.element.dueDate, right.element.dueDate) {
      case (let l?, let r?) where l != r: return l > r
      case (.some, nil): return true
      case (nil, .some): return false
      default: return left.offset < right.offset
      }
    }
    return sorted.dropFirst(offset).prefix(limit).map(\.element.id)
  }

  /// `count` items whose uuids, counts and due dates repeat often, so bounded reads meet ties.
  static func makeItems(_ generator: inout Generator, count: Int) -> [Item] {
    let dates = (0..<6).map { date(Double($0) * 100) }
    return (0..<count).map { id in
      var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
      withUnsafeMutableBytes(of: &bytes) { buffer in
        for offset in buffer.indices { buffer[offset] = UInt8(generator.int(0...3) * 60) }
      }
      return Item(
        id: id, title: "item \(id)", count: generator.int(-3...6),
        dueDate: generator.chance(40) ? nil : generator.pick(dates), uuid: UUID(uuid: bytes))
    }
  }

  /// The answer in Swift: the items (in insertion order) that `Predicate.evaluate` accepts,
  /// sorted by `SortDescriptor.compare` with ties in insertion order, then the range.
  static func reference(_ descriptor: FetchDescriptor<Item>, over items: [Item]) throws -> [Item] {
    let matching = try items.filter { try descriptor.predicate?.evaluate($0) ?? true }
    let sorted = matching.enumerated().sorted { left, right in
      for sort in descriptor.sortBy {
        switch sort.compare(left.element, right.element) {
        case .orderedAscending: return true
        case .orderedDescending: return false
        case .orderedSame: continue
        }
      }
      return left.offset < right.offset
    }
    let start = min(descriptor.fetchOffset ?? 0, sorted.count)
    let end = descriptor.fetchLimit.map { min(sorted.count, start + $0) } ?? sorted.count
    return sorted[start..<end].map(\.element)
  }

  func read(_ context: ModelContext, minimum: Int, offset: Int, limit: Int) throws -> [Int] {
    var descriptor = FetchDescriptor<Item>(
      predicate: #Predicate { $0.count > minimum },
      sortBy: [SortDescriptor(\.dueDate, order: .reverse)])
    descriptor.fetchOffset = offset
    descriptor.fetchLimit = limit
    return try context.fetch(descriptor).map(\.id)
  }

  @Test(arguments: Backend.allCases)
  func aRepeatedSortedReadFollowsEveryWrite(_ backend: Backend) throws {
    let store = try Store(backend)
    var items = (0..<40).map { index in
      Item(
        id: index, title: "item \(index)", count: index % 7,
        dueDate: index % 5 == 0 ? nil : date(Double((index * 13) % 17)))
    }
    for item in items { try store.context.insert(item) }

    func readThrice(_ step: String) throws {
      let expected = Self.expected(items, minimum: 2, offset: 3, limit: 6)
      for attempt in 1...3 {
        #expect(
          try read(store.context, minimum: 2, offset: 3, limit: 6) == expected,
          "\(step), read \(attempt)")
      }
      #expect(
        try store.context.fetchAll(Item.self, sortBy: [SortDescriptor(\.dueDate, order: .reverse)])
          .map(\.id) == Self.expected(items, minimum: -1, offset: 0, limit: items.count),
        "\(step): every item")
    }
    try readThrice("after inserting")

    let newest = Item(id: 100, title: "newest", count: 6, dueDate: date(99))
    try store.context.insert(newest)
    items.append(newest)
    try readThrice("after an insert")

    items[4].dueDate = date(50)
    try store.context.update(items[4])
    try readThrice("after an update")

    let removed = items.remove(at: 10)
    try store.context.delete(Item.self, id: removed.id)
    try readThrice("after a delete")

    struct Abort: Error {}
    _ = try? store.context.transaction { context in
      try context.insert(Item(id: 200, title: "rolled back", count: 6, dueDate: date(98)))
      _ = try read(context, minimum: 2, offset: 0, limit: 1)
      _ = try read(context, minimum: 2, offset: 0, limit: 1)
      throw Abort()
    }
    try readThrice("after a rolled-back insert")
  }

  /// Reads bounded on their first sort column (as a link's ref and the recent links are read),
  /// each asked for twice, between inserts of a few rows and of many: the in-memory backend
  /// keeps its sorted orders through inserts and reads only the slice the bound allows, and
  /// answers as the stored backend does (the SQLite file, PostgreSQL).
  @Test(arguments: Backend.persistent)
  func boundedSortedReadsAgreeWithAStoredBackendAsInsertsGrowTheTable(_ backend: Backend) throws {
    var generator = Generator(state: 31)
    let items = Self.makeItems(&generator, count: 300)
    let memory = try Store(.inMemory)
    let stored = try Store(backend)
    var inserted = 0
    for round in 0..<60 {
      // NB: every tenth round inserts more than 32 rows, which are merged into a kept order
      // rather than put in one by one.
      let added = items[inserted..<min(items.count, inserted + (round % 10 == 9 ? 40 : round % 4))]
      for item in added {
        try memory.context.insert(item)
        try stored.context.insert(item)
      }
      inserted += added.count
      let first = UInt8(generator.int(0...3) * 60)
      let lower = UUID(uuid: (first, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
      let upper = UUID(
        uuid: (first, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255))
      let minimum = generator.int(-3...6)
      var byUUID = FetchDescriptor<Item>(
        predicate: #Predicate { $0.uuid >= lower && $0.uuid <= upper },
        sortBy: [SortDescriptor(\.uuid)])
      byUUID.fetchLimit = 10
      var recent = FetchDescriptor<Item>(
        predicate: #Predicate { $0.dueDate != nil },
        sortBy: [SortDescriptor(\.dueDate, order: .reverse), SortDescriptor(\.id, order: .reverse)])
      recent.fetchLimit = 6
      let byCount = FetchDescriptor<Item>(
        predicate: #Predicate { $0.count > minimum && $0.count <= 5 },
        sortBy: [SortDescriptor(\.count, order: .reverse)])
      let rows = try stored.context.fetchAll(Item.self)
      for (name, descriptor) in [("uuid", byUUID), ("recent", recent), ("count", byCount)] {
        let expected = try Self.reference(descriptor, over: rows).map(\.id)
        #expect(
          try stored.context.fetch(descriptor).map(\.id) == expected, "round \(round), \(name)")
        for attempt in 1...2 {
          #expect(
            try memory.context.fetch(descriptor).map(\.id) == expected,
            "round \(round), \(name), read \(attempt)")
        }
      }
    }
  }
}
