import Foundation
import HabitClient
import LoopTesting
import Persistence
import Testing

/// The two storages every repository and client test runs against.
enum Backend: String, CaseIterable, CustomTestStringConvertible {
  case inMemory
  case sqlite

  var testDescription: String { rawValue }
}

/// Runs `body` with a context on a fresh container of `backend` (an SQLite file in a temporary
/// folder for `.sqlite`, removed afterwards).
func withContext<R>(
  _ backend: Backend, _ body: (ModelContext) async throws -> R
) async throws -> R {
  switch backend {
  case .inMemory:
    let container = try ModelContainer(for: HabitClient.models, storage: .inMemory)
    return try await body(ModelContext(container))
  case .sqlite:
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("HabitClientTests-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("habits.sqlite").path
    let container = try ModelContainer(for: HabitClient.models, storage: .file(path))
    return try await body(ModelContext(container))
  }
}

/// Runs `body` with dependencies fixed: `date`, `timeZone`, and `uuid` (counting up across the
/// calls that share `uuid`).
func at<R>(
  _ now: Date, in timeZone: TimeZone = .utc, uuid: UUIDGenerator = .incrementing,
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

/// A habit, for seeding repositories directly.
func habit(
  _ value: UInt64, _ name: String, createdAt: Date, archivedAt: Date? = nil
) throws -> Habit {
  try Habit(id: habitID(value), name: name, createdAt: createdAt, archivedAt: archivedAt)
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
