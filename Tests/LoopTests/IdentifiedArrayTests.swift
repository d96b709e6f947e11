import Foundation
import Loop
import LoopTesting
import TestSupport
import Testing

private struct Row: Identifiable, Equatable, Hashable, Codable, Sendable {
  var id: Int
  var title: String
}

@Suite struct IdentifiedArrayTests {
  @Test func keepsInsertionOrderAndFindsByID() {
    let rows: IdentifiedArrayOf<Row> = [Row(id: 3, title: "c"), Row(id: 1, title: "a")]
    #expect(rows.ids == [3, 1])
    #expect(rows[id: 1]?.title == "a")
    #expect(rows[id: 2] == nil)
    #expect(rows.index(id: 3) == 0)
  }

  @Test func findingByIDWhereItIsExpectedFindsItWhereverItIs() {
    let rows: IdentifiedArrayOf<Row> = [
      Row(id: 3, title: "c"), Row(id: 1, title: "a"), Row(id: 2, title: "b"),
    ]
    #expect(rows.index(id: 1, expectedAt: 1) == 1)
    #expect(rows.index(id: 1, expectedAt: 2) == 1)
    #expect(rows.index(id: 2, expectedAt: 3) == 2)
    #expect(rows.index(id: 3, expectedAt: -4) == 0)
    #expect(rows.index(id: 4, expectedAt: 0) == nil)
  }

  @Test func rejectsDuplicateIDsOnAppendAndInsert() {
    var rows: IdentifiedArrayOf<Row> = [Row(id: 1, title: "a")]
    #expect(rows.append(Row(id: 1, title: "other")) == false)
    #expect(rows.insert(Row(id: 1, title: "other"), at: 0) == false)
    #expect(rows.elements == [Row(id: 1, title: "a")])
  }

  @Test func updatesInPlaceByID() {
    var rows: IdentifiedArrayOf<Row> = [Row(id: 1, title: "a"), Row(id: 2, title: "b")]
    rows[id: 2]?.title = "B"
    let result = rows.modify(id: 1) { row -> String in
      row.title = "A"
      return row.title
    }
    #expect(result == "A")
    #expect(rows.modify(id: 9) { _ in 1 } == nil)
    #expect(rows.map(\.title) == ["A", "B"])
  }

  @Test func settingNilRemovesAndKeepsIndexesRight() {
    var rows: IdentifiedArrayOf<Row> = [
      Row(id: 1, title: "a"), Row(id: 2, title: "b"), Row(id: 3, title: "c"),
    ]
    rows[id: 1] = nil
    #expect(rows.ids == [2, 3])
    #expect(rows.index(id: 3) == 1)
    rows.insert(Row(id: 0, title: "z"), at: 0)
    #expect(rows.index(id: 3) == 2)
    #expect(rows.remove(id: 2)?.title == "b")
    #expect(rows.remove(id: 2) == nil)
    rows.removeAll { $0.id == 0 }
    #expect(rows.ids == [3])
    #expect(rows[id: 3]?.title == "c")
  }

  @Test func settingANewIDAppends() {
    var rows = IdentifiedArrayOf<Row>()
    rows[id: 5] = Row(id: 5, title: "e")
    #expect(rows.ids == [5])
  }

  @Test func isARandomAccessCollection() {
    let rows: IdentifiedArrayOf<Row> = [Row(id: 1, title: "a"), Row(id: 2, title: "b")]
    #expect(rows.count == 2)
    #expect(rows[1].title == "b")
    #expect(rows.last?.id == 2)
    #expect(Array(rows.reversed()).map(\.id) == [2, 1])
  }

  @Test func sortingReindexes() {
    var rows: IdentifiedArrayOf<Row> = [Row(id: 1, title: "b"), Row(id: 2, title: "a")]
    rows.sort { $0.title < $1.title }
    #expect(rows.ids == [2, 1])
    #expect(rows.index(id: 1) == 1)
  }

