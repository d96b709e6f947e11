import Foundation
import Loop

/// Every way a habit operation can fail, with a sentence the user can read.
///
/// One enum serves the whole client. The storage's contract failures name ids
/// (``duplicateID(_:)``, ``habitNotFound(_:)``, ``duplicateCompletion(_:_:)``,
/// ``completionNotFound(_:_:)``); the endpoints of ``HabitClient``, which know the habit, report
/// the user's mistakes by the habit's name (``alreadyCompleted(name:day:)``, …). Each endpoint's
/// documentation lists the cases it throws. Storage failures arrive as ``storageFailed(_:)``;
/// nothing is ever swallowed.
///
/// ```swift
/// HabitError.alreadyArchived(name: "Read").description
/// // "'Read' is already archived."
/// ```
public enum HabitError: StorageFailing, Equatable, Sendable, CustomStringConvertible,
  LocalizedError
{
  /// A habit's name is empty once whitespace is trimmed.
  case emptyName

  /// A habit with this id exists already, so it cannot be inserted.
  case duplicateID(Habit.ID)

  /// No habit has this id.
  case habitNotFound(Habit.ID)

  /// The habit is archived already, so it cannot be archived again.
  case alreadyArchived(name: String)

  /// The habit is active, so it cannot be unarchived.
  case notArchived(name: String)

  /// The habit is archived, so its completions cannot change.
  case archived(name: String)

  /// The day is after today, so it cannot be completed yet.
  case dayInFuture(Day, today: Day)

  /// The habit is already completed on the day.
  case alreadyCompleted(name: String, day: Day)

  /// The habit is not completed on the day, so there is nothing to undo.
  case notCompleted(name: String, day: Day)

  /// A completion of this habit on this day exists already, so it cannot be inserted.
  case duplicateCompletion(Habit.ID, Day)

  /// No completion of this habit on this day exists.
  case completionNotFound(Habit.ID, Day)

  /// An archive given to `restoreHabits` contradicts itself or the stored habits; it carries
  /// what is wrong, naming the entry. Nothing was written.
  case invalidArchive(String)

  /// The storage failed (it could not be opened, or a read or write failed); it carries the
  /// storage's explanation.
  case storageFailed(String)

  /// A sentence describing the failure, with the user's input in single quotes.
  public var description: String {
    switch self {
    case .emptyName:
      return "A habit needs a name: the name is empty."
    case .duplicateID(let id):
      return "A habit with id '\(id)' already exists."
    case .habitNotFound(let id):
      return "No habit with id '\(id)' exists."
    case .alreadyArchived(let name):
      return "'\(name)' is already archived."
    case .notArchived(let name):
      return "'\(name)' is not archived."
    case .archived(let name):
      return "'\(name)' is archived: unarchive it to change its completions."
    case .dayInFuture(let day, let today):
      return "'\(day)' is in the future: today is \(today)."
    case .alreadyCompleted(let name, let day):
      return "'\(name)' is already done on \(day)."
    case .notCompleted(let name, let day):
      return "'\(name)' is not done on \(day)."
    case .duplicateCompletion(let id, let day):
      return "The habit with id '\(id)' already has a completion on \(day)."
    case .completionNotFound(let id, let day):
      return "The habit with id '\(id)' has no completion on \(day)."
    case .invalidArchive(let reason):
      return "The habits cannot be restored: \(reason)."
    case .storageFailed(let reason):
      return "The habits could not be read or saved: \(reason)"
    }
  }

  /// The same sentence as ``description``.
  public var errorDescription: String? { description }
}
