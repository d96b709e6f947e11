import Foundation
import HabitClient
import Loop
import Persistence

// How the habit models are stored: their tables, and their values' columns.

extension Habit: PersistentModel {
  /// The `habits` table.
  public static let schema = Schema<Habit>(
    table: "habits",
    columns: [
      Column(\.id, "id"),
      Column(\.name, "name"),
      Column(\.createdAt, "created_at"),
      Column(\.archivedAt, "archived_at"),
    ],
    indexes: [Index(\.createdAt)]
  )

  /// Rebuilds a stored habit.
  ///
  /// - Parameter row: The stored values.
  /// - Throws: `PersistenceError.decodingFailed` for a value that does not decode.
  public init(row: Row<Habit>) throws {
    try self.init(
      storedID: row[\.id], name: row[\.name], createdAt: row[\.createdAt],
      archivedAt: row[\.archivedAt])
  }
}

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
    try self.init(habitID: row[\.habitID], day: row[\.day], createdAt: row[\.createdAt])
  }
}

extension Day: ColumnValue {
  /// ``ColumnType/integer``: the day is stored as `yyyymmdd`.
  public static var columnType: ColumnType { .integer }

  /// ``ColumnComparability/ordering``: `yyyymmdd` sorts as days do.
  public static var comparability: ColumnComparability { .ordering }

  /// Returns `yyyymmdd` as ``SQLValue/integer(_:)``.
  ///
  /// - Returns: The integer value.
  public func encodeColumn() -> SQLValue { .integer(Int64(year * 10_000 + month * 100 + day)) }

  /// Reads `yyyymmdd`.
  ///
  /// - Parameter value: The stored value.
  /// - Throws: When the value is not an integer `yyyymmdd` naming a valid day.
  public init(decodingColumn value: SQLValue) throws {
    guard case .integer(let number) = value, number > 0, number <= 99_991_231,
      let day = Day(
        year: Int(number / 10_000), month: Int(number / 100 % 100), day: Int(number % 100))
    else { throw DayColumnError(value: value) }
    self = day
  }
}

/// The reason a stored value is not a ``Day``, reported inside a `PersistenceError`.
private struct DayColumnError: Error, CustomStringConvertible {
  let value: SQLValue

  var description: String { "\(value) is not a day stored as yyyymmdd" }
}
