import Foundation
import Loop

/// The in-memory backend: the same contract as SQLite, evaluated in Swift.
///
/// Each model is stored as SQLite would hand it back (encoded and decoded once on write, so
/// strings are in normalization form C), in insertion order, beside its stored values. A
/// predicate is decided as the SQLite backend decides it: what ``PredicateTranslator`` turns
/// into SQL is computed on the stored values (``RowValue``), and the rest, if any, with
/// `Predicate.evaluate` on the rows that pass; predicates that may throw are evaluated on every
/// model, in insertion order. Sorts compare the stored values as SQLite's `ORDER BY` does when
/// SQLite would sort in SQL, and run `SortDescriptor.compare` otherwise; ties keep insertion
/// order. Unique indexes compare encoded values, and a `nil` in an indexed column never
/// conflicts, as in SQL.
/// A transaction records how to undo each write it makes and, on a throw, undoes them newest
/// first.
final class InMemoryBackend: StorageBackend, @unchecked Sendable {
  private var tables: BackendTables = [:]
  /// How to undo each write made in the open transactions, oldest first.
  ///
  /// NB: an undo log, not a snapshot of the tables: a snapshot shares the tables' storage, so
  /// the first write after it copied the whole table, which made every insert in a transaction
  /// cost as much as the table is long.
  private var undoLog: [() -> Void] = []
  private var transactionDepth = 0

  init(descriptions: [any AnyTableDescription]) {
    for description in descriptions {
      tables[description.modelID] = description.makeInMemoryTable()
    }
  }

  private func table<T>(_ description: TableDescription<T>) throws(PersistenceError)
    -> InMemoryTable<T>
  {
    try tables.table(of: T.self, as: InMemoryTable<T>.self)
  }

  func insert<T: PersistentModel>(_ model: T, table description: TableDescription<T>) throws {
    let table = try table(description)
    try table.checkIDColumn(model)
    let values = try description.encode(model)
    let stored = try description.decode(values)
    guard table.state.positions[stored.id] == nil else {
      throw PersistenceError.duplicateID(model: description.modelName, id: "\(model.id)")
    }
    if let conflict = table.conflict(values, excluding: nil) {
      throw PersistenceError.uniqueViolation(
        model: description.modelName, columns: conflict.columns, id: "\(model.id)")
    }
    table.append(stored, values: values)
    recordUndo { table.removeLast() }
  }

  func update<T: PersistentModel>(_ model: T, table description: TableDescription<T>) throws {
    let table = try table(description)
    try table.checkIDColumn(model)
    let values = try description.encode(model)
    let stored = try description.decode(values)
    guard let position = table.state.positions[stored.id] else {
      throw PersistenceError.notFound(model: description.modelName, id: "\(model.id)")
    }
    if let conflict = table.conflict(values, excluding: stored.id) {
      throw PersistenceError.uniqueViolation(
        model: description.modelName, columns: conflict.columns, id: "\(model.id)")
    }
    let (previous, previousValues) = (table.state.models[position], table.state.values[position])
    table.replace(at: position, model: stored, values: values)
    recordUndo { table.replace(at: position, model: previous, values: previousValues) }
  }

  func delete<T: PersistentModel>(id: T.ID, table description: TableDescription<T>) throws {
    let table = try table(description)
    let key = try description.decode(id: id)
    guard let position = table.state.positions[key] else {
      throw PersistenceError.notFound(model: description.modelName, id: "\(id)")
    }
    recordUndo(restoring: table)
    table.remove(at: [position])
  }

  func delete<T: PersistentModel>(
    where predicate: Predicate<T>, table description: TableDescription<T>
  ) throws -> Int {
    let table = try table(description)
    let doomed = try matching(table, RowMatcher(predicate, description))
    if !doomed.isEmpty { recordUndo(restoring: table) }
    table.remove(at: doomed)
    return doomed.count
  }

