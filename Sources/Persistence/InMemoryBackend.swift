import Foundation

/// The in-memory backend: the same contract as SQLite, evaluated in Swift.
///
/// Each model is stored as SQLite would hand it back (encoded and decoded once on write, so
/// strings are in normalization form C), in insertion order, beside its stored values. A
/// predicate is decided as the SQLite backend decides it: what ``PredicateTranslator`` turns
/// into SQL is computed on the stored values (``RowValue``), and the rest, if any, with
/// `Predicate.evaluate` on the rows that pass; predicates that may throw are evaluated on every
/// model, in insertion order. Sorts run with `SortDescriptor.compare`; ties keep insertion
/// order. Unique
/// indexes compare encoded values, and a `nil` in an indexed column never conflicts, as in SQL.
/// A transaction snapshots every table (copy-on-write) and restores it on a throw.
final class InMemoryBackend: StorageBackend, @unchecked Sendable {
  private var tables: [ObjectIdentifier: any InMemoryTableStorage] = [:]
  private var nextSequence: Int64 = 1

  init(descriptions: [any AnyTableDescription]) {
    for description in descriptions {
      tables[description.modelID] = description.makeInMemoryTable()
    }
  }

  private func table<T>(_ description: TableDescription<T>) throws(PersistenceError)
    -> InMemoryTable<T>
  {
    guard let table = tables[ObjectIdentifier(T.self)] else {
      throw .unregisteredModel("\(T.self)")
    }
    // NB: keyed by the model type, so this is always `T`'s table (see ModelContainer.table).
    return unsafeDowncast(table, to: InMemoryTable<T>.self)
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
    table.append(InMemoryTable.Entry(sequence: nextSequence, model: stored, values: values))
    nextSequence += 1
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
    table.replace(at: position, model: stored, values: values)
  }

  func delete<T: PersistentModel>(id: T.ID, table description: TableDescription<T>) throws {
    let table = try table(description)
    let key = try description.decode(id: id)
    guard let position = table.state.positions[key] else {
      throw PersistenceError.notFound(model: description.modelName, id: "\(id)")
    }
    table.remove(at: [position])
  }

  func delete<T: PersistentModel>(
    where predicate: Predicate<T>, table description: TableDescription<T>
  ) throws -> Int {
    let table = try table(description)
    let matches = Self.matcher(predicate, description)
    var doomed: [Int] = []
    for (position, entry) in table.state.rows.enumerated() where try matches(entry) {
      doomed.append(position)
    }
    table.remove(at: doomed)
    return doomed.count
  }

  func fetch<T: PersistentModel>(
    _ descriptor: FetchDescriptor<T>, table description: TableDescription<T>
  ) throws -> [T] {
    try descriptor.validate()
    let matches = try filtered(try table(description), descriptor.predicate)
    let needed = descriptor.fetchLimit.map { $0 + (descriptor.fetchOffset ?? 0) }
    return descriptor.applyingRange(
      to: sortedInSwift(matches, by: descriptor.sortBy, keepingFirst: needed))
  }

  func fetchCount<T: PersistentModel>(
    _ descriptor: FetchDescriptor<T>, table description: TableDescription<T>
  ) throws -> Int {
    try descriptor.validate()
    return descriptor.rangeCount(try filtered(try table(description), descriptor.predicate).count)
  }

  func fetch<T: PersistentModel>(id: T.ID, table description: TableDescription<T>) throws -> T? {
    let table = try table(description)
    let key = try description.decode(id: id)
    return table.state.positions[key].map { table.state.rows[$0].model }
  }

  private func filtered<T>(_ table: InMemoryTable<T>, _ predicate: Predicate<T>?) throws -> [T] {
    guard let predicate else { return table.state.rows.map(\.model) }
    let matches = Self.matcher(predicate, table.description)
    var models: [T] = []
    // NB: through the buffer, each row is looked at in place; iterating the array would copy
    // every row (its model and values) to look at it.
    try table.state.rows.withUnsafeBufferPointer { rows in
      for index in rows.indices where try matches(rows[index]) {
        models.append(rows[index].model)
      }
    }
    return models
  }

