import Foundation
import Persistence
import TestSupport
import Testing

private struct Abort: Error, Equatable {}

@Suite struct TransactionTests {
  @Test(arguments: Backend.allCases)
  func commitsEveryWrite(_ backend: Backend) throws {
    let store = try Store(backend)
    let count = try store.context.transaction { context in
      try context.insert(Item(id: 1, title: "a"))
      try context.insert(Item(id: 2, title: "b"))
      try context.update(Item(id: 1, title: "A"))
      return try context.fetchCount(FetchDescriptor<Item>())
    }
    #expect(count == 2)
    #expect(try store.context.fetchAll(Item.self).map(\.title) == ["A", "b"])
  }

  @Test(arguments: Backend.allCases)
  func rollsBackEveryWriteWhenTheBodyThrows(_ backend: Backend) throws {
    let store = try Store(backend)
    try store.context.insert(Item(id: 1, title: "kept"))
    #expect(throws: Abort()) {
      try store.context.transaction { context in
        try context.insert(Item(id: 2, title: "b"))
        try context.update(Item(id: 1, title: "changed"))
        try context.delete(Item.self, id: 1)
        throw Abort()
      }
    }
    #expect(try store.context.fetchAll(Item.self) == [Item(id: 1, title: "kept")])
  }

  @Test(arguments: Backend.allCases)
  func aFailedWriteInsideATransactionCanBeCaught(_ backend: Backend) throws {
    let store = try Store(backend)
    try store.context.transaction { context in
      try context.insert(Item(id: 1, title: "a"))
      #expect(throws: PersistenceError.duplicateID(model: "Item", id: "1")) {
        try context.insert(Item(id: 1, title: "again"))
      }
      try context.insert(Item(id: 2, title: "b"))
    }
    #expect(try store.context.fetchAll(Item.self).map(\.title) == ["a", "b"])
  }

  @Test(arguments: Backend.allCases)
  func aCaughtNestedFailureRollsBackOnlyTheNestedWrites(_ backend: Backend) throws {
    let store = try Store(backend)
    try store.context.transaction { context in
      try context.insert(Item(id: 1, title: "outer"))
      #expect(throws: Abort()) {
        try context.transaction { nested in
          try nested.insert(Item(id: 2, title: "nested"))
          try nested.update(Item(id: 1, title: "changed by nested"))
          throw Abort()
        }
      }
      try context.insert(Item(id: 3, title: "after"))
    }
    #expect(try store.context.fetchAll(Item.self).map(\.title) == ["outer", "after"])
  }

  @Test(arguments: Backend.allCases)
  func anOuterFailureRollsBackCommittedNestedWrites(_ backend: Backend) throws {
    let store = try Store(backend)
    #expect(throws: Abort()) {
      try store.context.transaction { context in
        try context.transaction { nested in
          try nested.insert(Item(id: 1, title: "nested"))
        }
        throw Abort()
      }
    }
    #expect(try store.context.fetchAll(Item.self) == [])
  }

  @Test(arguments: Backend.allCases)
  func aRolledBackTransactionLeavesIDsAndUniqueValuesAsTheyWere(_ backend: Backend) throws {
    let store = try Store(backend, Link.self)
    let (x, y, z) = (
      URL(string: "https://x.example")!, URL(string: "https://y.example")!,
      URL(string: "https://z.example")!
    )
    let kept = Link(id: UUID(), title: "kept", url: x, lastViewedDate: date(1))
    let added = Link(id: UUID(), title: "added", url: y, lastViewedDate: date(2))
    try store.context.insert(kept)
    #expect(throws: Abort()) {
      try store.context.transaction { context in
        try context.insert(added)
        try context.update(Link(id: kept.id, title: "moved", url: z, lastViewedDate: nil))
        // `x` is free now, inside the transaction.
        try context.insert(Link(id: UUID(), title: "takes x", url: x, lastViewedDate: nil))
        #expect(try context.delete(Link.self, where: #Predicate { $0.title == "added" }) == 1)
        throw Abort()
      }
    }
    #expect(try store.context.fetchAll(Link.self) == [kept])
    #expect(
      throws: PersistenceError.uniqueViolation(model: "Link", columns: ["url"], id: "\(added.id)")
    ) {
      try store.context.insert(Link(id: added.id, title: "again", url: x, lastViewedDate: nil))
    }
    try store.context.insert(added)
    try store.context.insert(Link(id: UUID(), title: "z is free", url: z, lastViewedDate: nil))
    #expect(try store.context.fetchAll(Link.self).map(\.title) == ["kept", "added", "z is free"])
  }

  @Test(arguments: Backend.allCases)
  func theSameContextInsideTheBodyJoinsTheTransaction(_ backend: Backend) throws {
    let store = try Store(backend)
    let outer = store.context
    #expect(throws: Abort()) {
      try outer.transaction { _ in
        try outer.insert(Item(id: 1, title: "a"))
        try ModelContext(store.container).insert(Item(id: 2, title: "b"))
        throw Abort()
      }
    }
    #expect(try outer.fetchAll(Item.self) == [])
  }

  @Test(arguments: Backend.allCases)
  func aRolledBackTransactionReturnsWhatItsBodyReturnedAndKeepsNoWrite(_ backend: Backend) throws {
    let store = try Store(backend)
    try store.context.insert(Item(id: 1, title: "kept"))
    let count = try store.context.transaction(rollingBack: true) { context in
      try context.insert(Item(id: 2, title: "b"))
      try context.update(Item(id: 1, title: "changed"))
      return try context.fetchCount(FetchDescriptor<Item>())
    }
    #expect(count == 2)
    #expect(try store.context.fetchAll(Item.self) == [Item(id: 1, title: "kept")])
  }

  @Test(arguments: Backend.allCases)
  func aTransactionNotRollingBackCommitsItsWrites(_ backend: Backend) throws {
    let store = try Store(backend)
    let title = try store.context.transaction(rollingBack: false) { context in
      try context.insert(Item(id: 1, title: "a"))
      return "a"
    }
    #expect(title == "a")
    #expect(try store.context.fetchAll(Item.self).map(\.title) == ["a"])
  }

  @Test(arguments: Backend.allCases)
  func aRolledBackTransactionRethrowsWhatItsBodyThrows(_ backend: Backend) throws {
    let store = try Store(backend)
    #expect(throws: Abort()) {
      try store.context.transaction(rollingBack: true) { context in
        try context.insert(Item(id: 1, title: "a"))
        throw Abort()
      }
    }
    #expect(try store.context.fetchAll(Item.self) == [])
  }

  @Test(arguments: Backend.allCases)
  func aNestedRolledBackTransactionUndoesOnlyItsOwnWrites(_ backend: Backend) throws {
    let store = try Store(backend)
    try store.context.transaction { context in
      try context.insert(Item(id: 1, title: "outer"))
      let seen = try context.transaction(rollingBack: true) { nested in
        try nested.insert(Item(id: 2, title: "nested"))
        return try nested.fetchAll(Item.self).map(\.title)
      }
      #expect(seen == ["outer", "nested"])
    }
    #expect(try store.context.fetchAll(Item.self).map(\.title) == ["outer"])
  }
}
