import Foundation
import LinkList
import Loop
import LoopTesting
import Synchronization
import TestSupport
import Testing

@testable import LoopCLI

@Suite struct ListChangeTests {
  private func change(_ old: [Int], _ new: [Int]) -> ListChange {
    ListChange(from: old, to: new)
  }

  @Test(arguments: [
    ([1, 2, 3], [1, 2, 3], ListChange.unchanged),
    ([], [], .unchanged),
    ([1, 2, 3], [0, 1, 2, 3], .inserted(at: 0)),
    ([1, 2, 3], [1, 9, 2, 3], .inserted(at: 1)),
    ([1, 2, 3], [1, 2, 3, 4], .inserted(at: 3)),
    ([], [7], .inserted(at: 0)),
    ([1, 2, 3], [2, 3], .removed(at: 0)),
    ([1, 2, 3], [1, 3], .removed(at: 1)),
    ([1, 2, 3], [1, 2], .removed(at: 2)),
    ([1, 2, 3], [3, 2, 1], .other),
    ([1, 2, 3], [1, 2, 4], .other),
    ([1, 2, 3], [1, 9, 3, 2], .other),
    ([1, 2, 3], [3, 1], .other),
    ([1, 2, 3], [1, 2, 3, 4, 5], .other),
  ])
  func comparesIDsInOrder(old: [Int], new: [Int], expected: ListChange) {
    #expect(change(old, new) == expected)
  }

  @Test func comparesTheIDsOfElementsReadThroughTheirID() {
    let new = [(id: 1, name: "a"), (id: 9, name: "b"), (id: 2, name: "c"), (id: 3, name: "d")]
    #expect(ListChange(from: [1, 2, 3], to: new, id: \.id) == .inserted(at: 1))
    #expect(ListChange(from: [1, 2, 3], to: Array(new.dropFirst()), id: \.id) == .other)
  }
}

@Suite struct RefLengthCacheTests {
  /// The UUID whose hexadecimal digits start with `digits`, the rest zeros.
  private func id(_ digits: String) -> UUID {
    var hex = Array(digits.padding(toLength: 32, withPad: "0", startingAt: 0))
    for offset in [20, 16, 12, 8] { hex.insert("-", at: offset) }
    guard let uuid = UUID(uuidString: String(hex)) else {
      preconditionFailure("'\(digits)' is no UUID's digits")
    }
    return uuid
  }

  @Test func aKeyIsTheIdsBytesAsOneBigEndianNumber() {
    let key = Ref.key(of: id("0123456789ABCDEF0123456789ABCDEF"))
    #expect(key == 0x0123_4567_89AB_CDEF_0123_4567_89AB_CDEF)
  }

  @Test func anIDsKeyInHalvesIsItsKey() {
    let id = id("0123456789ABCDEF0123456789ABCDEF")
    #expect(KeyHalves(of: id).key == Ref.key(of: id))
    #expect(KeyHalves(Ref.key(of: id)) == KeyHalves(of: id))
    #expect(KeyHalves(of: id).high == 0x0123_4567_89AB_CDEF)
  }

