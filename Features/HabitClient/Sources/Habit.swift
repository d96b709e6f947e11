import Foundation
import Loop

/// A habit the user tracks, such as "Read 20 pages": a name, when it was created, and whether
/// (since when) it is archived.
///
/// Its invariants hold by construction: the name is trimmed and never empty, and only
/// ``archive(on:)``, ``unarchive()`` and ``rename(to:)`` change it, each failing when the change
/// makes no sense:
///
/// ```swift
/// var habit = try Habit(id: id, name: "  Read ", createdAt: now)  // name == "Read"
/// try habit.archive(on: now)
/// try habit.archive(on: now)  // throws HabitError.alreadyArchived(name: "Read")
/// ```
public struct Habit: Equatable, Sendable, Identifiable {
  /// A habit's identifier: a UUID, typed so that it cannot be mixed up with other ids.
  public typealias ID = ModelID<Habit>

  /// The habit's identifier.
  public let id: ID

  /// The name: trimmed of surrounding whitespace, never empty.
  public private(set) var name: String

  /// When the habit was created.
  public let createdAt: Date

  /// When the habit was archived, or `nil` while it is active.
  public private(set) var archivedAt: Date?

  /// Creates a habit, trimming its name.
  ///
  /// - Parameters:
  ///   - id: The identifier.
  ///   - name: The name; whitespace and newlines around it are removed.
  ///   - createdAt: When the habit was created.
  ///   - archivedAt: When it was archived, or `nil` for an active habit.
  /// - Throws: ``HabitError/emptyName`` when the name is empty once trimmed.
  public init(id: ID, name: String, createdAt: Date, archivedAt: Date? = nil) throws(HabitError) {
    self.id = id
    self.name = try Self.validName(name)
    self.createdAt = createdAt
    self.archivedAt = archivedAt
  }

  /// A habit as it was stored, taken as it is: the storage wrote only habits that were valid.
  ///
  /// NB: `package`, for the live module's `init(row:)`, which cannot set the `private(set)`
  /// fields itself.
  package init(storedID id: ID, name: String, createdAt: Date, archivedAt: Date?) {
    self.id = id
    self.name = name
    self.createdAt = createdAt
    self.archivedAt = archivedAt
  }

  /// Whether the habit is archived: it keeps its history but takes no completions.
  public var isArchived: Bool { archivedAt != nil }

  /// Archives the habit as of `date`.
  ///
  /// - Parameter date: The moment of archiving ("now", from `@Dependency(\.date)`).
  /// - Throws: ``HabitError/alreadyArchived(name:)`` when it is archived already; the habit is
  ///   unchanged then.
  public mutating func archive(on date: Date) throws(HabitError) {
    guard archivedAt == nil else { throw .alreadyArchived(name: name) }
    archivedAt = date
  }

  /// Makes an archived habit active again.
  ///
  /// - Throws: ``HabitError/notArchived(name:)`` when it is active; the habit is unchanged then.
  public mutating func unarchive() throws(HabitError) {
    guard archivedAt != nil else { throw .notArchived(name: name) }
    archivedAt = nil
  }

  /// Gives the habit a new name, trimmed.
  ///
  /// - Parameter newName: The new name; whitespace and newlines around it are removed.
  /// - Throws: ``HabitError/emptyName`` when the name is empty once trimmed; the habit is
  ///   unchanged then.
  public mutating func rename(to newName: String) throws(HabitError) {
    name = try Self.validName(newName)
  }

  /// Whether `lhs` comes before `rhs` in a list of habits: active habits before archived ones,
  /// then by creation date, oldest first, then by id.
  ///
  /// It is the order of ``HabitClient/fetchHistories`` and ``HabitClient/exportHabits``.
  ///
  /// - Parameters:
  ///   - lhs: A habit.
  ///   - rhs: Another habit.
  /// - Returns: `true` when `lhs` is listed first.
  public static func isListed(_ lhs: Habit, before rhs: Habit) -> Bool {
    if lhs.isArchived != rhs.isArchived { return !lhs.isArchived }
    if lhs.createdAt != rhs.createdAt { return lhs.createdAt < rhs.createdAt }
    return lhs.id < rhs.id
  }

  /// The name trimmed, or ``HabitError/emptyName`` when nothing is left.
  ///
  /// NB: `package`, for the live module, which checks a new name before it opens a transaction.
  package static func validName(_ name: String) throws(HabitError) -> String {
    let trimmed = name.trimmedOfWhitespace
    guard !trimmed.isEmpty else { throw .emptyName }
    return trimmed
  }
}

// MARK: - Coding

extension Habit: Codable {
  private enum CodingKeys: String, CodingKey {
    case id, name, createdAt, archivedAt
  }

  /// Decodes a habit, checking its name as ``init(id:name:createdAt:archivedAt:)`` does.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError`, or ``HabitError/emptyName``.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    try self.init(
      id: container.decode(ID.self, forKey: .id),
      name: container.decode(String.self, forKey: .name),
      createdAt: container.decode(Date.self, forKey: .createdAt),
      archivedAt: container.decodeIfPresent(Date.self, forKey: .archivedAt))
  }

  /// Encodes the habit's fields: `id`, `name`, `createdAt` and `archivedAt` (when archived).
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(name, forKey: .name)
    try container.encode(createdAt, forKey: .createdAt)
    try container.encodeIfPresent(archivedAt, forKey: .archivedAt)
  }
}
