import Foundation
import HabitClient
import LoopTesting
import Testing

/// The instant an ISO 8601 string names, such as `2025-03-01T23:30:00-05:00`.
func date(_ text: String) -> Date {
  guard let date = ISO8601DateFormatter().date(from: text) else {
    preconditionFailure("'\(text)' is not an ISO 8601 date")
  }
  return date
}

/// The day a `yyyy-mm-dd` string names.
func day(_ text: String) -> Day {
  guard let day = Day(text) else { preconditionFailure("'\(text)' is not a day") }
  return day
}

/// The habit id whose UUID counts `value`, as `UUIDGenerator.incrementing` makes them.
func habitID(_ value: UInt64) -> Habit.ID {
  Habit.ID(UUID(counting: value))
}

/// Runs `body` (a call to the client, to seed it) with `date`, `timeZone` and `uuid` fixed.
func at<R>(
  _ now: Date, in timeZone: TimeZone = .utc, uuid: UUIDGenerator,
  isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> R
) async throws -> R {
  try await withDependencies {
    $0.date = .constant(now)
    $0.timeZone = timeZone
    $0.uuid = uuid
  } operation: {
    try await body()
  }
}

extension TimeZone {
  static let utc = zone("UTC")
  static let newYork = zone("America/New_York")
  static let tokyo = zone("Asia/Tokyo")

  private static func zone(_ identifier: String) -> TimeZone {
    guard let zone = TimeZone(identifier: identifier) else {
      preconditionFailure("no time zone '\(identifier)'")
    }
    return zone
  }
}

extension Calendar {
  /// The Gregorian calendar with weeks starting on `firstWeekday` (1 is Sunday, 2 Monday).
  static func gregorian(firstWeekday: Int) -> Calendar {
    var calendar = Calendar(identifier: .gregorian)
    calendar.firstWeekday = firstWeekday
    calendar.timeZone = .utc
    return calendar
  }
}
