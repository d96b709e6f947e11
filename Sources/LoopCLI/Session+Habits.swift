import AppFeature
import Foundation
import HabitClient
import Habits
import Loop

// The `habit` commands: each resolves its ref in the loaded habits, sends the Habits feature's
// action, and prints what the state then shows.
extension Session {
  /// `habit add <name>`: ``Habits/Habits/Action/addHabitSubmitted(name:)``.
  func habitAdd(_ invocation: Invocation) async throws(CommandError) {
    let before = Self.ids(of: store.state.habits.habits)
    try await send(.habits(.addHabitSubmitted(name: invocation[argument: "name"] ?? "")))
    let habits = store.state.habits.habits
    let after = Self.ids(of: habits)
    guard let index = ListChange.firstAdded(to: before, in: after) else { return }
    let ref = Ref.short(after[index], length: habitRefLengths.length(ofIDs: after))
    console.print("Added habit '\(habits[index].habit.name)' (\(ref)).")
  }

  /// `habit list`: ``Habits/Habits/Action/onAppear``, then the list.
  func habitList(_ invocation: Invocation) async throws(CommandError) {
    try await reload(.habit)
    let habits = store.state.habits
    if invocation.wantsJSON {
      try printJSON(habits.habits.elements)
      return
    }
    let renderer = HabitRenderer(environment: environment, style: style)
    for line in renderer.list(habits) { console.print(line) }
  }

  /// `habit done <ref> [--on DAY]`: ``Habits/Habits/Action/completeButtonTapped(_:day:)``.
  func habitDone(_ invocation: Invocation) async throws(CommandError) {
    let day = try self.day(invocation[option: "on"])
    let history = try await habit(invocation)
    try await send(.habits(.completeButtonTapped(history.id, day: day)))
    let shown = day ?? store.state.habits.today ?? environment.today
    console.print("Done: '\(history.habit.name)' on \(shown).\(streakNote(of: history.id))")
  }

  /// `habit undo <ref> [--on DAY]`: ``Habits/Habits/Action/uncompleteButtonTapped(_:day:)``.
  func habitUndo(_ invocation: Invocation) async throws(CommandError) {
    let day = try self.day(invocation[option: "on"])
    let history = try await habit(invocation)
    try await send(.habits(.uncompleteButtonTapped(history.id, day: day)))
    let shown = day ?? store.state.habits.today ?? environment.today
    console.print("Undone: '\(history.habit.name)' is not done on \(shown).")
  }

  /// `habit rename <ref> <name>`: ``Habits/Habits/Action/renameSubmitted(_:name:)``.
  func habitRename(_ invocation: Invocation) async throws(CommandError) {
    let history = try await habit(invocation)
    try await send(.habits(.renameSubmitted(history.id, name: invocation[argument: "name"] ?? "")))
    let name = store.state.habits.habits[id: history.id]?.habit.name ?? ""
    console.print("Renamed '\(history.habit.name)' to '\(name)'.")
  }

  /// `habit archive <ref>`: ``Habits/Habits/Action/archiveButtonTapped(_:)``.
  func habitArchive(_ invocation: Invocation) async throws(CommandError) {
    let history = try await habit(invocation)
    try await send(.habits(.archiveButtonTapped(history.id)))
    console.print("Archived '\(history.habit.name)'.")
  }

  /// `habit unarchive <ref>`: ``Habits/Habits/Action/unarchiveButtonTapped(_:)``.
  func habitUnarchive(_ invocation: Invocation) async throws(CommandError) {
    let history = try await habit(invocation)
    try await send(.habits(.unarchiveButtonTapped(history.id)))
    console.print("'\(history.habit.name)' is active again.")
  }

