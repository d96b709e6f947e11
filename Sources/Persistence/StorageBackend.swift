import Foundation
import Loop

/// What a ``ModelContainer`` stores its models in: an SQLite file, a PostgreSQL server or
/// memory.
///
/// NB: backends are not thread-safe; the container calls them only while holding its lock, which
/// is why the conforming classes are `@unchecked Sendable`.
/// A ``FetchDescriptor`` reaches a backend only once ``ModelContext`` has checked its limit and
/// offset, so a backend does not check them again.
protocol StorageBackend: AnyObject, Sendable {
  func insert<T: PersistentModel>(_ model: T, table: TableDescription<T>) throws
  func update<T: PersistentModel>(_ model: T, table: TableDescription<T>) throws
  func delete<T: PersistentModel>(id: T.ID, table: TableDescription<T>) throws
  func delete<T: PersistentModel>(where predicate: Predicate<T>, table: TableDescription<T>)
    throws -> Int
  func fetch<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, table: TableDescription<T>)
    throws -> [T]
  func fetchCount<T: PersistentModel>(
    _ descriptor: FetchDescriptor<T>, table: TableDescription<T>
  ) throws -> Int
  func fetch<T: PersistentModel>(id: T.ID, table: TableDescription<T>) throws -> T?
  func fetchIdentifiers<T: PersistentModel>(
    _ descriptor: FetchDescriptor<T>, table: TableDescription<T>
  ) throws -> [T.ID]
  func fetchIDPrefixLength<T: PersistentModel>(table: TableDescription<T>) throws -> Int
  where T.ID == ModelID<T>
  func fetchIDPrefixLength<T: PersistentModel>(of id: T.ID, table: TableDescription<T>) throws
    -> Int
  where T.ID == ModelID<T>
  func fetch<T: PersistentModel, R>(
    _ descriptor: FetchDescriptor<T>, table: TableDescription<T>, reading: (Row<T>) throws -> R
  ) throws -> [R]
  func transaction<R>(_ body: () throws -> R) throws -> R
  func checkIntegrity() throws
}

extension StorageBackend {
  /// The ids of the models `descriptor` selects, in its order: those of ``fetch(_:table:)``.
  ///
  /// NB: a backend that can read the id column alone (SQLite) does so; this is the fallback.
  func fetchIdentifiers<T: PersistentModel>(
    _ descriptor: FetchDescriptor<T>, table: TableDescription<T>
  ) throws -> [T.ID] {
    try fetch(descriptor, table: table).map(\.id)
  }

