import Foundation
import Loop
import Persistence

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

// MARK: - Storage

extension Completion.ID: ColumnValue {
  /// ``ColumnType/text``: the habit's UUID and the day, as `UUID/yyyy-mm-dd`.
  public static var columnType: ColumnType { .text }

  /// Returns `UUID/yyyy-mm-dd` as ``SQLValue/text(_:)``.
  ///
  /// - Returns: The text value.
  public func encodeColumn() -> SQLValue { .text("\(habitID)/\(day)") }

  /// Reads `UUID/yyyy-mm-dd`.
  ///
  /// - Parameter value: The stored value.
  /// - Throws: When the value is not text of that form.
  public init(decodingColumn value: SQLValue) throws {
    let text = try String(decodingColumn: value)
    let parts = text.split(separator: "/")
    guard parts.count == 2, let uuid = UUID(uuidString: String(parts[0])),
      let day = Day(String(parts[1]))
    else { throw CompletionIDColumnError(text: text) }
    self.init(habitID: Habit.ID(uuid), day: day)
  }
}

/// The reason a stored value is not a ``Completion/ID``, reported inside a `PersistenceError`.
private struct CompletionIDColumnError: Error, CustomStringConvertible {
  let text: String

  var description: String { "'\(text)' is not a completion id written UUID/yyyy-mm-dd" }
}

extension Completion: PersistentModel {
  /// The `habit_completions` table; its id column is derived from the habit and the day, so the
  /// storage itself refuses a second completion of a habit on a day.
  public static let schema = Schema<Completion>(
    table: "habit_completions",
    columns: [
      Column(\.id, "id"),
      Column(\.habitID, "habit_id"),
      Column(\.day, "day"),
      Column(\.createdAt, "created_at"),
    ],
    indexes: [Index(\.habitID, \.day)]
  )

  /// Rebuilds a stored completion.
  ///
  /// - Parameter row: The stored values.
  /// - Throws: `PersistenceError.decodingFailed` for a value that does not decode.
  public init(row: Row<Completion>) throws {
    habitID = try row[\.habitID]
    day = try row[\.day]
    createdAt = try row[\.createdAt]
  }
}
