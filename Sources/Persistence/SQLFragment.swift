import Foundation

/// SQL text with its `?` parameters, in order, and what it computes on a row.
struct SQLFragment: Equatable {
  var sql: String
  var parameters: [SQLValue] = []
  /// The kind of each parameter (how PostgreSQL binds it); SQLite binds by storage class.
  var kinds: [ValueKind] = []
  /// What the SQL computes on one row, in Swift (see ``RowValue``), for the in-memory backend.
  ///
  /// `nil` when the fragment was built without it. The operators below drop it: whoever
  /// combines fragments says what the combination computes (``computing(_:)``).
  var row: RowValue?

  /// The same SQL and parameters (what a fragment computes on a row is a function, not
  /// compared; the kinds follow from the parameters' types).
  static func == (lhs: SQLFragment, rhs: SQLFragment) -> Bool {
    lhs.sql == rhs.sql && lhs.parameters == rhs.parameters
  }

  /// The fragment with what it computes on a row.
  ///
  /// - Parameter row: The row value, or `nil` when some part of it has none.
  /// - Returns: The fragment.
  func computing(_ row: RowValue?) -> SQLFragment {
    var fragment = self
    fragment.row = row
    return fragment
  }

  static func + (lhs: SQLFragment, rhs: SQLFragment) -> SQLFragment {
    SQLFragment(
      sql: lhs.sql + rhs.sql, parameters: lhs.parameters + rhs.parameters,
      kinds: lhs.kinds + rhs.kinds)
  }

  static func + (lhs: SQLFragment, rhs: String) -> SQLFragment {
    SQLFragment(sql: lhs.sql + rhs, parameters: lhs.parameters, kinds: lhs.kinds)
  }

  static func + (lhs: String, rhs: SQLFragment) -> SQLFragment {
    SQLFragment(sql: lhs + rhs.sql, parameters: rhs.parameters, kinds: rhs.kinds)
  }
}

/// What two fragments compute combined, when both compute something.
func both(
  _ lhs: SQLFragment, _ rhs: SQLFragment, _ combine: (RowValue, RowValue) -> RowValue
) -> RowValue? {
  guard let left = lhs.row, let right = rhs.row else { return nil }
  return combine(left, right)
}
