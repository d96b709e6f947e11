import AppFeature
import Foundation
import HabitClient
import Habits
import Interchange
import Loop

/// The `habit` commands: each resolves its ref in the loaded habits, sends the Habits feature's
/// action, and prints what the state then shows.
enum HabitCommands {
  /// The commands, in the order `help` lists them.
  static let all = [
    add, list, done, undo, rename, archive, unarchive, show, remove,
    InterchangeCommands.exporting(
      .habits, noun: .habit, formats: [.json, .csv],
      summary: "Export the habits and their completions as JSON or CSV."),
  ]

  private static let name = Argument("name", help: "the habit's name")

  /// `habit add <name>`: ``Habits/Habits/Action/addSubmitted(name:)``, answered by the
  /// habit created.
  static let add = Command(
    noun: .habit, verb: "add", summary: "Start tracking a habit.", name
  ) { session, name throws(CommandError) in
    let added = try await session.send(.habits(.addSubmitted(name: name))) {
      if case .habits(.addResponse(.success(let habit))) = $0 { habit } else { nil }
    }
    guard let added else { return }
    session.console.print("Added habit '\(added.name)' (\(session.shortRef(of: added.id))).")
  }

  /// `habit list`: ``Habits/Habits/Action/onAppear``, then the list.
  static let list = Command.listing(
    noun: .habit, summary: "List the habits with today's progress and streaks.",
    json: { session, window in window.apply(to: session.store.state.habits.habits.elements) },
    text: { session, window in
      HabitRenderer(environment: session.environment, style: session.style)
        .list(session.store.state.habits, window: window)
    })

  /// `habit done <ref> [--on DAY]`: ``Habits/Habits/Action/completeSubmitted(_:day:)``.
  static let done = onHabitDay(
    "done", summary: "Mark a habit done today, or on an earlier day.",
    action: { .completeSubmitted($0, day: $1) },
    done: { session, history, day in
      let habits = session.store.state.habits
      let note = HabitRenderer(environment: session.environment, style: session.style)
        .streakNote(of: habits.habits[id: history.id], today: habits.today)
      return "Done: '\(history.habit.name)' on \(day).\(note)"
    })

  /// `habit undo <ref> [--on DAY]`: ``Habits/Habits/Action/uncompleteSubmitted(_:day:)``.
  static let undo = onHabitDay(
    "undo", summary: "Take back a habit's completion.",
    action: { .uncompleteSubmitted($0, day: $1) },
    done: { _, history, day in "Undone: '\(history.habit.name)' is not done on \(day)." })

  /// A command on the habit `<ref>` names and a day (`--on`, today by default): sends one
  /// action about them, prints one line.
  private static func onHabitDay(
    _ verb: String, summary: String,
    action: @escaping @Sendable (Habit.ID, Day?) -> Habits.Action,
    done: @escaping @MainActor @Sendable (Session, HabitHistory, Day) -> String
  ) -> Command {
    Command(noun: .habit, verb: verb, summary: summary, Argument.ref(.habit), Option.day()) {
      session, ref, day throws(CommandError) in
      let history = try await session.habit(ref)
      try await session.send(.habits(action(history.id, day)))
      let shown = day ?? session.store.state.habits.today ?? session.environment.today
      session.console.print(done(session, history, shown))
    }
  }

  /// `habit rename <ref> <name>`: ``Habits/Habits/Action/renameSubmitted(_:name:)``.
  static let rename = Command(
    noun: .habit, verb: "rename", summary: "Rename a habit.", Argument.ref(.habit),
    Argument("name", help: "the habit's new name")
  ) { session, ref, name throws(CommandError) in
    let history = try await session.habit(ref)
    try await session.send(.habits(.renameSubmitted(history.id, name: name)))
    let renamed = session.store.state.habits.habits[id: history.id]?.habit.name ?? ""
    session.console.print("Renamed '\(history.habit.name)' to '\(renamed)'.")
  }

