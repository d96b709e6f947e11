import Foundation
import HabitClient
import Habits
import LoopTesting
import Synchronization
import TestSupport
import Testing

/// The habit list's contract, checked after every step of generated sequences: the habits listed
/// are those the client stores, each once, with its stored name, archive and completed days
/// (unique per day and in order), and its streak never longer than its longest streak.
@MainActor
@Suite struct HabitsExplorationTests {
  /// 2025-03-01 12:00 UTC, a Saturday.
  static let now = date("2025-03-01T12:00:00Z")
  static let today = day("2025-03-01")

  @Test func everyGeneratedSequenceKeepsEachHabitsHistoryConsistent() async {
    let stored = StoredHabits()
    let result = await TestStore.explore(
      initialState: { Habits.State() }, reducer: { Habits() }, actions: Self.actions,
      runs: 30, steps: 15, invariantName: "HabitsExplorationTests.isConsistent",
      invariant: { Self.isConsistent($0) && Self.isStored($0, stored.snapshot) },
      withDependencies: {
        $0.calendar = .gregorian(firstWeekday: 1)
        $0.date = .constant(Self.now)
        $0.habitClient = stored.tracking(.inMemory())
        $0.timeZone = .utc
        $0.uuid = .incrementing
      })
    print("Habits: \(result)")
  }

  /// What a person does in the list: adds (now and then a blank name), completes and
  /// uncompletes days, renames, archives, deletes (and confirms), opens a habit and closes it.
  static var actions: ActionGenerator<Habits.State, Habits.Action> {
    ActionGenerator(
      .always(.onAppear),
      .case(weight: 3) { random, _ in
        .addSubmitted(name: random.chance(0.1) ? " " : random.string(length: 1...6))
      },
      .element(of: \.habits, weight: 4) { history, random in
        .completeSubmitted(history.id, day: pastDay(&random))
      },
      .element(of: \.habits, weight: 2) { history, random in
        .uncompleteSubmitted(history.id, day: pastDay(&random))
      },
      .element(of: \.habits) { history, random in
        .renameSubmitted(history.id, name: random.string(length: 0...6))
      },
      .element(of: \.habits) { history, _ in .archiveSubmitted(history.id) },
      .element(of: \.habits) { history, _ in .unarchiveSubmitted(history.id) },
      .element(of: \.habits) { history, _ in .deleteSubmitted(history.id) },
      .element(of: \.habits) { history, _ in .habitSelected(history.id) },
      .case(weight: 2) { random, state in
        // NB: the alert's buttons: what the person can answer.
        guard case .alert(let alert) = state.destination,
          let answer = random.element(of: alert.buttons.compactMap(\.action.action))
        else { return nil }
        return .destination(.presented(.alert(answer)))
      },
      .case { _, state in state.destination == nil ? nil : .destination(.dismiss) }
    )
  }

  /// Today (`nil`, as the REPL sends it) or one of the ten days before.
  static func pastDay(_ random: inout ExplorationRandom) -> Day? {
    random.bool() ? nil : today.advanced(by: -random.int(in: 0...10))
  }

  /// The contract: listed once, an open detail showing the listed habit, completions unique per
  /// day and ordered, streak within the longest streak.
  static func isConsistent(_ state: Habits.State) -> Bool {
    let ids = state.habits.map(\.id)
    guard Set(ids).count == ids.count else { return false }
    // NB: an open detail shows the listed habit, as the list has it now.
    if let detail = state.destination?.detail, detail.history != state.habits[id: detail.history.id]
    {
      return false
    }
    return state.habits.allSatisfy { history in
      guard Set(history.days).count == history.days.count, history.days == history.days.sorted()
      else { return false }
      let stats = history.stats(
        createdOn: Day(history.habit.createdAt, in: .utc), today: state.today ?? today)
      return stats.currentStreak <= stats.longestStreak
        && stats.longestStreak <= stats.completedDays
    }
  }
}

extension HabitsExplorationTests {
  /// Whether the list shows what the client stores: every stored habit once, with its name,
  /// archive and completed days.
  ///
  /// NB: the client is fresh for each run, so it stores only what the list did.
  static func isStored(_ state: Habits.State, _ stored: [Habit.ID: HabitHistory]) -> Bool {
    state.habits.count == stored.count
      && state.habits.allSatisfy { history in
        guard let kept = stored[history.id] else { return false }
        return kept.habit.name == history.habit.name
          && kept.habit.isArchived == history.habit.isArchived
          && Set(kept.days) == Set(history.days)
      }
  }
}

/// What the client stores, as the exploration saw it succeed: the model the listed habits are
/// checked against.
final class StoredHabits: Sendable {
  private let storage = Mutex<[Habit.ID: HabitHistory]>([:])

  var snapshot: [Habit.ID: HabitHistory] { storage.withLock { $0 } }

  /// `client`, noting what it stores.
  func tracking(_ client: HabitClient) -> HabitClient {
    storage.withLock { $0 = [:] }
    var tracked = client
    tracked.addHabit = { [self] name in
      let habit = try await client.addHabit(name)
      storage.withLock { $0[habit.id] = HabitHistory(habit: habit, days: []) }
      return habit
    }
    tracked.updateHabit = { [self] id, name in
      let habit = try await client.updateHabit(id, name)
      storage.withLock { $0[id]?.habit = habit }
      return habit
    }
    tracked.archiveHabit = { [self] id in
      let habit = try await client.archiveHabit(id)
      storage.withLock { $0[id]?.habit = habit }
      return habit
    }
    tracked.unarchiveHabit = { [self] id in
      let habit = try await client.unarchiveHabit(id)
      storage.withLock { $0[id]?.habit = habit }
      return habit
    }
    tracked.deleteHabit = { [self] id in
      let habit = try await client.deleteHabit(id)
      _ = storage.withLock { $0.removeValue(forKey: id) }
      return habit
    }
    tracked.addCompletion = { [self] id, day in
      let completion = try await client.addCompletion(id, day)
      storage.withLock { $0[id]?.insert(day) }
      return completion
    }
    tracked.deleteCompletion = { [self] id, day in
      let completion = try await client.deleteCompletion(id, day)
      storage.withLock { $0[id]?.remove(day) }
      return completion
    }
    return tracked
  }
}
