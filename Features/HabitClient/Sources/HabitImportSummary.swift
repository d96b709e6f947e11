/// What ``HabitClient/restoreHabits`` did (or, in a dry run, would do).
public struct HabitImportSummary: Equatable, Sendable {
  /// How many habits were stored.
  public var habits: Int
  /// How many completions were stored.
  public var completions: Int
  /// How many habits and completions were skipped because they are stored already.
  public var duplicates: Int

  /// Creates a summary.
  public init(habits: Int = 0, completions: Int = 0, duplicates: Int = 0) {
    self.habits = habits
    self.completions = completions
    self.duplicates = duplicates
  }
}
