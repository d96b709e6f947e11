import Loop

/// An interval of one column's stored values, in the order SQLite's `ORDER BY` sorts them
/// (``RowValue/order(_:_:)``: `NULL` first): where a condition says the column's value must lie.
///
/// The in-memory backend uses it as SQLite uses an index: of the rows sorted by the column, it
/// reads only the slice in the interval (`id >= ? AND id <= ?`, `lastViewedDate IS NOT NULL`),
/// instead of deciding the condition on every row.
struct StoredRange: Sendable {
  /// An end of the interval: a value, and whether the interval includes it.
  typealias Bound = (value: SQLValue, isInclusive: Bool)

  /// The lower end, or `nil` for none.
  var lower: Bound?
  /// The upper end, or `nil` for none.
  var upper: Bound?

  /// Creates an interval from its ends.
  init(lower: Bound?, upper: Bound?) {
    self.lower = lower
    self.upper = upper
  }

  /// The values whose comparison with `value` has one of `signs` (-1, 0, 1), or `nil` when
  /// those are not an interval (`<>`).
  init?(around value: SQLValue, signs: [Int]) {
    switch Set(signs) {
    case [-1]: (lower, upper) = (nil, (value, false))
    case [-1, 0]: (lower, upper) = (nil, (value, true))
    case [0]: (lower, upper) = ((value, true), (value, true))
    case [0, 1]: (lower, upper) = ((value, true), nil)
    case [1]: (lower, upper) = ((value, false), nil)
    default: return nil
    }
  }

  /// The values in both intervals.
  func intersection(_ other: StoredRange) -> StoredRange {
    StoredRange(
      lower: Self.tighter(lower, other.lower, sign: 1),
      upper: Self.tighter(upper, other.upper, sign: -1))
  }

  /// Of two bounds on one side, the one that leaves out more: the greater lower bound
  /// (`sign` 1) or the smaller upper bound (`sign` -1); exclusive on a tie.
  private static func tighter(_ first: Bound?, _ second: Bound?, sign: Int) -> Bound? {
    guard let first else { return second }
    guard let second else { return first }
    let order = RowValue.order(first.value, second.value) * sign
    if order != 0 { return order > 0 ? first : second }
    return first.isInclusive ? second : first
  }

  /// Whether `value` sorts before every value in the interval.
  func isBelow(_ value: SQLValue) -> Bool {
    guard let lower else { return false }
    let order = RowValue.order(value, lower.value)
    return order < 0 || (order == 0 && !lower.isInclusive)
  }

  /// Whether `value` sorts after every value in the interval.
  func isAbove(_ value: SQLValue) -> Bool {
    guard let upper else { return false }
    let order = RowValue.order(value, upper.value)
    return order > 0 || (order == 0 && !upper.isInclusive)
  }

  /// The indices of `sorted` whose rows' values of `column` lie in the interval.
  ///
  /// - Parameters:
  ///   - sorted: Row positions sorted by `column` first, ascending or not.
  ///   - values: The rows' stored values.
  ///   - column: The column's position.
  ///   - ascending: Whether `sorted` is in ascending order of the column.
  /// - Returns: The slice's indices.
  /// - Complexity: O(log *n*) comparisons.
  func indices(
    in sorted: [Int], values: [[SQLValue]], column: Int, ascending: Bool
  ) -> Range<Int> {
    // Rows before the interval in the walking order, then in it, then after it.
    let before = ascending ? isBelow : isAbove
    let after = ascending ? isAbove : isBelow
    let start = sorted.partitioningIndex { !before(values[$0][column]) }
    let end = sorted[start...].partitioningIndex { after(values[$0][column]) }
    return start..<end
  }
}
