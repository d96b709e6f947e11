import Foundation

/// A backend storing each model in an SQL table: the SQLite and PostgreSQL backends.
///
/// What both do alike is written here once, over their ``SQLConnection`` and ``SQLTable``:
/// deleting by predicate, counting, fetching by id, and fetching what SQL cannot select whole.
/// Each backend keeps what differs: opening, writes and how their failures are read, the
/// common fetches' fast paths, and transactions.
protocol SQLBackend: StorageBackend {
  associatedtype Connection: SQLConnection
  /// The table registered for `description`'s model.
  func table<T>(_ description: TableDescription<T>) throws(PersistenceError)
    -> SQLTable<T, Connection>
  /// Runs one call's statements (`reading` when they only read), as the backend runs a call:
  /// SQLite as they are, PostgreSQL again after a failure that running again can mend.
  func perform<R>(reading: Bool, _ work: () throws -> R) throws -> R
}

extension SQLBackend {
  func delete<T: PersistentModel>(
    where predicate: Predicate<T>, table description: TableDescription<T>
  ) throws -> Int {
    let table = try table(description)
    if let plan = table.translate(predicate), plan.exact {
      let clause = plan.whereClause
      return try perform(reading: false) {
        try table.connection.changes(
          table.from("DELETE", where: clause), clause?.parameters ?? [], kinds: clause?.kinds ?? [])
      }
    }
    return try transaction {
      var doomed: [Int64] = []
      try table.scan(predicate: predicate, orderBy: nil) { _, sequence in
        doomed.append(sequence)
        return true
      }
      for sequence in doomed {
        _ = try perform(reading: false) {
          try table.connection.changes(table.deleteBySequence, [.integer(sequence)])
        }
      }
      return doomed.count
    }
  }

  func fetchCount<T: PersistentModel>(
    _ descriptor: FetchDescriptor<T>, table description: TableDescription<T>
  ) throws -> Int {
    let table = try table(description)
    var total = 0
    if let plan = table.translate(descriptor.predicate), plan.exact {
      let clause = plan.whereClause
      let sql = table.from("SELECT count(*)", where: clause)
      try perform(reading: true) {
        try table.connection.rows(sql, clause?.parameters ?? [], kinds: clause?.kinds ?? []) {
          total = Int($0.integer(at: 0))
          return false
        }
      }
    } else {
      try perform(reading: true) {
        total = 0
        try table.scan(predicate: descriptor.predicate, orderBy: nil) { _, _ in
          total += 1
          return true
        }
      }
    }
    return descriptor.rangeCount(total)
  }

  func fetch<T: PersistentModel>(id: T.ID, table description: TableDescription<T>) throws -> T? {
    let table = try table(description)
    let key = try description.encodeID(id)
    return try perform(reading: true) {
      var model: T?
      try table.connection.rows(table.selectByID, [key]) { source in
        model = try T(row: Row(table: description, source: source))
        return false
      }
      return model
    }
  }

  /// The models `descriptor` selects, read whole and filtered or sorted in Swift: every row in
  /// insertion order when its predicate was not `translated`, else the rows its translation
  /// selects, in `orderBy` order (sorted in Swift when `nil`).
  func fetchInSwift<T: PersistentModel>(
    _ descriptor: FetchDescriptor<T>, table: SQLTable<T, Connection>, translated: Bool,
    orderBy: String?
  ) throws -> [T] {
    // NB: a predicate that may throw is evaluated on every row in insertion order, whatever
    // the limit, so it throws on the same row as the in-memory backend (and as
    // `Array.filter`); only then are the matches sorted and windowed. Otherwise, when SQL
    // sorts, stop once enough rows matched (the rows after them need not be looked at).
    let enough = translated && orderBy != nil ? descriptor.rangeEnd : nil
    var models: [T] = []
    try perform(reading: true) {
      models = []
      try table.scan(predicate: descriptor.predicate, orderBy: translated ? orderBy : nil) {
        model, _ in
        models.append(model)
        return enough.map { models.count < $0 } ?? true
      }
    }
    guard translated else {
      return descriptor.applyingRange(
        to: sortedInSwift(models, by: descriptor.sortBy, keepingFirst: descriptor.rangeEnd))
    }
    if orderBy == nil { models = sortedInSwift(models, by: descriptor.sortBy) }
    return descriptor.applyingRange(to: models)
  }
}

extension SQLTable {
  /// The values of `LIMIT ? OFFSET ?` for `descriptor`'s window (no limit: SQLite's -1,
  /// PostgreSQL's `NULL`).
  func rangeParameters(_ descriptor: FetchDescriptor<T>) -> [SQLValue] {
    let noLimit: SQLValue = Connection.dialect == .sqlite ? .integer(-1) : .null
    return [
      descriptor.fetchLimit.map { .integer(Int64($0)) } ?? noLimit,
      .integer(Int64(descriptor.fetchOffset ?? 0)),
    ]
  }
}
