import Foundation
import Loop
import Testing

/// `IDSetVersion`: the stamp of an identified array's set of ids, and how it came from the one
/// before.
@Suite struct IDSetVersionTests {
  private struct Item: Identifiable, Equatable, Hashable {
    let id: Int
    var title = ""
  }

  /// The id the array's last change inserted, or `nil`.
  private func inserted(_ version: IDSetVersion<Int>) -> Int? {
    if case .inserted(let id) = version.change { return id }
    return nil
  }

  /// The id the array's last change removed, or `nil`.
  private func removed(_ version: IDSetVersion<Int>) -> Int? {
    if case .removed(let id) = version.change { return id }
    return nil
  }

  /// Expects `items` stamped afresh from `previous` by one change, which `change` reads as `id`;
  /// then makes the stamp the next step's `previous`.
  private func expectOneIDChanged(
    _ items: IdentifiedArrayOf<Item>, from previous: inout UInt64,
    _ change: (IDSetVersion<Int>) -> Int?, _ id: Int, _ comment: Comment,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(items.idSet.stamp != previous, comment, sourceLocation: sourceLocation)
    #expect(items.idSet.parent == previous, comment, sourceLocation: sourceLocation)
    #expect(change(items.idSet) == id, comment, sourceLocation: sourceLocation)
    previous = items.idSet.stamp
  }

  // Each thread takes stamps a block at a time: four threads, each through several blocks, may
  // never give one stamp twice.
  @Test func stampsMadeOnManyThreadsAtOnceAreAllDifferent() {
    let perThread = 10_000
    let stamps = LockIsolated<[UInt64]>([])
    DispatchQueue.concurrentPerform(iterations: 4) { _ in
      var items = IdentifiedArrayOf<Item>()
      var made: [UInt64] = []
      made.reserveCapacity(perThread)
      for id in 0..<perThread {
        items.append(Item(id: id))
        made.append(items.idSet.stamp)
      }
      stamps.withValue { [made] in $0 += made }
    }
    #expect(stamps.value.count == 4 * perThread)
    #expect(Set(stamps.value).count == 4 * perThread)
    #expect(!stamps.value.contains(0))
  }

  @Test func aCopyAndChangesThatKeepTheIDsKeepTheStamp() {
    var items: IdentifiedArrayOf<Item> = [Item(id: 2), Item(id: 1), Item(id: 3)]
    let stamp = items.idSet.stamp
    let copy = items
    #expect(copy.idSet.stamp == stamp)
    items[id: 1]?.title = "changed"
    items.updateOrAppend(Item(id: 2, title: "replaced"))
    items.sort { $0.id < $1.id }
    items.swapAt(0, 2)
    items.move(fromOffsets: [0], toOffset: 3)
    items[0].title = "by position"
    #expect(items.idSet.stamp == stamp)
  }

  @Test func addingOneIDStampsAfreshWithThePreviousStampAndTheID() {
    var items: IdentifiedArrayOf<Item> = [Item(id: 1)]
    var previous = items.idSet.stamp
    items.append(Item(id: 2))
    expectOneIDChanged(items, from: &previous, inserted, 2, "append")
    items.insert(Item(id: 3), at: 0)
    expectOneIDChanged(items, from: &previous, inserted, 3, "insert")
    items[id: 4] = Item(id: 4)
    expectOneIDChanged(items, from: &previous, inserted, 4, "set by a new id")
    items.updateOrAppend(Item(id: 5))
    expectOneIDChanged(items, from: &previous, inserted, 5, "update or append a new id")
    items.append(Item(id: 5))
    #expect(items.idSet.stamp == previous, "a rejected append changes nothing")
  }

  @Test func removingOneIDStampsAfreshWithThePreviousStampAndTheID() {
    var items: IdentifiedArrayOf<Item> = [Item(id: 1), Item(id: 2), Item(id: 3)]
    var previous = items.idSet.stamp
    items.remove(id: 2)
    expectOneIDChanged(items, from: &previous, removed, 2, "remove by id")
    items.remove(at: 0)
    expectOneIDChanged(items, from: &previous, removed, 1, "remove at a position")
    items[id: 3] = nil
    expectOneIDChanged(items, from: &previous, removed, 3, "set nil")
  }

  @Test func anyOtherChangeOfTheIDsStampsAfreshWithNoPrevious() {
    let start: IdentifiedArrayOf<Item> = [Item(id: 1), Item(id: 2), Item(id: 3), Item(id: 4)]
    let changes: [(String, (inout IdentifiedArrayOf<Item>) -> Void)] = [
      ("removeAll()", { $0.removeAll() }),
      ("removeAll(where:)", { $0.removeAll { $0.id.isMultiple(of: 2) } }),
      ("removeFirst(_:)", { $0.removeFirst(2) }),
      ("remove(atOffsets:)", { $0.remove(atOffsets: [0, 3]) }),
      ("another id by position", { $0[1] = Item(id: 9) }),
      ("another id through modify(id:)", { $0.modify(id: 2) { $0 = Item(id: 9) } }),
      (
        "another id through the contiguous storage",
        { _ = $0.withContiguousMutableStorageIfAvailable { $0[0] = Item(id: 9) } }
      ),
    ]
    for (name, change) in changes {
      var items = start
      change(&items)
      #expect(items.idSet.stamp != start.idSet.stamp, "\(name)")
      #expect(items.idSet.parent == 0, "\(name)")
      #expect(items.idSet.change == nil, "\(name)")
    }
  }

  @Test func twoCopiesChangedApartGetDifferentStamps() {
    let start: IdentifiedArrayOf<Item> = [Item(id: 1)]
    var first = start
    var second = start
    first.append(Item(id: 2))
    second.append(Item(id: 3))
    #expect(first.idSet.stamp != second.idSet.stamp)
    #expect(first.idSet.parent == start.idSet.stamp)
    #expect(second.idSet.parent == start.idSet.stamp)
  }

  @Test func equalityAndHashingIgnoreTheStamp() {
    var appended: IdentifiedArrayOf<Item> = [Item(id: 1)]
    appended.append(Item(id: 2))
    let literal: IdentifiedArrayOf<Item> = [Item(id: 1), Item(id: 2)]
    #expect(appended.idSet.stamp != literal.idSet.stamp)
    #expect(appended == literal)
    #expect(appended.hashValue == literal.hashValue)
  }
}