  /// Whether a row matches `predicate`, decided as the SQLite backend decides it.
  ///
  /// NB: `Predicate.evaluate` costs microseconds a row (generic key paths and bindings); the
  /// translated part runs on the stored values in nanoseconds. SQLite answers the translated
  /// part exactly as Swift does (the differential tests hold both backends to
  /// `Predicate.evaluate`), so the answers are the same.
  private static func matcher<T>(_ predicate: Predicate<T>, _ description: TableDescription<T>)
    -> (InMemoryTable<T>.Entry) throws -> Bool
  {
    var translator = PredicateTranslator(table: description)
    guard let plan = translator.translate(predicate) else {
      // May throw: every model, in insertion order, so it throws on the same row as SQLite.
      return { try evaluate(predicate, $0.model) }
    }
    let narrowing: RowValue?
    if let clause = plan.whereClause {
      guard let row = clause.row else { return { try evaluate(predicate, $0.model) } }
      narrowing = row
    } else {
      narrowing = nil
    }
    switch (narrowing, plan.exact) {
    case (let narrowing?, true): return { narrowing.isTrue($0.values) }
    case (nil, true): return { _ in true }
    case (let narrowing?, false):
      return { try narrowing.isTrue($0.values) && evaluate(predicate, $0.model) }
    case (nil, false): return { try evaluate(predicate, $0.model) }
    }
  }

  /// Runs `body`, restoring every table to its state before the call if it throws.
  ///
  /// Nested calls restore only their own changes.
  func transaction<R>(_ body: () throws -> R) throws -> R {
    let snapshot = tables.mapValues { $0.snapshot() }
    do {
      return try body()
    } catch {
      for (key, state) in snapshot {
        tables[key]?.restore(state)
      }
      throw error
    }
  }

  func checkIntegrity() throws {}
}

extension TableDescription {
  /// The id as the in-memory backend keys it: as it reads back from storage.
  fileprivate func decode(id: Model.ID) throws(PersistenceError) -> Model.ID {
    let encoded = try encodeID(id)
    do {
      return try Model.ID(decodingColumn: encoded)
    } catch {
      throw .invalidValue(model: modelName, column: columns[idIndex].name, value: "\(id)")
    }
  }
}

// MARK: - Tables

protocol InMemoryTableStorage: AnyObject {
  func snapshot() -> Any
  func restore(_ snapshot: Any)
}

extension TableDescription {
  func makeInMemoryTable() -> any InMemoryTableStorage { InMemoryTable(self) }
}

/// The rows of one model, in insertion order, with lookups by id and by unique index.
final class InMemoryTable<T: PersistentModel>: InMemoryTableStorage {
  struct Entry {
    var sequence: Int64
    var model: T
    var values: [SQLValue]
  }

  struct State {
    var rows: [Entry] = []
    var positions: [T.ID: Int] = [:]
    /// For each unique index (in declaration order): indexed values → id.
    var unique: [[[SQLValue]: T.ID]]
  }

  let description: TableDescription<T>
  private(set) var state: State
  private let uniqueIndexes: [IndexDescription]
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

  func snapshot() -> Any { state }

  func restore(_ snapshot: Any) {
    if let state = snapshot as? State { self.state = state }
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

  func append(_ entry: Entry) {
    state.positions[entry.model.id] = state.rows.count
    addKeys(entry)
    state.rows.append(entry)
  }

  func replace(at position: Int, model: T, values: [SQLValue]) {
    removeKeys(state.rows[position])
    state.rows[position].model = model
    state.rows[position].values = values
    addKeys(state.rows[position])
  }

  /// Removes the rows at `positions` (ascending).
  func remove(at positions: [Int]) {
    guard let first = positions.first else { return }
    let doomed = Set(positions)
    for position in positions {
      removeKeys(state.rows[position])
      state.positions[state.rows[position].model.id] = nil
    }
    var kept: [Entry] = Array(state.rows[..<first])
    for position in first..<state.rows.count where !doomed.contains(position) {
      state.positions[state.rows[position].model.id] = kept.count
      kept.append(state.rows[position])
    }
    state.rows = kept
  }

  private func addKeys(_ entry: Entry) {
    for (offset, index) in uniqueIndexes.enumerated() {
      if let key = key(entry.values, index) { state.unique[offset][key] = entry.model.id }
    }
  }

  private func removeKeys(_ entry: Entry) {
    for (offset, index) in uniqueIndexes.enumerated() {
      if let key = key(entry.values, index) { state.unique[offset][key] = nil }
    }
  }
}
