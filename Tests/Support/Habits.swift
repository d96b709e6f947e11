import Foundation
import HabitClient
import HabitClientLive
import Loop
import Persistence

/// Runs `body` with a context on a fresh container of `backend` holding the habit models (an
/// SQLite file in a temporary folder for `.sqlite`, removed afterwards).
public func withContext<R>(
  _ backend: Backend, _ body: (ModelContext) async throws -> R
) async throws -> R {
  let folder = temporaryFolder("HabitClientTests")
  defer { Backend.removeStorage(in: folder) }
  let storage = backend.storage(file: "habits.sqlite", in: folder)
  let container = try ModelContainer(for: HabitClient.models, storage: storage)
  return try await body(ModelContext(container))
}

/// Runs `body` with a habits client on a fresh, empty `storage`: the interface's
/// `HabitClient.inMemory()`, or `live(context:)` on a container.
@discardableResult
public func withHabitClient<R>(
  _ storage: ClientStorage, _ body: (HabitClient) async throws -> R
) async throws -> R {
  switch storage {
  case .inMemoryValue:
    return try await body(HabitClient.inMemory())
  case .container(let backend):
    return try await withContext(backend) { context in
      try await body(HabitClient.live(context: context))
    }
  }
}

/// Runs `body` with dependencies fixed: `date`, `timeZone`, and `uuid` (counting up across the
/// calls that share `uuid`).
public func at<R>(
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
public func date(_ text: String) -> Date {
  guard let date = ISO8601DateFormatter().date(from: text) else {
    preconditionFailure("'\(text)' is not an ISO 8601 date")
  }
  return date
}

/// The day a `yyyy-mm-dd` string names.
public func day(_ text: String) -> Day {
  guard let day = Day(text) else { preconditionFailure("'\(text)' is not a day") }
  return day
}

/// The habit id whose UUID counts `value`, as `UUIDGenerator.incrementing` makes them.
public func habitID(_ value: UInt64) -> Habit.ID { id(value) }

/// A habit, for seeding repositories directly.
public func habit(
  _ value: UInt64, _ name: String, createdAt: Date, archivedAt: Date? = nil
) throws -> Habit {
  try Habit(id: habitID(value), name: name, createdAt: createdAt, archivedAt: archivedAt)
}