  @Test func positionsStayRightThroughInsertionsAndRemovalsAnywhere() {
    var rows = IdentifiedArrayOf<Row>()
    var model: [Row] = []
    var random: UInt64 = 42
    func next(_ bound: Int) -> Int {
      random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int(random >> 33) % max(bound, 1)
    }
    for step in 0..<600 {
      switch next(5) {
      case 0, 1:
        // Mostly at the ends, where one side of the array is empty.
        let index = [0, model.count, next(model.count + 1)][next(3)]
        let inserted = rows.insert(Row(id: step, title: "\(step)"), at: index)
        #expect(inserted)
        model.insert(Row(id: step, title: "\(step)"), at: index)
      case 2:
        rows.append(Row(id: step, title: "\(step)"))
        model.append(Row(id: step, title: "\(step)"))
      case 3 where !model.isEmpty:
        let index = [0, model.count - 1, next(model.count)][next(3)]
        let removed = rows.remove(at: index)
        #expect(removed == model.remove(at: index))
      case 4 where !model.isEmpty:
        if next(4) == 0 {
          let count = next(min(model.count, 3) + 1)
          rows.removeFirst(count)
          model.removeFirst(count)
        } else {
          let row = model.remove(at: next(model.count))
          let removed = rows.remove(id: row.id)
          #expect(removed == row)
        }
      default:
        rows[id: step] = Row(id: step, title: "set")
        model.append(Row(id: step, title: "set"))
      }
      #expect(rows.elements == model)
      #expect(
        model.indices.allSatisfy { rows.index(id: model[$0].id) == $0 },
        "step \(step): a position is wrong")
    }
    #expect(model.count > 100)
  }

  // One keeps the removed ids' entries for later (at most four times those kept), one
  // forgets them at once.
  @Test(arguments: [1, 9])
  func removeFirstDropsTheOldestAndKeepsTheRestFoundByID(count: Int) {
    var rows = IdentifiedArrayOf<Row>(uniqueElements: (0..<10).map { Row(id: $0, title: "\($0)") })
    rows.removeFirst(count)
    #expect(rows.elements == (count..<10).map { Row(id: $0, title: "\($0)") })
    #expect(rows[id: 0] == nil)
    #expect(rows.index(id: 9) == 9 - count)
    let appended = rows.append(Row(id: 0, title: "again"))
    #expect(appended)
    #expect(rows.index(id: 0) == 10 - count)
    let appendedTwice = rows.append(Row(id: 9, title: "twice"))
    #expect(!appendedTwice)
  }

  @Test func idsRemovedFromTheFrontAreNotFoundWhereElementsInsertedAtTheFrontNowStand() {
    var rows = IdentifiedArrayOf<Row>(uniqueElements: (0..<6).map { Row(id: $0, title: "\($0)") })
    rows.removeFirst(2)
    // The new elements take the positions the removed ids' entries would point at.
    let insertedFirst = rows.insert(Row(id: 10, title: "x"), at: 0)
    let insertedSecond = rows.insert(Row(id: 11, title: "y"), at: 0)
    #expect(insertedFirst && insertedSecond)
    #expect(rows.ids == [11, 10, 2, 3, 4, 5])
    #expect(rows[id: 0] == nil && rows[id: 1] == nil)
    #expect(!rows.contains(id: 0) && rows.index(id: 1) == nil)
    let removed = rows.remove(id: 1)
    #expect(removed == nil)
    let insertedAgain = rows.insert(Row(id: 1, title: "again"), at: 2)
    #expect(insertedAgain)
    #expect(rows.ids == [11, 10, 1, 2, 3, 4, 5])
    #expect(rows.index(id: 1) == 2)
    // Written by position where its old entry points, an id is indexed like any other, not
    // taken for a second element with that id (whose repair would make a fresh set of ids).
    rows[1] = Row(id: 0, title: "by position")
    let stamp = rows.idSet.stamp
    rows[id: 0] = Row(id: 0, title: "changed in place")
    #expect(rows.idSet.stamp == stamp)
    #expect(rows.ids == [11, 0, 1, 2, 3, 4, 5])
    #expect(rows[id: 0]?.title == "changed in place")
    #expect(rows[id: 10] == nil)
  }

  @Test func equatableAndHashableFollowElementsInOrder() {
    let a: IdentifiedArrayOf<Row> = [Row(id: 1, title: "a"), Row(id: 2, title: "b")]
    let b: IdentifiedArrayOf<Row> = [Row(id: 2, title: "b"), Row(id: 1, title: "a")]
    #expect(a != b)
    #expect(Set([a, a]).count == 1)
  }

  @Test func roundTripsThroughCodable() throws {
    let rows: IdentifiedArrayOf<Row> = [Row(id: 1, title: "a"), Row(id: 2, title: "b")]
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let data = try encoder.encode(rows)
    #expect(
      String(decoding: data, as: UTF8.self) == #"[{"id":1,"title":"a"},{"id":2,"title":"b"}]"#)
    #expect(try JSONDecoder().decode(IdentifiedArrayOf<Row>.self, from: data) == rows)
  }

  @Test func decodingDuplicateIDsFails() {
    let data = Data(#"[{"id":1,"title":"a"},{"id":1,"title":"b"}]"#.utf8)
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(IdentifiedArrayOf<Row>.self, from: data)
    }
  }
}