  @Test func theLengthFollowsInsertsRemovalsAndReorderingsAsComputingItAfreshWould() {
    var cache = RefLengthCache()
    var ids: [UUID] = []
    func check(_ comment: Comment) {
      #expect(
        cache.length(ofKeys: ids.map(Ref.key(of:))) == Ref.length(for: ids), comment)
    }
    check("empty")
    for digits in [
      "A1B2C3D401", "B2", "A1B2C3D4E5F6", "0F", "A1B2C3D4E5F7A8", "FF", "A1B2C3D4E5F7A9",
    ] {
      ids.insert(id(digits), at: ids.count / 2)
      check("after inserting \(digits)")
    }
    // NB: ...E5F7A8 and ...E5F7A9 share 13 digits.
    #expect(Ref.length(for: ids) == 14)
    ids.removeAll { $0 == id("A1B2C3D4E5F7A9") }
    check("after removing the id closest to another")
    ids.reverse()
    check("after reversing")
    ids.removeAll { $0 == id("A1B2C3D4E5F7A8") || $0 == id("A1B2C3D4E5F6") }
    check("after removing two at once")
    ids.append(id("A1B2C3D4E5F7A8"))
    check("after inserting one back at the end")
  }

  @Test func theLengthOfElementsIsThatOfTheirIDs() {
    var cache = RefLengthCache()
    var habits: [(id: UUID, name: String)] = []
    func check(_ comment: Comment) {
      #expect(
        cache.length(of: habits) { $0.id } == Ref.length(for: habits.map(\.id)),
        comment)
    }
    for digits in ["A1B2C3D401", "B2", "A1B2C3D4E5F6", "0F"] {
      habits.insert((id(digits), "habit \(digits)"), at: 0)
      check("after inserting \(digits)")
    }
    habits.remove(at: 1)
    check("after removing one")
    habits.swapAt(0, 2)
    check("after swapping two")
  }

  @Test func theLengthOfAnIdentifiedListFollowsItsChangesAsComputingItAfreshWould() {
    struct Item: Identifiable { let id: UUID }
    var cache = RefLengthCache()
    var items: IdentifiedArrayOf<Item> = []
    func check(_ comment: Comment) {
      #expect(
        cache.length(of: items, id: \.id, rawID: { $0 }) == Ref.length(for: items.map(\.id)),
        comment)
    }
    check("empty")
    for digits in [
      "A1B2C3D401", "B2", "A1B2C3D4E5F6", "0F", "A1B2C3D4E5F7A8", "FF", "A1B2C3D4E5F7A9",
    ] {
      items.insert(Item(id: id(digits)), at: items.count / 2)
      check("after inserting \(digits)")
    }
    check("unchanged")
    items.remove(id: id("A1B2C3D4E5F7A9"))
    check("after removing the id closest to another")
    items.reverse()
    check("after reversing")
    items.removeAll { $0.id == id("A1B2C3D4E5F7A8") || $0.id == id("A1B2C3D4E5F6") }
    check("after removing two at once")
    var other = items
    items.append(Item(id: id("A1B2C3D4E5F6")))
    check("after appending one")
    other.append(Item(id: id("A1B2C3D4E5F7A9")))
    items = other
    check("after a copy of the list before the append, changed apart")
    items[0] = Item(id: id("A1B2C3D4E5F7A8"))
    check("after replacing one by position")
  }

  @Test func aListOfElementsAfterAnIdentifiedListIsComparedAfresh() {
    struct Item: Identifiable { let id: UUID }
    var cache = RefLengthCache()
    var items: IdentifiedArrayOf<Item> = [Item(id: id("A1")), Item(id: id("B2"))]
    _ = cache.length(of: items, id: \.id, rawID: { $0 })
    items.append(Item(id: id("A1B2C3D4E5F6")))
    _ = cache.length(of: items, id: \.id, rawID: { $0 })
    // NB: the list the cache last compared in order plus one id: taken for that, the answer
    // would count A1B2C3D4E5F6, which shares 11 digits with A1B2C3D4E5F7.
    let ids = [id("A1"), id("B2"), id("A1B2C3D4E5F7")]
    #expect(cache.length(ofKeys: ids.map(Ref.key(of:))) == Ref.length(for: ids))
    #expect(cache.length(of: items, id: \.id, rawID: { $0 }) == Ref.length(for: items.map(\.id)))
  }

  @Test func theLengthOfALongIdentifiedListFollowsEachInsertAsComputingItAfreshWould() {
    struct Item: Identifiable { let id: UUID }
    var cache = RefLengthCache()
    var items: IdentifiedArrayOf<Item> = []
    var random = SplitMix64(seed: 27)
    // NB: more ids than a run of sorted keys holds, of digits 0 and 1 only, so that they share
    // long prefixes and the length grows as they come.
    var lengths: Set<Int> = []
    for _ in 0..<(SortedKeys.runCapacity + 200) {
      let digits = (0..<32).map { _ in random.next() & 1 == 0 ? "0" : "1" }.joined()
      items.insert(Item(id: id(digits)), at: 0)
      let length = cache.length(of: items, id: \.id, rawID: { $0 })
      #expect(length == Ref.length(for: items.map(\.id)), "after \(items.count) ids")
      lengths.insert(length)
    }
    #expect(lengths.count > 1, "the length grew as ids came")
  }
}

@Suite struct SortedKeysTests {
  /// `count` keys that look random, each once.
  private func keys(_ count: Int, seed: UInt64) -> [UInt128] {
    var random = SplitMix64(seed: seed)
    var keys: Set<UInt128> = []
    while keys.count < count {
      keys.insert(UInt128(random.next()) << 64 | UInt128(random.next()))
    }
    return Array(keys)
  }

  @Test func eachInsertedKeyIsPlacedInOrderAndToldItsNeighbours() {
    var sorted = SortedKeys()
    var expected: [UInt128] = []
    for key in keys(3 * SortedKeys.runCapacity, seed: 1) {
      let neighbours = sorted.insert(key)
      let index = expected.firstIndex { $0 > key } ?? expected.count
      #expect(neighbours.below == (index > 0 ? expected[index - 1] : nil))
      #expect(neighbours.above == (index < expected.count ? expected[index] : nil))
      expected.insert(key, at: index)
    }
    #expect(Array(sorted.keys) == expected)
    #expect(sorted.runCount > 3, "full runs were split")
  }

  @Test func removedKeysLeaveTheRestInOrder() {
    let inserted = keys(2 * SortedKeys.runCapacity, seed: 2)
    var sorted = SortedKeys()
    for key in inserted { _ = sorted.insert(key) }
    var expected = inserted.sorted()
    for key in inserted.prefix(inserted.count - 10) {
      sorted.remove(key)
      expected.removeAll { $0 == key }
      #expect(Array(sorted.keys) == expected)
    }
    for key in inserted.suffix(10) { sorted.remove(key) }
    #expect(Array(sorted.keys).isEmpty)
    #expect(sorted.runCount == 0)
  }

  @Test func keysMadeFromAnAscendingListAreItsKeysInRunsHalfFull() {
    let ascending = keys(1_300, seed: 3).sorted()
    var sorted = SortedKeys(sorted: ascending)
    #expect(Array(sorted.keys) == ascending)
    let half = SortedKeys.runCapacity / 2
    #expect(sorted.runCount == (1_300 + half - 1) / half, "runs half full")
    let neighbours = sorted.insert(ascending[700] + 1)
    #expect(neighbours.below == ascending[700])
    #expect(neighbours.above == ascending[701])
    #expect(SortedKeys(sorted: []).runCount == 0)
  }
}