  /// How many leading hexadecimal digits tell every stored id of `T` from every other
  /// (``ModelContext/fetchIDPrefixLength(_:)``).
  ///
  /// NB: a backend that can walk the id index itself (SQLite) does so; this fallback reads the
  /// ids in pages of ``idPageSize``, each after the last id of the one before, so its memory
  /// does not grow with the rows.
  func fetchIDPrefixLength<T: PersistentModel>(table: TableDescription<T>) throws -> Int
  where T.ID == ModelID<T> {
    var prefix = IDPrefix()
    var last: T.ID?
    while true {
      var descriptor = FetchDescriptor<T>(
        predicate: last.map { last in #Predicate<T> { $0.id > last } },
        sortBy: [SortDescriptor(\.id)])
      descriptor.fetchLimit = idPageSize
      let ids = try fetchIdentifiers(descriptor, table: table)
      for id in ids { prefix.add(IDPrefix.key(of: id.rawValue)) }
      guard ids.count == idPageSize else { return prefix.length }
      last = ids.last
    }
  }

  /// How many leading hexadecimal digits of `id` tell it from every other stored id of `T`
  /// (``ModelContext/fetchIDPrefixLength(of:)``).
  ///
  /// NB: a backend that can seek its id index itself (SQLite) or keeps the ids sorted (in
  /// memory) does so; this fallback asks for the closest id below and above `id`, each a fetch
  /// of one id sorted by id, which a server (PostgreSQL) answers from its primary key's index.
  func fetchIDPrefixLength<T: PersistentModel>(of id: T.ID, table: TableDescription<T>) throws
    -> Int
  where T.ID == ModelID<T> {
    func closest(_ predicate: Predicate<T>, ascending: Bool) throws -> T.ID? {
      var descriptor = FetchDescriptor<T>(
        predicate: predicate, sortBy: [SortDescriptor(\.id, order: ascending ? .forward : .reverse)]
      )
      descriptor.fetchLimit = 1
      return try fetchIdentifiers(descriptor, table: table).first
    }
    let before = try closest(#Predicate<T> { $0.id < id }, ascending: false)
    let after = try closest(#Predicate<T> { $0.id > id }, ascending: true)
    return IDPrefix.length(
      of: IDPrefix.key(of: id.rawValue),
      between: before.map { IDPrefix.key(of: $0.rawValue) },
      and: after.map { IDPrefix.key(of: $0.rawValue) })
  }

  /// What `reading` takes from each row `descriptor` selects, in its order.
  ///
  /// NB: a backend that reads rows in place (SQLite) hands them over without building the
  /// models; this fallback builds each model and reads its stored values.
  func fetch<T: PersistentModel, R>(
    _ descriptor: FetchDescriptor<T>, table: TableDescription<T>, reading: (Row<T>) throws -> R
  ) throws -> [R] {
    try fetch(descriptor, table: table).map { model in
      try reading(Row(table: table, source: .values(try table.encode(model))))
    }
  }
}

/// How many ids the fallback ``StorageBackend/fetchIDPrefixLength(table:)`` reads at a time.
private let idPageSize = 16_384

/// A backend's tables, one per registered model type, keyed by the type.
typealias BackendTables = [ObjectIdentifier: AnyObject]

extension BackendTables {
  /// The table registered for the model type `T`, as the class the backend stored it as.
  ///
  /// NB: keyed by the model type, so the table is always a `Table` of `T`; a checked cast would
  /// look up generic metadata on every call (see ``ModelContainer``'s own table lookup).
  func table<T, Table: AnyObject>(of _: T.Type, as _: Table.Type) throws(PersistenceError)
    -> Table
  {
    guard let table = self[ObjectIdentifier(T.self)] else {
      throw .unregisteredModel("\(T.self)")
    }
    return unsafeDowncast(table, to: Table.self)
  }
}

/// A ``TableDescription`` of any model type.
protocol AnyTableDescription: AnyObject, Sendable {
  var modelID: ObjectIdentifier { get }
  var modelName: String { get }
  var table: String { get }
  /// What opening `database` must do to this table (read-only; throws when it cannot be done).
  func migrationPlan(in database: SQLiteDatabase) throws(PersistenceError) -> MigrationPlan
  /// What opening the database of `connection` must do to this table (read-only).
  func migrationPlan(in connection: PostgresConnection) throws(PersistenceError) -> MigrationPlan
  /// The table's prepared statements in `database`.
  func makeSQLiteTable(_ database: SQLiteDatabase) throws(PersistenceError) -> AnyObject
  /// The table's statements on `connection`.
  func makePostgresTable(_ connection: PostgresConnection) throws(PersistenceError) -> AnyObject
  /// An empty in-memory table.
  func makeInMemoryTable() -> AnyObject
}

extension TableDescription: AnyTableDescription {
  var modelID: ObjectIdentifier { ObjectIdentifier(Model.self) }
}

// MARK: - Shared by the backends

extension FetchDescriptor {
  /// Throws when the limit or offset is negative.
  func validate() throws(PersistenceError) {
    if let fetchLimit, fetchLimit < 0 {
      throw .invalidFetch(model: "\(T.self)", reason: "fetchLimit is \(fetchLimit), below 0")
    }
    if let fetchOffset, fetchOffset < 0 {
      throw .invalidFetch(model: "\(T.self)", reason: "fetchOffset is \(fetchOffset), below 0")
    }
  }

  /// How many of the sorted, filtered models a fetch needs: `fetchOffset` plus `fetchLimit`,
  /// or `nil` without a limit.
  ///
  /// NB: saturates at `Int.max`: `fetchLimit = Int.max` with an offset is a valid window (all
  /// models after the first few), not an overflow.
  var rangeEnd: Int? {
    fetchLimit.map { limit in
      let (end, overflow) = limit.addingReportingOverflow(fetchOffset ?? 0)
      return overflow ? Int.max : end
    }
  }

  /// `items` (models, or their positions) without the first `fetchOffset`, at most
  /// `fetchLimit` of them.
  func applyingRange<Item>(to items: [Item]) -> [Item] {
    let start = min(fetchOffset ?? 0, items.count)
    let end = rangeEnd.map { min(items.count, $0) } ?? items.count
    return Array(items[start..<end])
  }

  /// The number of models a fetch returns when `total` match the predicate.
  func rangeCount(_ total: Int) -> Int {
    let remaining = max(0, total - (fetchOffset ?? 0))
    return fetchLimit.map { min($0, remaining) } ?? remaining
  }
}

/// Evaluates `predicate` on `model` in Swift, reporting a throw as
/// ``PersistenceError/predicateFailed(model:reason:)``.
func evaluate<T: PersistentModel>(_ predicate: Predicate<T>, _ model: T) throws(PersistenceError)
  -> Bool
{
  do {
    return try predicate.evaluate(model)
  } catch {
    throw .predicateFailed(model: "\(T.self)", reason: "\(error)")
  }
}

/// `models` (given in insertion order) sorted by `descriptors`, ties kept in insertion order.
func sortedInSwift<T>(
  _ models: [T], by descriptors: [SortDescriptor<T>], keepingFirst prefix: Int? = nil
) -> [T] {
  guard !descriptors.isEmpty else { return models }
  let items = Array(models.enumerated())
  return firstInOrder(items, keepingFirst: prefix) { left, right in
    for descriptor in descriptors {
      switch descriptor.compare(left.element, right.element) {
      case .orderedAscending: return true
      case .orderedDescending: return false
      case .orderedSame: continue
      }
    }
    return left.offset < right.offset
  }.map(\.element)
}

/// `items` sorted by `precedes`, a strict total order, or only the first `prefix` of them.
func firstInOrder<Item>(
  _ items: [Item], keepingFirst prefix: Int?, by precedes: (Item, Item) -> Bool
) -> [Item] {
  // NB: with a small limit (the six most recent of 100,000), keep only the best `prefix` in a
  // sorted buffer: about n comparisons instead of n log n. The order is total, so the result is
  // the same as sorting everything.
  guard let prefix, prefix < items.count / 8 else { return items.sorted(by: precedes) }
  var best: [Item] = []
  best.reserveCapacity(prefix + 1)
  for item in items {
    if best.count == prefix, let last = best.last, !precedes(item, last) { continue }
    var low = 0
    var high = best.count
    while low < high {
      let middle = (low + high) / 2
      if precedes(best[middle], item) { low = middle + 1 } else { high = middle }
    }
    best.insert(item, at: low)
    if best.count > prefix { best.removeLast() }
  }
  return best
}