  func fetch<T: PersistentModel>(
    _ descriptor: FetchDescriptor<T>, table description: TableDescription<T>
  ) throws -> [T] {
    let table = try table(description)
    let needed = descriptor.rangeEnd
    let matcher = RowMatcher(descriptor.predicate, description)
    guard let order = description.storedOrder(descriptor.sortBy) else {
      let matches = try matching(table, matcher).map { table.state.models[$0] }
      return descriptor.applyingRange(
        to: sortedInSwift(matches, by: descriptor.sortBy, keepingFirst: needed))
    }
    // NB: sorted on the stored values, as SQLite's ORDER BY sorts them (`storedOrder` holds only
    // columns whose stored order is their Swift order): `SortDescriptor.compare` costs about a
    // microsecond a comparison.
    if !order.isEmpty, let exactFilter = matcher.exact,
      let sorted = table.sortedPositions(by: order)
    {
      // Walks the rows in order, as SQLite walks an index, until enough have matched; only
      // those whose first sort column lies where the predicate needs it, as SQLite seeks.
      var positions: [Int] = []
      let values = table.state.values
      let (column, ascending) = order[0]
      let slice =
        matcher.ranges[column]?.indices(
          in: sorted, values: values, column: column, ascending: ascending) ?? sorted.indices
      for position in sorted[slice] where exactFilter(values[position]) {
        positions.append(position)
        if positions.count == needed { break }
      }
      return descriptor.applyingRange(to: positions).map { table.state.models[$0] }
    }
    var positions = try matching(table, matcher)
    if !order.isEmpty {
      positions = firstInOrder(
        positions, keepingFirst: needed, by: table.precedes(order, table.state.values))
    }
    return descriptor.applyingRange(to: positions).map { table.state.models[$0] }
  }

  func fetchCount<T: PersistentModel>(
    _ descriptor: FetchDescriptor<T>, table description: TableDescription<T>
  ) throws -> Int {
    let matcher = RowMatcher(descriptor.predicate, description)
    return descriptor.rangeCount(try matching(try table(description), matcher).count)
  }

  func fetch<T: PersistentModel>(id: T.ID, table description: TableDescription<T>) throws -> T? {
    let table = try table(description)
    let key = try description.decode(id: id)
    return table.state.positions[key].map { table.state.models[$0] }
  }

  func fetchIDPrefixLength<T: PersistentModel>(table description: TableDescription<T>) throws
    -> Int
  where T.ID == ModelID<T> {
    IDPrefix.length(ofAll: try table(description).sortedIDs())
  }

  func fetchIDPrefixLength<T: PersistentModel>(
    of id: T.ID, table description: TableDescription<T>
  ) throws -> Int where T.ID == ModelID<T> {
    IDPrefix.length(of: IDPrefix.key(of: id.rawValue), among: try table(description).sortedIDs())
  }

  /// The positions of the rows `matcher` matches, in insertion order.
  private func matching<T>(_ table: InMemoryTable<T>, _ matcher: RowMatcher<T>) throws -> [Int] {
    if matcher.matchesEverything { return Array(table.state.models.indices) }
    let (models, values) = (table.state.models, table.state.values)
    return try models.indices.filter { try matcher.matches(models, values, $0) }
  }

  /// Runs `body`, restoring every table to its state before the call if it throws.
  ///
  /// Nested calls restore only their own changes.
  func transaction<R>(_ body: () throws -> R) throws -> R {
    let start = undoLog.count
    transactionDepth += 1
    defer {
      transactionDepth -= 1
      if transactionDepth == 0 { undoLog.removeAll() }
    }
    do {
      return try body()
    } catch {
      while undoLog.count > start { undoLog.removeLast()() }
      throw error
    }
  }

  /// Records how to undo a write, when a transaction is open.
  private func recordUndo(_ undo: @escaping () -> Void) {
    if transactionDepth > 0 { undoLog.append(undo) }
  }

