import Foundation
import HabitClient

/// Habits as CSV, for spreadsheets: one record per completion, and one for each habit never
/// completed (with a blank `day`).
///
/// ```csv
/// habit,created,archived,day
/// Read,2025-03-01T09:00:00Z,,2025-03-02
/// ```
///
/// Loop writes this format but does not read it back: a Loop export (JSON) is the way to move
/// habits between databases.
public enum HabitCSV {
  /// The columns.
  public static let columns = ["habit", "created", "archived", "day"]

  /// Writes habits and their completions as CSV, in the archive's order.
  ///
  /// - Parameter archive: The habits and completions.
  /// - Returns: The text.
  public static func write(_ archive: HabitArchive) -> String {
    let days = Dictionary(grouping: archive.completions, by: \.habitID)
    var rows: [[String]] = []
    for habit in archive.habits {
      let fields = [
        habit.name, Timestamp.string(from: habit.createdAt),
        habit.archivedAt.map(Timestamp.string(from:)) ?? "",
      ]
      let completions = days[habit.id] ?? []
      if completions.isEmpty { rows.append(fields + [""]) }
      for completion in completions { rows.append(fields + [completion.day.description]) }
    }
    return CSV.write(header: columns, rows: rows)
  }
}