// MARK: - MutableCollection algorithms

/// An element that sorts by its value, then its id.
private struct Item: Identifiable, Comparable, Hashable, Sendable, CustomStringConvertible {
  var id: Int
  var value: Int

  static func < (lhs: Self, rhs: Self) -> Bool { (lhs.value, lhs.id) < (rhs.value, rhs.id) }

  var description: String { "\(id):\(value)" }
}

/// A mutable collection without contiguous storage, so the standard library's algorithms fall
/// back to assigning its elements one position at a time.
private struct PositionOnly<Base: MutableCollection & RandomAccessCollection>: MutableCollection,
  RandomAccessCollection
where Base.Index == Int {
  var base: Base
  var startIndex: Int { base.startIndex }
  var endIndex: Int { base.endIndex }
  subscript(position: Int) -> Base.Element {
    get { base[position] }
    set { base[position] = newValue }
  }
}

/// Sorts through the standard library's generic `sort()`, never `IdentifiedArray`'s own.
private func genericSort<C: MutableCollection & RandomAccessCollection>(_ collection: inout C)
where C.Element: Comparable {
  collection.sort()
}

/// What differs between an identified array and the plain array it should equal, or `nil`.
private func mismatch(_ rows: IdentifiedArrayOf<Item>, _ model: [Item], absent: Int) -> String? {
  if rows.elements != model { return "elements \(rows.elements) != \(model)" }
  if !(rows.ids == model.map(\.id)) { return "ids \(rows.ids) != \(model.map(\.id))" }
  for (offset, item) in model.enumerated() {
    if rows.index(id: item.id) != offset { return "index(id: \(item.id)) is not \(offset)" }
    for expected in [offset, offset - 1, offset + 1, -1, model.count] {
      if rows.index(id: item.id, expectedAt: expected) != offset {
        return "index(id: \(item.id), expectedAt: \(expected)) is not \(offset)"
      }
    }
    if rows[id: item.id] != item { return "subscript(id: \(item.id)) is not \(item)" }
    if !rows.ids.contains(item.id) { return "ids do not contain \(item.id)" }
  }
  if rows[id: absent] != nil || rows.contains(id: absent)
    || rows.index(id: absent, expectedAt: 0) != nil
  {
    return "finds absent id \(absent)"
  }
  return nil
}