  /// Records that undoing the next write puts back `table` as it is now.
  ///
  /// NB: for removals, which rebuild the rows anyway: keeping the state costs no more.
  private func recordUndo<T>(restoring table: InMemoryTable<T>) {
    guard transactionDepth > 0 else { return }
    let state = table.state
    undoLog.append { table.restore(state) }
  }

  func checkIntegrity() throws {}
}

/// How the in-memory backend decides a predicate on a table's rows, as the SQLite backend
/// decides it; translated once per call.
///
/// NB: `Predicate.evaluate` costs microseconds a row (generic key paths and bindings); the
/// translated part runs on the stored values in nanoseconds. SQLite answers the translated part
/// exactly as Swift does (the differential tests hold both backends to `Predicate.evaluate`), so
/// the answers are the same.
private struct RowMatcher<T: PersistentModel> {
  /// Whether there is no predicate.
  let matchesEverything: Bool
  /// Decides a row from its stored values alone, when the translation does (the predicate cannot
  /// throw and needs no Swift evaluation); otherwise `nil`.
  let exact: (([SQLValue]) -> Bool)?
  /// Decides the row at a position of the models and their values.
  let matches: (_ models: [T], _ values: [[SQLValue]], _ position: Int) throws -> Bool
  /// Where the stored values of some columns (by position) must lie for a row to match.
  var ranges: [Int: StoredRange] = [:]

  init(_ predicate: Predicate<T>?, _ description: TableDescription<T>) {
    guard let predicate else {
      (matchesEverything, exact, matches) = (true, { _ in true }, { _, _, _ in true })
      return
    }
    matchesEverything = false
    let inSwift = { (models: [T], _: [[SQLValue]], position: Int) throws -> Bool in
      try evaluate(predicate, models[position])
    }
    var translator = PredicateTranslator(table: description)
    // Untranslated predicates may throw: every model, in insertion order, so it throws on the
    // same row as SQLite.
    guard let plan = translator.translate(predicate),
      plan.whereClause == nil || plan.whereClause?.row != nil
    else {
      (exact, matches) = (nil, inSwift)
      return
    }
    ranges = plan.whereClause?.row?.ranges ?? [:]
    switch (plan.whereClause?.row, plan.exact) {
    case (let narrowing?, true):
      (exact, matches) = ({ narrowing.isTrue($0) }, { narrowing.isTrue($1[$2]) })
    case (nil, true):
      (exact, matches) = ({ _ in true }, { _, _, _ in true })
    case (let narrowing?, false):
      exact = nil
      matches = { try narrowing.isTrue($1[$2]) && evaluate(predicate, $0[$2]) }
    case (nil, false):
      (exact, matches) = (nil, inSwift)
    }
  }
}

extension TableDescription {
  /// The id as the in-memory backend keys it: as it reads back from storage.
  fileprivate func decode(id: Model.ID) throws(PersistenceError) -> Model.ID {
    let encoded = try encodeID(id)
    do {
      return try Model.ID(decodingColumn: encoded)
    } catch {
      throw .invalidValue(model: modelName, column: columns[idIndex].name, value: describe(id))
    }
  }
}

// MARK: - Tables

extension TableDescription {
  func makeInMemoryTable() -> AnyObject { InMemoryTable(self) }
}

/// The rows of one model, in insertion order, with lookups by id and by unique index.
final class InMemoryTable<T: PersistentModel> {
  /// The rows: the models, and at the same positions their stored values.
  ///
  /// NB: the values are kept apart from the models so that deciding a translated predicate reads
  /// plain arrays of ``SQLValue``: rows of a generic type are copied, and their layout looked
  /// up, each time unspecialized code reads one.
  struct State {
    var models: [T] = []
    var values: [[SQLValue]] = []
    var positions: [T.ID: Int] = [:]
    /// For each unique index (in declaration order): indexed values → id.
    var unique: [[[SQLValue]: T.ID]]
  }

