import Foundation
import HabitClient
import HabitClientLive
import Persistence
import TestSupport
import Testing

@Suite struct HabitTests {
  let now = date("2025-03-01T12:00:00Z")

  @Test func aNameIsTrimmed() throws {
    let habit = try Habit(id: habitID(1), name: "  Read 20 pages\n", createdAt: now)
    #expect(habit.name == "Read 20 pages")
  }

  @Test func aNameLosesUnicodeWhitespaceAroundItOnly() throws {
    let habit = try Habit(
      id: habitID(1), name: "\u{00A0}\u{2003}Read\u{3000}pages\u{2029}", createdAt: now)
    #expect(habit.name == "Read\u{3000}pages")
  }

  @Test(arguments: ["", "   ", "\n\t "])
  func anEmptyNameIsRefused(name: String) {
    #expect(throws: HabitError.emptyName) {
      try Habit(id: habitID(1), name: name, createdAt: now)
    }
  }

  @Test func renamingTrimsAndRefusesAnEmptyName() throws {
    var habit = try Habit(id: habitID(1), name: "Read", createdAt: now)
    try habit.rename(to: " Walk ")
    #expect(habit.name == "Walk")
    #expect(throws: HabitError.emptyName) { try habit.rename(to: " ") }
    #expect(habit.name == "Walk")
  }

  @Test func archivingTwiceFailsAndKeepsTheFirstDate() throws {
    var habit = try Habit(id: habitID(1), name: "Read", createdAt: now)
    try habit.archive(on: now)
    #expect(habit.archivedAt == now)
    #expect(habit.isArchived)
    #expect(throws: HabitError.alreadyArchived(name: "Read")) {
      try habit.archive(on: now.addingTimeInterval(60))
    }
    #expect(habit.archivedAt == now)
  }

  @Test func unarchivingAnActiveHabitFails() throws {
    var habit = try Habit(id: habitID(1), name: "Read", createdAt: now, archivedAt: now)
    try habit.unarchive()
    #expect(habit.archivedAt == nil)
    #expect(!habit.isArchived)
    #expect(throws: HabitError.notArchived(name: "Read")) { try habit.unarchive() }
  }

  @Test func listOrderIsActiveFirstThenCreationThenID() throws {
    let early = now.addingTimeInterval(-60)
    let archivedEarly = try habit(1, "A", createdAt: early, archivedAt: now)
    let active = try habit(2, "B", createdAt: now)
    let activeEarly = try habit(3, "C", createdAt: early)
    let activeSameTimeHigherID = try habit(4, "D", createdAt: now)
    let sorted = [activeSameTimeHigherID, archivedEarly, active, activeEarly]
      .sorted(by: Habit.isListed(_:before:))
    #expect(sorted.map(\.name) == ["C", "B", "D", "A"])
  }

  @Test func encodesItsFieldsInJSON() throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    encoder.dateEncodingStrategy = .iso8601
    let active = try habit(1, "Read", createdAt: now)
    #expect(
      String(decoding: try encoder.encode(active), as: UTF8.self)
        == #"{"createdAt":"2025-03-01T12:00:00Z","id":"00000000-0000-0000-0000-000000000001","#
        + #""name":"Read"}"#)
    let archived = try habit(1, "Read", createdAt: now, archivedAt: now)
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    #expect(try decoder.decode(Habit.self, from: encoder.encode(archived)) == archived)
  }

  @Test func decodingChecksTheName() {
    let json = #"{"createdAt":0,"id":"00000000-0000-0000-0000-000000000001","name":" "}"#
    #expect(throws: HabitError.emptyName) {
      try JSONDecoder().decode(Habit.self, from: Data(json.utf8))
    }
  }

  @Test func aCompletionIsIdentifiedByItsHabitAndDay() throws {
    let completion = Completion(habitID: habitID(1), day: day("2025-03-01"), createdAt: now)
    #expect(completion.id == Completion.ID(habitID: habitID(1), day: day("2025-03-01")))
    #expect(
      completion.id.encodeColumn() == .text("00000000-0000-0000-0000-000000000001/2025-03-01"))
    #expect(try Completion.ID(decodingColumn: completion.id.encodeColumn()) == completion.id)
    #expect(throws: (any Error).self) { try Completion.ID(decodingColumn: .text("x/2025-03-01")) }
  }
}
