import HabitClient
import Habits
import Loop
import Persistence

/// The habit tracker as text: the list with today's progress, and one habit's statistics and
/// heat map.
struct HabitRenderer {
  var environment: AppEnvironment
  var style: Style

  /// The weekdays' short names, Sunday first (as `Day.weekday` numbers them, from 1).
  static let weekdayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

  /// `1 day`, `3 days`.
  static func days(_ count: Int) -> String {
    count == 1 ? "1 day" : "\(count) days"
  }

  /// The list: one row per habit in `window`, in the feature's order (active first, oldest
  /// first), each ref as long as the whole list needs.
  func list(_ state: Habits.State, window: RowWindow = .all) -> [String] {
    guard !state.habits.isEmpty else {
      return ["No habits yet: add one with 'habit add <name>'."]
    }
    let today = state.today ?? environment.today
    let length = Ref.length(for: state.habits.ids.map(\.rawValue))
    var table = Table(columns: [
      Table.Column(header: "REF", style: style.yellow),
      Table.Column(header: "HABIT", isCut: true),
      Table.Column(header: "TODAY", style: { $0 == "✓" ? style.green($0) : style.dim($0) }),
      Table.Column(header: "STREAK", alignment: .right),
      Table.Column(header: "LONGEST", alignment: .right),
      Table.Column(header: "30 DAYS", alignment: .right),
    ])
    for history in window.apply(to: state.habits.elements) {
      let stats = history.stats(
        createdOn: environment.day(of: history.habit.createdAt), today: today)
      let isArchived = history.habit.isArchived
      table.rows.append([
        Ref.short(history.id.rawValue, length: length),
        history.habit.name + (isArchived ? " (archived)" : ""),
        isArchived ? "" : (history.isCompleted(on: today) ? "✓" : "·"),
        Self.days(stats.currentStreak),
        Self.days(stats.longestStreak),
        Self.percent(stats.completionRate),
      ])
    }
    return table.render(style: style)
  }

  /// One habit: when it was created, its streaks and rate, and the heat map of its last weeks.
  func detail(_ detail: HabitDetail.State, ref: String) -> [String] {
    let habit = detail.history.habit
    let stats = detail.stats
    var lines = [
      "\(style.bold(habit.name)) \(style.yellow(ref))\(habit.isArchived ? " (archived)" : "")",
      "created         \(detail.createdOn)",
      "current streak  \(Self.days(stats.currentStreak))",
      "longest streak  \(Self.days(stats.longestStreak))",
      "last 30 days    \(stats.completedDays) of \(Self.days(stats.trackedDays))"
        + " (\(Self.percent(stats.completionRate)))",
      "",
    ]
    lines += heatMap(detail.heatMap)
    return lines
  }

  /// The heat map: one row per weekday, one column per week, oldest on the left.
  func heatMap(_ map: HeatMap) -> [String] {
    guard let first = map.weeks.first?.first?.day, let last = map.weeks.last?.last?.day else {
      return []
    }
    var lines = ["\(Self.weeks(map.weeks.count)) from \(first) to \(last)"]
    for row in 0..<7 {
      let weekday = (map.firstWeekday - 1 + row) % 7
      let cells = map.weeks.map { week in cell(week[row].status) }
      lines.append("\(Self.weekdayNames[weekday])  " + cells.joined(separator: " "))
    }
    lines.append("\(cell(.completed)) done  \(cell(.missed)) missed")
    return lines.map { line in
      var trimmed = line
      while trimmed.last == " " { trimmed.removeLast() }
      return trimmed
    }
  }

  private func cell(_ status: HeatMap.Status) -> String {
    switch status {
    case .completed: style.green("■")
    case .missed: style.dim("·")
    case .future, .beforeCreation: " "
    }
  }

  /// `1 week`, `12 weeks`.
  private static func weeks(_ count: Int) -> String {
    count == 1 ? "1 week" : "\(count) weeks"
  }

  /// A rate from 0 to 1 as a whole percentage: `43%`.
  static func percent(_ rate: Double) -> String {
    "\(Int((rate * 100).rounded()))%"
  }

  /// " Streak: 3 days." after a completion of `history` (nothing without a streak).
  func streakNote(of history: HabitHistory?, today: Day?) -> String {
    guard let history, let today else { return "" }
    let streak = history.stats(
      createdOn: environment.day(of: history.habit.createdAt), today: today
    ).currentStreak
    return streak > 0 ? " Streak: \(Self.days(streak))." : ""
  }
}
