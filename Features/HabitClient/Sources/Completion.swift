import Foundation
import Loop

/// A record that a habit was done on a day.
///
/// A completion is identified by its habit and its day: a habit is done on a day or it is not,
/// so there is never a second record for the same pair (inserting one fails with
/// ``HabitError/duplicateCompletion(_:_:)``). Completions are added and removed, never edited.
public struct Completion: Equatable, Sendable, Codable, Identifiable {
  /// A completion's identifier: its habit and its day.
  public struct ID: Hashable, Sendable {
    /// The habit that was done.
    public var habitID: Habit.ID

    /// The day it was done on.
    public var day: Day

    /// Creates an identifier.
    public init(habitID: Habit.ID, day: Day) {
      self.habitID = habitID
      self.day = day
    }
  }

  /// The habit that was done.
  public var habitID: Habit.ID

  /// The day it was done on, in the user's time zone when it was recorded.
  public var day: Day

  /// When the completion was recorded (it may be later than ``day``: a day can be filled in
  /// afterwards).
  public var createdAt: Date

  /// Creates a completion.
  public init(habitID: Habit.ID, day: Day, createdAt: Date) {
    self.habitID = habitID
    self.day = day
    self.createdAt = createdAt
  }

  /// The completion's identifier: its habit and its day.
  public var id: ID { ID(habitID: habitID, day: day) }
}
