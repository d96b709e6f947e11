import Foundation
import Loop
import Testing

private struct Row: Identifiable, Equatable, Hashable, Codable, Sendable {
  var id: Int
  var title: String
}

/// `IdentifiedArray` grown at the front (a newest-first list, as the ledger's): it stays the same
/// value as one built in order, whichever end its elements came in by.
@Suite struct IdentifiedArrayFrontTests {
  /// Rows 0 to 5 in order, the first three inserted at the front one by one, then the rest
  /// appended and inserted around them.
  private func grownAtBothEnds() -> IdentifiedArrayOf<Row> {
    var rows = IdentifiedArrayOf<Row>()
    rows.insert(Row(id: 2, title: "c"), at: 0)
    rows.insert(Row(id: 1, title: "b"), at: 0)
    rows.insert(Row(id: 0, title: "a"), at: 0)
    rows.append(Row(id: 3, title: "d"))
    rows.append(Row(id: 5, title: "f"))
    rows.insert(Row(id: 4, title: "e"), at: 4)
    return rows
  }

  private var inOrder: [Row] {
    ["a", "b", "c", "d", "e", "f"].enumerated().map { Row(id: $0.offset, title: $0.element) }
  }

  @Test func insertingAtTheFrontKeepsTheOrderAndEveryLookup() {
    let rows = grownAtBothEnds()
    #expect(rows.elements == inOrder)
    #expect(Array(rows) == inOrder)
    #expect(rows.ids == [0, 1, 2, 3, 4, 5])
    for row in inOrder {
      #expect(rows.index(id: row.id) == row.id)
      #expect(rows[id: row.id] == row)
      #expect(rows[row.id] == row)
    }
  }

  @Test func anArrayGrownAtTheFrontEqualsOneBuiltInOrder() throws {
    let rows = grownAtBothEnds()
    let built = IdentifiedArray(uniqueElements: inOrder)
    #expect(rows == built)
    #expect(rows.hashValue == built.hashValue)
    #expect(rows.description == built.description)
    // NB: sorted keys: an encoder writes an object's keys in no fixed order otherwise.
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    #expect(try encoder.encode(rows) == encoder.encode(built))
    var changed = rows
    changed[id: 0]?.title = "A"
    #expect(changed != built)
    #expect(changed.elements.first == Row(id: 0, title: "A"))
  }

  @Test func removingAroundTheFrontKeepsTheOrderAndEveryLookup() {
    var rows = grownAtBothEnds()
    #expect(rows.remove(at: 1) == Row(id: 1, title: "b"))
    #expect(rows.remove(id: 4) == Row(id: 4, title: "e"))
    #expect(rows.ids == [0, 2, 3, 5])
    rows.removeFirst(2)
    #expect(rows.ids == [3, 5])
    #expect(rows.index(id: 5) == 1)
    var acrossBoth = grownAtBothEnds()
    acrossBoth.removeFirst(4)
    #expect(acrossBoth.elements == Array(inOrder.dropFirst(4)))
    #expect(acrossBoth.index(id: 4) == 0)
  }

  @Test func sortingAfterInsertingAtTheFrontMakesTheElementsContiguousAgain() {
    var rows = grownAtBothEnds()
    #expect(rows.withContiguousStorageIfAvailable { _ in true } == nil)
    rows.sort { $0.id > $1.id }
    #expect(rows.ids == [5, 4, 3, 2, 1, 0])
    #expect(rows.index(id: 0) == 5)
    #expect(rows.withContiguousStorageIfAvailable { Array($0) } == inOrder.reversed())
  }

  @Test func removingAnElementInsertedAtTheFrontChangesTheMembershipStamp() {
    var rows = grownAtBothEnds()
    let stamp = rows.membershipStamp
    rows.remove(id: 1)
    #expect(rows.membershipStamp != stamp)
  }

  @Test func replacingAnArrayGrownOnlyAtTheFrontChangesTheMembershipStamp() {
    var rows = IdentifiedArrayOf<Row>()
    rows.insert(Row(id: 1, title: "b"), at: 0)
    rows.insert(Row(id: 0, title: "a"), at: 0)
    let stamp = rows.membershipStamp
    rows = []
    #expect(rows.membershipStamp != stamp)
  }
}