  let description: TableDescription<T>
  private(set) var state: State
  private let uniqueIndexes: [IndexDescription]
  /// The row positions in each order asked for twice since the last write that was not an
  /// insert, and how many rows they cover (rows inserted since are added when next asked for).
  ///
  /// The in-memory counterpart of an index, so that repeated reads of the first rows of a large
  /// table do not look at every row. An insert keeps them, as it keeps SQLite's indexes; any
  /// other write drops them.
  private var sorted: [[Int]: (positions: [Int], rows: Int)] = [:]
  /// The orders asked for once since the last write that was not an insert.
  private var requested: Set<[Int]> = []
  /// The ids of the first ``idKeyRows`` rows as ``IDPrefix/key(of:)``, ascending: the
  /// in-memory counterpart of the id index (``sortedIDs()``).
  ///
  /// NB: kept by inserts and updates (an update never changes an id); a removal empties it.
  private var idKeys: [UInt128] = []
  private var idKeyRows = 0
  private var idColumnChecked = false

  init(_ description: TableDescription<T>) {
    self.description = description
    self.uniqueIndexes = description.indexes.filter(\.isUnique)
    self.state = State(unique: Array(repeating: [:], count: uniqueIndexes.count))
  }

  func checkIDColumn(_ model: T) throws(PersistenceError) {
    guard !idColumnChecked else { return }
    try description.checkIDColumn(model)
    idColumnChecked = true
  }

  /// The positions of every row sorted by `order` (columns and directions; ties in insertion
  /// order), when the same order was asked for before since the last write other than an
  /// insert; `nil` the first time, so that a table changed between reads never pays for sorting
  /// all of its rows.
  func sortedPositions(by order: [(position: Int, ascending: Bool)]) -> [Int]? {
    // The key: each column's position, negated (less one) when descending.
    let key = order.map { $0.ascending ? $0.position : -1 - $0.position }
    let count = state.values.count
    if let cached = sorted[key], cached.rows == count { return cached.positions }
    let precedes = precedes(order, state.values)
    // NB: taken out of the dictionary, so that inserting into it does not copy it.
    if var cached = sorted.removeValue(forKey: key) {
      Self.merge(Array(cached.rows..<count), into: &cached.positions, by: precedes)
      cached.rows = count
      sorted[key] = cached
      return cached.positions
    }
    guard requested.insert(key).inserted == false else { return nil }
    let positions = state.values.indices.sorted(by: precedes)
    sorted[key] = (positions, positions.count)
    return positions
  }

  /// Puts the rows at `added` in their places in `sorted`, by `precedes`.
  ///
  /// - Complexity: O(log *n*) comparisons and a move of the rows after it for each added row,
  ///   when there are a few; O(*n* + *k* log *k*) for *k* of them otherwise.
  private static func merge(
    _ added: [Int], into sorted: inout [Int], by precedes: (Int, Int) -> Bool
  ) {
    // NB: ties go by position, and added rows come after every other, so each goes just before
    // the first row it precedes.
    guard added.count > 32 else {
      for position in added {
        sorted.insert(position, at: sorted.partitioningIndex { precedes(position, $0) })
      }
      return
    }
    let added = added.sorted(by: precedes)
    var merged: [Int] = []
    merged.reserveCapacity(sorted.count + added.count)
    var (old, new) = (0, 0)
    while old < sorted.count || new < added.count {
      if new < added.count, old == sorted.count || precedes(added[new], sorted[old]) {
        merged.append(added[new])
        new += 1
      } else {
        merged.append(sorted[old])
        old += 1
      }
    }
    sorted = merged
  }

