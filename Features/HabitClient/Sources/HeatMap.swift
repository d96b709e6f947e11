/// A calendar of the last weeks of a habit, one cell per day, ready to draw: weeks as rows of
/// seven days, each marked completed, missed, in the future or before the habit existed.
///
/// The last row is the current week, which contains today; weeks start on the user's first
/// weekday (`Calendar.firstWeekday`, 1 for Sunday, 2 for Monday):
///
/// ```swift
/// let map = HeatMap(
///   weeks: 12, days: history.days, createdOn: createdOn, today: today,
///   firstWeekday: calendar.firstWeekday)
/// for week in map.weeks {
///   print(week.map { $0.status == .completed ? "■" : "·" }.joined())
/// }
/// ```
public struct HeatMap: Equatable, Sendable, Codable {
  /// What a day's cell shows.
  public enum Status: String, Equatable, Sendable, Codable {
    /// The habit was completed on the day.
    case completed
    /// The habit was tracked on the day but not completed.
    case missed
    /// The day is after today.
    case future
    /// The day is before the habit was tracked (before its creation, or its earliest
    /// completion when that is earlier).
    case beforeCreation
  }

  /// One day of the map.
  public struct Cell: Equatable, Sendable, Codable {
    /// The day.
    public var day: Day
    /// What it shows.
    public var status: Status

    /// Creates a cell.
    public init(day: Day, status: Status) {
      self.day = day
      self.status = status
    }
  }

  /// The weekday each week starts on: 1 is Sunday, 7 is Saturday.
  public var firstWeekday: Int

  /// The weeks, oldest first, each seven cells from ``firstWeekday`` on.
  public var weeks: [[Cell]]

  /// Builds the map of the last `count` weeks.
  ///
  /// - Parameters:
  ///   - count: How many weeks, the current one included; none when it is not positive.
  ///   - days: The days the habit was completed on, in any order.
  ///   - createdOn: The day the habit was created.
  ///   - today: Today.
  ///   - firstWeekday: The weekday weeks start on, from 1 (Sunday) to 7 (Saturday).
  /// - Complexity: O(*n* + *w*), where *n* is the number of days and *w* the number of weeks.
  public init(
    weeks count: Int, days: some Sequence<Day>, createdOn: Day, today: Day, firstWeekday: Int
  ) {
    precondition(
      (1...7).contains(firstWeekday),
      "firstWeekday must be from 1 (Sunday) to 7 (Saturday), as Calendar numbers weekdays; "
        + "it is \(firstWeekday).")
    let completed = Set(days)
    let trackedSince = min(createdOn, completed.min() ?? createdOn)
    let currentWeekStart = today.advanced(by: -((today.weekday - firstWeekday + 7) % 7))
    let weekCount = max(0, count)
    self.firstWeekday = firstWeekday
    self.weeks = (0..<weekCount).map { week in
      let start = currentWeekStart.advanced(by: -7 * (weekCount - 1 - week))
      return (0..<7).map { offset in
        let day = start.advanced(by: offset)
        let status: Status
        if completed.contains(day) {
          status = .completed
        } else if day > today {
          status = .future
        } else if day < trackedSince {
          status = .beforeCreation
        } else {
          status = .missed
        }
        return Cell(day: day, status: status)
      }
    }
  }
}
