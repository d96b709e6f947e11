/// A type that chooses the name diffs and state dumps show for it.
///
/// A generic type can read better under the name its users write. Persistence's
/// `ModelID<Habit>` is declared as `Habit.ID`, and a dump shows it so:
///
/// ```
/// Habit(
///   id: Habit.ID(
///     rawValue: UUID(910A2DEC-8902-5CC1-BEEB-8DA1658EEC67)
///   ),
/// ```
public protocol CustomDiffTypeName {
  /// The name to show, without module names, such as `Habit.ID`.
  static var diffTypeName: String { get }
}