@Suite struct IdentifiedArrayAlgorithmTests {
  @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
  func everyMutableCollectionAlgorithmMatchesAPlainArray(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    var rows = IdentifiedArrayOf<Item>()
    var model: [Item] = []
    var nextID = 0
    var removed: [Item] = []
    func fresh() -> Item {
      defer { nextID += 1 }
      return Item(id: nextID, value: Int.random(in: 0..<20, using: &random))
    }
    func someRange() -> Range<Int> {
      let a = Int.random(in: 0...model.count, using: &random)
      let b = Int.random(in: 0...model.count, using: &random)
      return min(a, b)..<max(a, b)
    }
    func someOffsets() -> IndexSet {
      IndexSet(model.indices.filter { _ in Int.random(in: 0..<4, using: &random) == 0 })
    }
    for step in 0..<400 {
      let operation = model.count < 3 ? 0 : Int.random(in: 0..<19, using: &random)
      switch operation {
      case 0:
        let item = fresh()
        rows.append(item)
        model.append(item)
      case 1:
        let (i, j) = (
          Int.random(in: model.indices, using: &random),
          Int.random(in: model.indices, using: &random)
        )
        rows.swapAt(i, j)
        model.swapAt(i, j)
      case 2:
        rows.reverse()
        model.reverse()
      case 3:
        var (first, second) = (random, random)
        rows.shuffle(using: &first)
        model.shuffle(using: &second)
        random = first
      case 4:
        let pivot = Int.random(in: 0..<20, using: &random)
        let rowsIndex = rows.partition { $0.value < pivot }
        let modelIndex = model.partition { $0.value < pivot }
        #expect(rowsIndex == modelIndex, "step \(step): partition(by:)")
      case 5:
        genericSort(&rows)
        model.sort()
      case 6:
        rows.sort { $0 > $1 }
        model.sort { $0 > $1 }
      case 7:
        let range = someRange()
        rows[range].reverse()
        model[range].reverse()
      case 8:
        let range = someRange()
        rows[range].sort()
        model[range].sort()
      case 9:
        var wrapped = PositionOnly(base: rows)
        wrapped.sort(by: >)
        rows = wrapped.base
        model.sort(by: >)
      case 10:
        // A permutation written one position at a time, as a hand-rolled algorithm would.
        let target = model.shuffled(using: &random)
        for (offset, item) in target.enumerated() { rows[offset] = item }
        model = target
      case 11:
        let (source, destination) = (someOffsets(), Int.random(in: 0...model.count, using: &random))
        rows.move(fromOffsets: source, toOffset: destination)
        let moved = source.map { model[$0] }
        let before = source.count(in: 0..<destination)
        model = model.enumerated().filter { !source.contains($0.offset) }.map(\.element)
        model.insert(contentsOf: moved, at: destination - before)
      case 12:
        let offsets = someOffsets()
        rows.remove(atOffsets: offsets)
        model = model.enumerated().filter { !offsets.contains($0.offset) }.map(\.element)
      case 13:
        let offset = Int.random(in: model.indices, using: &random)
        let updated = Item(id: model[offset].id, value: Int.random(in: 0..<20, using: &random))
        #expect(rows.updateOrAppend(updated) == model[offset], "step \(step): updateOrAppend")
        model[offset] = updated
      case 14:
        let offset = Int.random(in: model.indices, using: &random)
        let item = fresh()
        rows[offset] = item
        model[offset] = item
      case 15:
        let offset = Int.random(in: model.indices, using: &random)
        #expect(rows.remove(at: offset) == model.remove(at: offset), "step \(step): remove(at:)")
      case 16:
        let count = Int.random(in: 0...min(model.count, 4), using: &random)
        rows.removeFirst(count)
        removed += model.prefix(count)
        model.removeFirst(count)
      case 17 where !removed.isEmpty:
        // An id removed earlier comes back: its old entry must not be mistaken for it.
        let item = removed.remove(at: Int.random(in: removed.indices, using: &random))
        switch Int.random(in: 0..<4, using: &random) {
        case 0:
          let appended = rows.append(item)
          #expect(appended, "step \(step): append")
          model.append(item)
        case 1:
          let offset = Int.random(in: 0...model.count, using: &random)
          let inserted = rows.insert(item, at: offset)
          #expect(inserted, "step \(step): insert(_:at:)")
          model.insert(item, at: offset)
        case 2:
          let offset = Int.random(in: model.indices, using: &random)
          rows[offset] = item
          model[offset] = item
        default:
          rows[id: item.id] = item
          model.append(item)
        }
      default:
        let offset = Int.random(in: model.indices, using: &random)
        rows[offset].value += 1
        model[offset].value += 1
      }
      let problem =
        mismatch(rows, model, absent: nextID)
        ?? removed.lazy.compactMap { item in
          rows.contains(id: item.id) || rows.index(id: item.id, expectedAt: 0) != nil
            ? "finds removed id \(item.id)" : nil
        }.first
      #expect(problem == nil, "step \(step), operation \(operation)")
      if problem != nil { return }
    }
  }

