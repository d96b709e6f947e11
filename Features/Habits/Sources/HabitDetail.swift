import HabitClient
import Loop

/// One habit up close: its streaks, its completion rate and a heat map of its last weeks.
///
/// The list (``Habits``) presents it (``Habits/Destination/State/detail(_:)``) with its habit's
/// history shared from the list's (so a completion the list records is the detail's at once),
/// notes today on it at each user action, and closes it on `.destination(.dismiss)` or when the
/// habit leaves the list; the detail itself only chooses how many weeks the heat map shows.
///
/// ```swift
/// guard let history = Shared(state.$habits[id: id]) else { return .none }
/// state.destination = .detail(
///   HabitDetail.State(history: history, createdOn: createdOn, today: today, firstWeekday: 1))
///
/// let detail = store.state.destination?.detail
/// detail?.stats.currentStreak  // 3
/// detail?.heatMap.weeks        // weekCount rows of 7 cells
/// ```
public struct HabitDetail: Reducer {
  /// The weeks a heat map can show.
  public static let weekCounts = 1...520

  /// The detail's state: the habit's history and the days its statistics are computed for.
  public struct State: Equatable, Sendable {
    /// The habit and the days it was completed on: the list's, shared.
    @Shared public var history: HabitHistory

    /// The day the habit was created, in the user's time zone.
    public var createdOn: Day

    /// Today, in the user's time zone.
    public var today: Day

    /// The weekday heat-map weeks start on (`Calendar.firstWeekday`: 1 is Sunday).
    public var firstWeekday: Int

    /// How many weeks the heat map shows, the current one included.
    public var weekCount: Int

    /// Creates the state; the heat map shows 12 weeks unless told otherwise.
    public init(
      history: Shared<HabitHistory>, createdOn: Day, today: Day, firstWeekday: Int,
      weekCount: Int = 12
    ) {
      self._history = history
      self.createdOn = createdOn
      self.today = today
      self.firstWeekday = firstWeekday
      self.weekCount = weekCount
    }

    /// The habit's streaks and completion rate over the last 30 days.
    public var stats: HabitStats {
      history.stats(createdOn: createdOn, today: today)
    }

    /// The heat map of the last ``weekCount`` weeks.
    public var heatMap: HeatMap {
      HeatMap(
        weeks: weekCount, days: history.days, createdOn: createdOn, today: today,
        firstWeekday: firstWeekday)
    }
  }

  /// What happens in the detail.
  public enum Action: Equatable, Sendable {
    /// The user chose how many weeks the heat map shows (`show --weeks 8`).
    case weekCountChanged(Int)
  }

  /// Creates the reducer.
  public init() {}

  /// Changes the heat map's week count; a count outside ``weekCounts`` changes nothing (the
  /// view offers only those, as the REPL's `--weeks` checks).
  ///
  /// - Parameters:
  ///   - state: The detail's state.
  ///   - action: The action.
  /// - Returns: No effect.
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .weekCountChanged(let count):
      guard Self.weekCounts.contains(count) else { return .none }
      state.weekCount = count
      return .none
    }
  }
}
