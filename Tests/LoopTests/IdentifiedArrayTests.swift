import Foundation
import Loop
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