  /// `habit show <ref> [--weeks N]`: ``Habits/Habits/Action/habitTapped(_:)``, then
  /// `.destination(.presented(.detail(.weekCountChanged(N))))`, then the detail.
  func habitShow(_ invocation: Invocation) async throws(CommandError) {
    var weeks: Int?
    if let text = invocation[option: "weeks"] {
      guard let count = Int(text) else {
        throw invocation.spec.usageError("'\(text)' is not a number of weeks")
      }
      weeks = count
    }
    let history = try await habit(invocation)
    try await send(.habits(.habitTapped(history.id)))
    if let weeks {
      try await send(.habits(.destination(.presented(.detail(.weekCountChanged(weeks))))))
    }
    guard let detail = store.state.habits.destination?.detail else { return }
    if invocation.wantsJSON {
      try printJSON(
        HabitDetailOutput(
          habit: detail.history.habit, days: detail.history.days, stats: detail.stats,
          heatMap: detail.heatMap))
      return
    }
    let renderer = HabitRenderer(environment: environment, style: style)
    for line in renderer.detail(detail, ref: shortRef(of: history.id)) { console.print(line) }
  }

  /// `habit rm <ref> [--yes]`: ``Habits/Habits/Action/deleteButtonTapped(_:)``, then the
  /// user's answer to the confirmation it presents: `.confirmTapped`, or its dismissal.
  func habitRemove(_ invocation: Invocation) async throws(CommandError) {
    let history = try await habit(invocation)
    try await send(.habits(.deleteButtonTapped(history.id)))
    guard let confirmation = store.state.habits.destination?.deletion else { return }
    let confirmed: Bool
    if invocation.has("yes") {
      confirmed = true
    } else if configuration.mode == .interactive {
      confirmed = confirm(confirmation.message)
    } else {
      try await send(.habits(.destination(.dismiss)))
      throw CommandError(
        "deleting '\(confirmation.name)' needs a confirmation",
        hints: [
          "add --yes to delete without asking: 'habit rm \(invocation[argument: "ref"] ?? "") --yes'"
        ])
    }
    guard confirmed else {
      try await send(.habits(.destination(.dismiss)))
      console.print("Kept '\(confirmation.name)'.")
      return
    }
    try await send(.habits(.destination(.presented(.deletion(.confirmTapped)))))
    console.print("Deleted '\(confirmation.name)'.")
  }

  // MARK: - Helpers

  /// The habit the command's `<ref>` names, loading the habits first if needed.
  private func habit(_ invocation: Invocation) async throws(CommandError) -> HabitHistory {
    try await load(.habit)
    return try Ref.resolve(
      invocation[argument: "ref"] ?? "", in: store.state.habits.habits.elements,
      id: \.id.rawValue, label: \.habit.name, noun: "habit", listing: "habit list")
  }

  /// The short ref of a habit among the loaded ones.
  private func shortRef(of id: Habit.ID) -> String {
    let length = habitRefLengths.length(ofIDs: Self.ids(of: store.state.habits.habits))
    return Ref.short(id.rawValue, length: length)
  }

  /// The habits' ids, in order.
  ///
  /// NB: nonisolated, and read through stored properties: a closure made on the main actor
  /// checks the executor each time it runs, and `HabitHistory.id` copied each habit it read.
  private nonisolated static func ids(of habits: IdentifiedArrayOf<HabitHistory>) -> [UUID] {
    habits.elements.map { $0.habit.id.rawValue }
  }

  /// " Streak: 3 days." after a completion.
  private func streakNote(of id: Habit.ID) -> String {
    guard let history = store.state.habits.habits[id: id],
      let today = store.state.habits.today
    else { return "" }
    let streak = history.stats(
      createdOn: environment.day(of: history.habit.createdAt), today: today
    ).currentStreak
    return streak > 0 ? " Streak: \(HabitRenderer.days(streak))." : ""
  }
}

/// What `habit show --format json` prints: the habit, its days, its statistics and its heat map.
struct HabitDetailOutput: Encodable {
  var habit: Habit
  var days: [Day]
  var stats: HabitStats
  var heatMap: HeatMap
}