  /// Whether the row at one position comes before the row at another in `order`, as SQLite's
  /// `ORDER BY` sorts their stored `values`, ties in insertion order.
  func precedes(_ order: [(position: Int, ascending: Bool)], _ values: [[SQLValue]])
    -> (Int, Int) -> Bool
  {
    { left, right in
      for (column, ascending) in order {
        let sign = RowValue.order(values[left][column], values[right][column])
        if sign != 0 { return ascending == (sign < 0) }
      }
      return left < right
    }
  }

  /// Puts back a state this table had.
  func restore(_ state: State) {
    self.state = state
    forgetOrders()
    forgetIDs()
  }

  /// Empties ``idKeys``, after a removal.
  private func forgetIDs() {
    idKeys.removeAll()
    idKeyRows = 0
  }

  /// Drops the sorted orders, after a write other than an insert.
  private func forgetOrders() {
    if !sorted.isEmpty { sorted.removeAll() }
    if !requested.isEmpty { requested.removeAll() }
  }

  private func key(_ values: [SQLValue], _ index: IndexDescription) -> [SQLValue]? {
    let key = index.positions.map { values[$0] }
    return key.contains(.null) ? nil : key
  }

  /// The first unique index (in declaration order) another model already holds `values` in.
  func conflict(_ values: [SQLValue], excluding id: T.ID?) -> IndexDescription? {
    for (offset, index) in uniqueIndexes.enumerated() {
      guard let key = key(values, index), let holder = state.unique[offset][key] else { continue }
      if holder != id { return index }
    }
    return nil
  }

  func append(_ model: T, values: [SQLValue]) {
    state.positions[model.id] = state.models.count
    addKeys(values, id: model.id)
    state.models.append(model)
    state.values.append(values)
  }

  /// Removes the newest row (undoing ``append(_:values:)``).
  func removeLast() {
    forgetOrders()
    forgetIDs()
    let model = state.models.removeLast()
    state.positions[model.id] = nil
    removeKeys(state.values.removeLast())
  }

  func replace(at position: Int, model: T, values: [SQLValue]) {
    forgetOrders()
    removeKeys(state.values[position])
    state.models[position] = model
    state.values[position] = values
    addKeys(values, id: model.id)
  }

  /// Removes the rows at `positions` (ascending).
  func remove(at positions: [Int]) {
    guard let first = positions.first else { return }
    forgetOrders()
    forgetIDs()
    let doomed = Set(positions)
    for position in positions {
      removeKeys(state.values[position])
      state.positions[state.models[position].id] = nil
    }
    var models = Array(state.models[..<first])
    var values = Array(state.values[..<first])
    for position in first..<state.models.count where !doomed.contains(position) {
      state.positions[state.models[position].id] = models.count
      models.append(state.models[position])
      values.append(state.values[position])
    }
    state.models = models
    state.values = values
  }

  private func addKeys(_ values: [SQLValue], id: T.ID) {
    for (offset, index) in uniqueIndexes.enumerated() {
      if let key = key(values, index) { state.unique[offset][key] = id }
    }
  }

  private func removeKeys(_ values: [SQLValue]) {
    for (offset, index) in uniqueIndexes.enumerated() {
      if let key = key(values, index) { state.unique[offset][key] = nil }
    }
  }
}

extension InMemoryTable where T.ID == ModelID<T> {
  /// The ids of every row as ``IDPrefix/key(of:)``, ascending.
  ///
  /// - Complexity: O(*k* log *n*) comparisons and a move of the keys after each for *k* rows
  ///   inserted since the last call, when there are a few; O(*n* log *n*) otherwise.
  func sortedIDs() -> [UInt128] {
    let count = state.models.count
    guard idKeyRows < count else { return idKeys }
    let added = state.models[idKeyRows..<count].map { IDPrefix.key(of: $0.id.rawValue) }
    if added.count <= 32 {
      for key in added { idKeys.insert(key, at: idKeys.partitioningIndex { $0 > key }) }
    } else {
      idKeys += added
      idKeys.sort()
    }
    idKeyRows = count
    return idKeys
  }
}
