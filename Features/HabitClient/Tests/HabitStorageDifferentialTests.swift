import Foundation
import HabitClientLive
import Loop
import LoopTesting
import Persistence
import TestSupport
import Testing

@testable import HabitClient

/// The interface's in-memory value answers every endpoint as the live client does: the same
/// generated calls, on `HabitClient.inMemory()` and on containers, give the same answers, call
/// after call, archived habits, days in the future and restores included.
@Suite struct HabitStorageDifferentialTests {
  @Test(arguments: [1, 2, 3] as [UInt64])
  func theInMemoryValueAnswersEveryCallAsTheLiveClientDoes(seed: UInt64) async throws {
    let folder = temporaryFolder("HabitStorageDifferentialTests")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { Backend.removeStorage(in: folder) }
    let references = [
      HabitClient.live(opening: .inMemory),
      HabitClient.live(path: folder.appendingPathComponent("habits.sqlite").path),
    ]
    var steps = HabitSteps()
    try await requireSameAnswers(
      of: HabitClient.inMemory(), as: references, calls: 500, seed: seed
    ) { random, last in
      if let last { steps.learn(from: last) }
      return steps.next(&random)
    }
  }
}

/// The calls a generated sequence makes, drawn against what the earlier answers stored.
private struct HabitSteps {
  var now = Date(timeIntervalSinceReferenceDate: 800_000_000)
  var habitIDs: [Habit.ID] = []
  var archive = HabitArchive()

  static let names = ["Read", " Walk ", "", "Ünïcode", "read"]

  /// The next call, with arguments drawn from what is stored (or, now and then, missing).
  mutating func next(_ random: inout SplitMix64) -> GeneratedCall<HabitClient> {
    // NB: hours pass, so that some calls fall on the same day and some on the next.
    if Bool.random(using: &random) { now += Double(Int.random(in: 1...30, using: &random)) * 3_600 }
    let id = UUID(counting: random.next() % 1_000_000)
    let habit =
      habitIDs.isEmpty || Int.random(in: 0..<8, using: &random) == 0
      ? Habit.ID(id) : habitIDs[Int.random(in: 0..<habitIDs.count, using: &random)]
    let name = Self.names[Int.random(in: 0..<Self.names.count, using: &random)]
    let day = Day(now, in: .utc).advanced(by: Int.random(in: -4...1, using: &random))
    let (archive, dryRun) = (self.archive, Bool.random(using: &random))
    let now = self.now
    func call(
      _ name: String, _ body: @escaping @Sendable (HabitClient) async throws -> any Sendable
    ) -> GeneratedCall<HabitClient> {
      GeneratedCall(name, id: id, date: now, body)
    }
    let calls = [
      // NB: adding and completing are drawn more often, so that histories grow.
      call("addHabit") { try await $0.addHabit(name) },
      call("addHabit") { try await $0.addHabit(name) },
      call("updateHabit") { try await $0.updateHabit(habit, name) },
      call("archiveHabit") { try await $0.archiveHabit(habit) },
      call("unarchiveHabit") { try await $0.unarchiveHabit(habit) },
      call("deleteHabit") { try await $0.deleteHabit(habit) },
      call("addCompletion") { try await $0.addCompletion(habit, day) },
      call("addCompletion") { try await $0.addCompletion(habit, day) },
      call("addCompletion") { try await $0.addCompletion(habit, day) },
      call("deleteCompletion") { try await $0.deleteCompletion(habit, day) },
      call("fetchHistories") { try await $0.fetchHistories() },
      call("exportHabits") { try await $0.exportHabits() },
      call("restoreHabits") { try await $0.restoreHabits(archive, dryRun: dryRun) },
    ]
    return calls[Int.random(in: 0..<calls.count, using: &random)]
  }

  /// Keeps the ids an answer stored, and the last export, for later calls.
  mutating func learn(from answer: Answer) {
    switch answer.value {
    case let habit as Habit where !habitIDs.contains(habit.id): habitIDs.append(habit.id)
    case let exported as HabitArchive: archive = exported
    default: break
    }
  }
}
