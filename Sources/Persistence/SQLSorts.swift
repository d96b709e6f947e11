import Foundation

// Sorts as SQL: which `SortDescriptor`s become `ORDER BY` (the rest are sorted in Swift), and
// the orders a table has seen, each with the statements prepared for it.

extension TableDescription {
  /// The `ORDER BY` terms for `descriptors` (ending with `loop_seq`, so that ties keep insertion
  /// order), or `nil` when one of them cannot be sorted by SQL exactly as Swift sorts it (see
  /// ``storedOrder(_:)``).
  ///
  /// A sort by the id has no ties: its terms end there, without `loop_seq`. NB: an index on
  /// `(…, id)` then gives the rows in order as they are; with `loop_seq` after the id, SQLite
  /// sorts each row again in a temporary b-tree (about a third of `link list`'s time).
  func orderBy(_ descriptors: [SortDescriptor<Model>], dialect: SQLDialect) -> String? {
    guard var order = storedOrder(descriptors) else { return nil }
    var tieBreak = [quoted("loop_seq")]
    if let id = order.firstIndex(where: { $0.position == idIndex }) {
      order.removeSubrange((id + 1)...)
      tieBreak = []
    }
    let terms = order.map { dialect.sortTerm(stored[$0.position], ascending: $0.ascending) }
    return (terms + tieBreak).joined(separator: ", ")
  }
}

/// A sort key by key path identity; it keeps its key path alive, so the identity cannot be
/// reused by another key path while the key is cached.
struct SortKey: Hashable {
  let keyPath: AnyKeyPath
  let forward: Bool

  static func == (lhs: SortKey, rhs: SortKey) -> Bool {
    lhs.keyPath === rhs.keyPath && lhs.forward == rhs.forward
  }

  func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(keyPath))
    hasher.combine(forward)
  }
}

/// How SQL sorts one list of sort descriptors, with the statements for fetches without a
/// predicate, prepared on first use.
final class SQLOrder<Statement: AnyObject> {
  /// The `ORDER BY` terms, or `nil` when the sort is done in Swift.
  let orderBy: String?
  /// The statement selecting every row in this order.
  var plain: Statement?
  /// The same with `LIMIT` and `OFFSET` parameters.
  var limited: Statement?

  init(orderBy: String?) {
    self.orderBy = orderBy
  }
}

/// The orders a table was asked for, by their sort descriptors.
struct SQLOrders<Model, Statement: AnyObject> {
  private var orders: [[SortKey]: SQLOrder<Statement>] = [:]
  private var last: ([SortKey], SQLOrder<Statement>)?

  /// The cached order for `descriptors`, made with `orderBy` the first time.
  mutating func order(
    _ descriptors: [SortDescriptor<Model>], orderBy: ([SortDescriptor<Model>]) -> String?
  ) -> SQLOrder<Statement> {
    // NB: a screen fetches with the same descriptors again and again; compare with the last
    // ones before building a key.
    if let (keys, order) = last, keys.count == descriptors.count, Self.matches(keys, descriptors) {
      return order
    }
    var keys: [SortKey] = []
    for descriptor in descriptors {
      guard descriptor.stringComparator == nil, let keyPath = descriptor.keyPath else {
        return SQLOrder(orderBy: orderBy(descriptors))
      }
      keys.append(SortKey(keyPath: keyPath, forward: descriptor.order == .forward))
    }
    let order: SQLOrder<Statement>
    if let cached = orders[keys] {
      order = cached
    } else {
      if orders.count >= 64 { orders.removeAll() }
      order = SQLOrder(orderBy: orderBy(descriptors))
      orders[keys] = order
    }
    last = (keys, order)
    return order
  }

  /// Whether `descriptors` sort as `keys` (of the same count) do.
  ///
  /// NB: an index loop: `zip` and `allSatisfy` are generic code not specialized here, and cost
  /// more than the comparisons.
  private static func matches(_ keys: [SortKey], _ descriptors: [SortDescriptor<Model>]) -> Bool {
    for index in keys.indices {
      let (key, descriptor) = (keys[index], descriptors[index])
      guard descriptor.keyPath === key.keyPath, (descriptor.order == .forward) == key.forward,
        descriptor.stringComparator == nil
      else { return false }
    }
    return true
  }
}
