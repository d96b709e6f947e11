import Foundation

/// Every habit and completion, as ``HabitClient/exportHabits`` returns them and
/// ``HabitClient/restoreHabits`` takes them back, with their ids and dates.
///
/// Habits are in list order (``Habit/isListed(_:before:)``); completions are grouped by habit
/// in that order, each habit's by day.
public struct HabitArchive: Equatable, Sendable, Codable {
  /// Every habit.
  public var habits: [Habit]
  /// Every completion.
  public var completions: [Completion]

  /// Creates an archive.
  public init(habits: [Habit] = [], completions: [Completion] = []) {
    self.habits = habits
    self.completions = completions
  }
}
