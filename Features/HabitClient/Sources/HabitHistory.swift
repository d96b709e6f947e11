import Foundation

/// A habit and the days it was completed on: what a list row or a detail screen shows, and
/// what streaks, rates and heat maps are computed from.
///
/// ```swift
/// let history = try await habitClient.fetchHistories().first
/// let stats = history.stats(createdOn: createdOn, today: today)
/// ```
public struct HabitHistory: Equatable, Sendable, Codable, Identifiable {
  /// The habit.
  public var habit: Habit

  /// The days the habit was completed on, earliest first, each once.
  public private(set) var days: [Day]

  /// Creates a history.
  public init(habit: Habit, days: some Sequence<Day> = []) {
    self.habit = habit
    self.days = Array(Set(days)).sorted()
  }

  /// The habit's id.
  public var id: Habit.ID { habit.id }

  /// Whether the habit was completed on `day`.
  ///
  /// - Parameter day: The day.
  /// - Returns: `true` when `day` is one of ``days``.
  /// - Complexity: O(log *n*), where *n* is the number of days.
  public func isCompleted(on day: Day) -> Bool {
    let index = insertionIndex(of: day)
    return index < days.endIndex && days[index] == day
  }

  /// Records a completion on `day`; nothing changes when it is recorded already.
  ///
  /// - Parameter day: The day.
  /// - Complexity: O(*n*), where *n* is the number of days.
  public mutating func insert(_ day: Day) {
    let index = insertionIndex(of: day)
    guard index == days.endIndex || days[index] != day else { return }
    days.insert(day, at: index)
  }

  /// Removes the completion on `day`; nothing changes when there is none.
  ///
  /// - Parameter day: The day.
  /// - Complexity: O(*n*), where *n* is the number of days.
  public mutating func remove(_ day: Day) {
    let index = insertionIndex(of: day)
    guard index < days.endIndex, days[index] == day else { return }
    days.remove(at: index)
  }

  /// The habit's streaks and recent completion rate.
  ///
  /// - Parameters:
  ///   - createdOn: The day the habit was created, in the user's time zone.
  ///   - today: Today, in the user's time zone.
  /// - Returns: The statistics.
  public func stats(createdOn: Day, today: Day) -> HabitStats {
    HabitStats(days: days, createdOn: createdOn, today: today)
  }

  /// The position of the first day not earlier than `day`.
  private func insertionIndex(of day: Day) -> Int {
    var low = days.startIndex
    var high = days.endIndex
    while low < high {
      let middle = (low + high) / 2
      if days[middle] < day { low = middle + 1 } else { high = middle }
    }
    return low
  }
}
