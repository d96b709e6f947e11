/// A habit's streaks and its completion rate over the last 30 days.
///
/// Computed from the days a habit was completed on, the day it was created and today, all in
/// the user's time zone:
///
/// ```swift
/// let stats = HabitStats(days: history.days, createdOn: createdOn, today: today)
/// stats.currentStreak  // 3
/// ```
///
/// - The **current streak** counts the consecutive completed days ending today, or ending
///   yesterday while today is not done yet (a streak is not broken until the day is over).
/// - The **longest streak** is the longest run of consecutive completed days ever.
/// - Days after today (possible only after the user moved to a time zone that is behind the
///   one a day was completed in) count for the longest streak, not for the current one or the
///   rate.
/// - The **completion rate** is the share of the last 30 days (today and the 29 before it) that
///   are completed, counting only the days the habit was tracked: from the day it was created,
///   or from its earliest completion when that is earlier (which happens when the user moved to
///   a time zone where the creation fell on a later day).
public struct HabitStats: Equatable, Sendable, Codable {
  /// The number of days in the completion-rate window.
  public static let rateWindow = 30

  /// Consecutive completed days ending today, or yesterday while today is not done.
  public var currentStreak: Int

  /// The longest run of consecutive completed days.
  public var longestStreak: Int

  /// How many of the tracked days in the last 30 days are completed.
  public var completedDays: Int

  /// How many days in the last 30 days the habit was tracked (at most 30).
  public var trackedDays: Int

  /// ``completedDays`` divided by ``trackedDays``, from 0 to 1; 0 when nothing was tracked.
  public var completionRate: Double

  /// Creates statistics from their values (to compare with computed ones, say).
  public init(
    currentStreak: Int, longestStreak: Int, completedDays: Int, trackedDays: Int,
    completionRate: Double
  ) {
    self.currentStreak = currentStreak
    self.longestStreak = longestStreak
    self.completedDays = completedDays
    self.trackedDays = trackedDays
    self.completionRate = completionRate
  }

  /// Computes the statistics.
  ///
  /// - Parameters:
  ///   - days: The days the habit was completed on, in any order.
  ///   - createdOn: The day the habit was created.
  ///   - today: Today.
  /// - Complexity: O(*n* log *n*), where *n* is the number of days.
  public init(days: some Sequence<Day>, createdOn: Day, today: Day) {
    let completed = Set(days)
    let sorted = completed.sorted()

    var current = 0
    var day = completed.contains(today) ? today : today.advanced(by: -1)
    while completed.contains(day) {
      current += 1
      day = day.advanced(by: -1)
    }
    currentStreak = current

    var longest = 0
    var run = 0
    for (index, day) in sorted.enumerated() {
      let continues = index > 0 && sorted[index - 1].advanced(by: 1) == day
      run = continues ? run + 1 : 1
      longest = max(longest, run)
    }
    longestStreak = longest

    let trackedSince = min(createdOn, sorted.first ?? createdOn)
    let windowStart = max(today.advanced(by: -(Self.rateWindow - 1)), trackedSince)
    trackedDays = max(0, windowStart.distance(to: today) + 1)
    completedDays = sorted.count { $0 >= windowStart && $0 <= today }
    completionRate = trackedDays == 0 ? 0 : Double(completedDays) / Double(trackedDays)
  }
}
