import Foundation

/// What to fetch: which models (a predicate), in which order, and how many.
///
/// ```swift
/// var recent = FetchDescriptor<Link>(
///   predicate: #Predicate { $0.lastViewedDate != nil },
///   sortBy: [SortDescriptor(\.lastViewedDate, order: .reverse)])
/// recent.fetchLimit = 6
/// let links = try context.fetch(recent)
/// ```
///
/// Order: models come sorted by `sortBy`; models that tie on every sort descriptor (and all
/// models when `sortBy` is empty) come in insertion order, oldest first. Updating a model keeps
/// its place. `nil` sorts before any value (after, in `.reverse` order), as `SortDescriptor`
/// sorts it.
///
/// Every storage gives the same answers. The SQLite and PostgreSQL storages run in SQL what SQL
/// answers exactly as Swift does, and evaluate the rest in Swift over the rows the SQL part
/// selects:
/// - In SQL: `==` and `!=` (on every column type but `URL`), `<`, `<=`, `>`, `>=` (on
///   `String`, `Int`, `Int64`, `Double`, `Date`, `UUID`), `&&`, `||`, `!`, `nil` checks and
///   comparisons of optionals, `??`, `optional.flatMap { … } == value`,
///   `[constants].contains(\.column)`, `Bool` columns, `string.isEmpty`, and
///   `\.column.caseFolded` of a ``ColumnOptions/searchable`` column. Sorts on such columns, and
///   `fetchLimit` / `fetchOffset`, become `ORDER BY`, `LIMIT` and `OFFSET`.
/// - Narrowed in SQL, then checked in Swift: `contains(_:)` and `starts(with:)` on strings
///   (Swift compares whole characters, SQL bytes; `%` and `_` match literally).
/// - In Swift: everything else (`count`, arithmetic, regexes, computed properties, enum
///   comparisons with `<`, sorts with a `String.StandardComparator`), and predicates that can
///   throw (`!`, casts, subscripts), which are evaluated on every row in insertion order
///   whatever the sort, limit and offset (even a limit of 0), so a fetch throws the error of the
///   first row that throws, as `Array.filter` would.
///
/// Any non-negative window answers: `fetchLimit = Int.max` with an offset returns every model
/// after the offset, and an offset past the end returns none.
public struct FetchDescriptor<T: PersistentModel>: Sendable {
  /// The models to fetch; `nil` fetches all.
  public var predicate: Predicate<T>?

  /// The sort order, most significant first; ties keep insertion order.
  public var sortBy: [SortDescriptor<T>]

  /// The most models to return; `nil` for no limit.
  public var fetchLimit: Int?

  /// How many of the sorted, filtered models to skip; `nil` for none.
  public var fetchOffset: Int?

  /// Creates a descriptor.
  public init(predicate: Predicate<T>? = nil, sortBy: [SortDescriptor<T>] = []) {
    self.predicate = predicate
    self.sortBy = sortBy
  }
}