  /// `habit archive <ref>`: ``Habits/Habits/Action/archiveSubmitted(_:)``.
  static let archive = onHabit(
    "archive", summary: "Archive a habit: it keeps its history but takes no completions.",
    action: { .archiveSubmitted($0.id) }, done: { "Archived '\($0.habit.name)'." })

  /// `habit unarchive <ref>`: ``Habits/Habits/Action/unarchiveSubmitted(_:)``.
  static let unarchive = onHabit(
    "unarchive", summary: "Make an archived habit active again.",
    action: { .unarchiveSubmitted($0.id) }, done: { "'\($0.habit.name)' is active again." })

  /// A command on the habit `<ref>` names: sends one action about it, prints one line.
  private static func onHabit(
    _ verb: String, summary: String, action: @escaping @Sendable (HabitHistory) -> Habits.Action,
    done: @escaping @Sendable (HabitHistory) -> String
  ) -> Command {
    .onRef(
      noun: .habit, verb: verb, summary: summary,
      find: { session, ref throws(CommandError) in try await session.habit(ref) },
      action: { .habits(action($0)) }, done: { done($1) })
  }

  private static let weeks = Option(
    "weeks", valueName: "N", help: "how many weeks the heat map shows"
  ) { text throws(CommandError) in
    guard let count = Int(text) else { throw .usage("'\(text)' is not a number of weeks") }
    let counts = HabitDetail.weekCounts
    guard counts.contains(count) else {
      throw CommandError(
        "The heat map shows \(counts.lowerBound) to \(counts.upperBound) weeks: '\(count)' is "
          + "not one of them.")
    }
    return count
  }

  /// `habit show <ref> [--weeks N]`: ``Habits/Habits/Action/habitSelected(_:)``, then
  /// `.destination(.presented(.detail(.weekCountChanged(N))))`, then the detail.
  static let show = Command(
    noun: .habit, verb: "show", summary: "Show a habit's streaks and a heat map of its last weeks.",
    Argument.ref(.habit), weeks, Option.format
  ) { session, ref, weekCount, format throws(CommandError) in
    let history = try await session.habit(ref)
    try await session.send(.habits(.habitSelected(history.id)))
    if let weekCount {
      try await session.send(
        .habits(.destination(.presented(.detail(.weekCountChanged(weekCount))))))
    }
    guard let detail = session.store.state.habits.destination?.detail else { return }
    let json = HabitDetailOutput(
      habit: detail.history.habit, days: detail.history.days, stats: detail.stats,
      heatMap: detail.heatMap)
    try await session.printListing(format, json: json) {
      HabitRenderer(environment: session.environment, style: session.style)
        .detail(detail, ref: session.shortRef(of: history.id))
    }
  }

  /// `habit rm <ref> [--yes]`: ``Habits/Habits/Action/deleteSubmitted(_:)``, then the
  /// answer to the alert it presents: its yes (`.confirmDeletion`), or its dismissal.
  static let remove = Command(
    noun: .habit, verb: "rm", summary: "Delete a habit and its history (asks first).",
    Argument.ref(.habit), Option.yes
  ) { session, ref, yes throws(CommandError) in
    let history = try await session.habit(ref)
    let name = history.habit.name
    try await session.send(.habits(.deleteSubmitted(history.id)))
    // NB: a failure an earlier command showed may still be presented; it asks nothing.
    guard let alert = session.store.state.habits.destination?.alert, alert.yes != nil else {
      return
    }
    guard
      let answer = try await session.answer(
        alert, yes: yes, dismiss: .habits(.destination(.dismiss)), deleting: "'\(name)'",
        retry: "habit rm \(ref.text) --yes")
    else {
      session.console.print("Kept '\(name)'.")
      return
    }
    try await session.send(.habits(.destination(.presented(.alert(answer)))))
    session.console.print("Deleted '\(name)'.")
  }
}

/// What `habit show --format json` prints: the habit, its days, its statistics and its heat map.
struct HabitDetailOutput: Encodable {
  var habit: Habit
  var days: [Day]
  var stats: HabitStats
  var heatMap: HeatMap
}