  @Test func assignmentsThatLeaveAnElementUnindexedStillFindItAndRepairOnTheNextChange() {
    let (a, b) = (Item(id: 1, value: 0), Item(id: 2, value: 0))
    var rows: IdentifiedArrayOf<Item> = [a, b]
    // For a moment two elements have id 1; then the indexed one is replaced.
    rows[1] = a
    rows[1] = b
    #expect(mismatch(rows, [a, b], absent: 3) == nil)
    rows.append(Item(id: 3, value: 0))
    #expect(mismatch(rows, [a, b, Item(id: 3, value: 0)], absent: 4) == nil)
  }

  @Test func replacingAnElementByPositionWithAnotherIDRemovesTheOldID() {
    var rows: IdentifiedArrayOf<Item> = [Item(id: 1, value: 0), Item(id: 2, value: 0)]
    rows[0] = Item(id: 5, value: 9)
    #expect(rows[id: 1] == nil)
    #expect(rows.index(id: 5) == 0)
    rows[1].id = 6
    #expect(rows.ids == [5, 6])
    #expect(rows[id: 2] == nil)
    #expect(rows.modify(id: 6) { $0.id = 7 } != nil)
    #expect(rows.index(id: 7) == 1)
  }

  @Test func moveFromOffsetsPutsTheElementsBeforeTheDestination() {
    var rows: IdentifiedArrayOf<Row> = [
      Row(id: 1, title: "a"), Row(id: 2, title: "b"), Row(id: 3, title: "c"),
      Row(id: 4, title: "d"),
    ]
    rows.move(fromOffsets: IndexSet([0]), toOffset: 3)
    #expect(rows.ids == [2, 3, 1, 4])
    rows.move(fromOffsets: IndexSet([1, 3]), toOffset: 0)
    #expect(rows.ids == [3, 4, 2, 1])
    rows.move(fromOffsets: IndexSet([0]), toOffset: 4)
    #expect(rows.ids == [4, 2, 1, 3])
    #expect(rows.index(id: 3) == 3)
  }

  @Test func removeAtOffsetsKeepsTheRestInOrder() {
    var rows: IdentifiedArrayOf<Row> = [
      Row(id: 1, title: "a"), Row(id: 2, title: "b"), Row(id: 3, title: "c"),
    ]
    rows.remove(atOffsets: IndexSet([0, 2]))
    #expect(rows.ids == [2])
    #expect(rows.index(id: 2) == 0)
    #expect(rows[id: 1] == nil)
  }

  @Test func updateOrAppendReplacesInPlaceOrAppends() {
    var rows: IdentifiedArrayOf<Row> = [Row(id: 1, title: "a"), Row(id: 2, title: "b")]
    #expect(rows.updateOrAppend(Row(id: 1, title: "A")) == Row(id: 1, title: "a"))
    #expect(rows.updateOrAppend(Row(id: 3, title: "c")) == nil)
    #expect(
      rows.elements == [Row(id: 1, title: "A"), Row(id: 2, title: "b"), Row(id: 3, title: "c")])
  }

  @Test func idsIsAViewThatFindsAnIDWithoutSearching() {
    let rows: IdentifiedArrayOf<Row> = [Row(id: 3, title: "c"), Row(id: 1, title: "a")]
    let ids: IdentifiedArrayOf<Row>.IDs = rows.ids
    #expect(ids.contains(1))
    #expect(!ids.contains(2))
    #expect(ids.first == 3)
    #expect(ids == rows.ids)
    #expect([3, 1] == ids)
    #expect(ids.description == "[3, 1]")
  }

  @Test func filterReturnsAnIdentifiedArray() {
    let rows: IdentifiedArrayOf<Row> = [
      Row(id: 1, title: "a"), Row(id: 2, title: "b"), Row(id: 3, title: "c"),
    ]
    let odd: IdentifiedArrayOf<Row> = rows.filter { $0.id % 2 == 1 }
    #expect(odd.ids == [1, 3])
    #expect(odd.index(id: 3) == 1)
    #expect(odd[id: 2] == nil)
  }
}
