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
        let row = model.remove(at: next(model.count))
        let removed = rows.remove(id: row.id)
        #expect(removed == row)
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
