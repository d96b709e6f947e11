import CSQLite
import Foundation

/// The SQLite backend: one table per model, one real column per schema column.
///
/// Every table has a hidden `loop_seq INTEGER PRIMARY KEY` (the rowid): it grows with each insert
/// and gives the default order, and breaks ties in sorts. The id column is `NOT NULL UNIQUE`.
/// Tables are `STRICT`, the file is in WAL mode with a busy timeout, so several connections and
/// processes can share it. Every value is bound as a parameter; only `DEFAULT` values in DDL,
/// which SQLite cannot bind, are written as escaped literals.
final class SQLiteBackend: StorageBackend, @unchecked Sendable {
  let database: SQLiteDatabase
  private var tables: [ObjectIdentifier: AnyObject] = [:]
  private var depth = 0

  /// Opens the file at `path`, checks it is an SQLite database and that every table can be
  /// brought to its schema, then (and only then) writes: WAL mode, new tables, columns, indexes.
  init(path: String, descriptions: [any AnyTableDescription]) throws(PersistenceError) {
    try Self.prepareFolder(for: path)
    let database = try SQLiteDatabase(path: path)
    self.database = database
    try probe()
    // NB: check every table before the first write, so a schema that cannot be applied leaves
    // the file as it was.
    for description in descriptions {
      _ = try migrationPlan(for: description)
    }
    try enableWriteAheadLog()
    try database.execute("PRAGMA foreign_keys = ON")
    // NB: 64 MiB of page cache, not SQLite's 2 MiB: a large transaction (an import of 100,000
    // links) otherwise spills its dirty pages to the log and reads them back, which cost more
    // than the inserts.
    try database.execute("PRAGMA cache_size = -65536")
    try writeTransaction { () throws(PersistenceError) in
      try database.execute(
        """
        CREATE TABLE IF NOT EXISTS loop_meta (
          table_name TEXT PRIMARY KEY, version INTEGER NOT NULL, columns TEXT NOT NULL
        ) STRICT
        """)
      for description in descriptions {
        // Planned again inside the write transaction, in case another process changed the file.
        try apply(migrationPlan(for: description))
      }
    }
    for description in descriptions {
      tables[description.modelID] = try makeTable(for: description)
    }
  }

  private static func prepareFolder(for path: String) throws(PersistenceError) {
    var isFolder: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
      throw .cannotOpen(path: path, reason: "it is a folder")
    }
    let folder = (path as NSString).deletingLastPathComponent
    guard !folder.isEmpty else { return }
    do {
      try FileManager.default.createDirectory(
        atPath: folder, withIntermediateDirectories: true)
    } catch {
      throw .cannotOpen(path: path, reason: "cannot create the folder '\(folder)'")
    }
  }

  /// Reads the schema, which fails on a file that is not a database or is damaged.
  private func probe() throws(PersistenceError) {
    do {
      try database.run("SELECT count(*) FROM sqlite_schema")
    } catch {
      guard case .sqlite(_, let message, _) = error else { throw error }
      throw .cannotOpen(path: database.path, reason: message)
    }
  }

  private func enableWriteAheadLog() throws(PersistenceError) {
    var mode = ""
    do {
      try database.query("PRAGMA journal_mode = WAL") { statement in
        mode = statement.text(at: 0)
        return false
      }
    } catch let error as PersistenceError {
      throw error
    } catch {
      throw .cannotOpen(path: database.path, reason: "\(error)")
    }
    guard mode.lowercased() == "wal" else {
      throw .cannotOpen(path: database.path, reason: "WAL mode is not available (got '\(mode)')")
    }
  }

  private func table<T>(_ description: TableDescription<T>) throws(PersistenceError)
    -> SQLiteTable<T>
  {
    guard let table = tables[ObjectIdentifier(T.self)] else {
      throw .unregisteredModel("\(T.self)")
    }
    // NB: keyed by the model type, so this is always `T`'s table (see ModelContainer.table).
    return unsafeDowncast(table, to: SQLiteTable<T>.self)
  }

  // MARK: Writes

  func insert<T: PersistentModel>(_ model: T, table description: TableDescription<T>) throws {
    let table = try table(description)
    try table.checkIDColumn(model)
    let values = try description.encode(model)
    do {
      try table.insert.execute(values)
    } catch {
      guard case .sqlite(let code, _, _) = error, code & 0xFF == SQLITE_CONSTRAINT else {
        throw error
      }
      let id = values[description.idIndex]
      if try table.exists(id) {
        throw PersistenceError.duplicateID(
          model: description.modelName, id: "\(model.id)")
      }
      throw try table.conflict(values, model: model)
        ?? PersistenceError.sqlite(
          code: code, message: "constraint failed", sql: table.insert.sql)
    }
  }

  func update<T: PersistentModel>(_ model: T, table description: TableDescription<T>) throws {
    let table = try table(description)
    try table.checkIDColumn(model)
    let values = try description.encode(model)
    var parameters = values
    parameters.remove(at: description.idIndex)
    parameters.append(values[description.idIndex])
    do {
      try table.update.execute(parameters)
    } catch {
      guard case .sqlite(let code, _, _) = error, code & 0xFF == SQLITE_CONSTRAINT else {
        throw error
      }
      throw try table.conflict(values, model: model)
        ?? PersistenceError.sqlite(
          code: code, message: "constraint failed", sql: table.update.sql)
    }
    // NB: an UPDATE of a missing row succeeds with zero changes.
    guard database.changes > 0 else {
      throw PersistenceError.notFound(model: description.modelName, id: "\(model.id)")
    }
  }

  func delete<T: PersistentModel>(id: T.ID, table description: TableDescription<T>) throws {
    let table = try table(description)
    try table.deleteByID.execute([description.encodeID(id)])
    guard database.changes > 0 else {
      throw PersistenceError.notFound(model: description.modelName, id: "\(id)")
    }
  }

  func delete<T: PersistentModel>(
    where predicate: Predicate<T>, table description: TableDescription<T>
  ) throws -> Int {
    let table = try table(description)
    var translator = PredicateTranslator(table: description)
    if let plan = translator.translate(predicate), plan.exact {
      var sql = "DELETE FROM \(quoted(description.table))"
      if let clause = plan.whereClause { sql += " WHERE " + clause.sql }
      try database.run(sql, plan.whereClause?.parameters ?? [])
      return database.changes
    }
    return try transaction {
      var doomed: [Int64] = []
      try scan(table, predicate: predicate, orderBy: nil) { model, sequence in
        doomed.append(sequence)
        return true
      }
      for sequence in doomed {
        try table.deleteBySequence.execute([.integer(sequence)])
      }
      return doomed.count
    }
  }

  // MARK: Reads

  func fetch<T: PersistentModel>(
    _ descriptor: FetchDescriptor<T>, table description: TableDescription<T>
  ) throws -> [T] {
    try descriptor.validate()
    if descriptor.fetchLimit == 0 { return [] }
    let table = try table(description)
    let order = table.order(descriptor.sortBy)
    let orderBy = order.orderBy
    let limited = descriptor.fetchLimit != nil || descriptor.fetchOffset != nil
    let range: [SQLValue] =
      limited
      ? [
        .integer(Int64(descriptor.fetchLimit ?? -1)), .integer(Int64(descriptor.fetchOffset ?? 0)),
      ]
      : []
    var models: [T] = []
    if let limit = descriptor.fetchLimit { models.reserveCapacity(min(limit, 256)) }
    if descriptor.predicate == nil, orderBy != nil {
      // The common case (a list, sorted, maybe limited) runs a statement prepared once, read
      // through one row that follows its steps.
      let statement = try table.unfilteredSelect(order, limited: limited)
      let row = Row(table: description, source: .statement(statement))
      try statement.run(range) { _ in
        models.append(try T(row: row))
        return true
      }
      return models
    }
    var translator = PredicateTranslator(table: description)
    if let plan = translator.translate(descriptor.predicate), plan.exact, let orderBy {
      var sql = table.selectAll
      var parameters: [SQLValue] = []
      if let clause = plan.whereClause {
        sql += " WHERE " + clause.sql
        parameters = clause.parameters
      }
      sql += " ORDER BY " + orderBy
      if limited {
        sql += " LIMIT ? OFFSET ?"
        parameters += range
      }
      try database.query(sql, parameters) { statement in
        models.append(try T(row: Row(table: description, source: .statement(statement))))
        return true
      }
      return models
    }
    // Filtered and/or sorted in Swift. When SQL sorts, stop once enough rows matched.
    let enough =
      orderBy == nil ? nil : descriptor.fetchLimit.map { $0 + (descriptor.fetchOffset ?? 0) }
    try scan(table, predicate: descriptor.predicate, orderBy: orderBy) { model, _ in
      models.append(model)
      return enough.map { models.count < $0 } ?? true
    }
    if orderBy == nil { models = sortedInSwift(models, by: descriptor.sortBy) }
    return descriptor.applyingRange(to: models)
  }

  func fetchCount<T: PersistentModel>(
    _ descriptor: FetchDescriptor<T>, table description: TableDescription<T>
  ) throws -> Int {
    try descriptor.validate()
    let table = try table(description)
    var translator = PredicateTranslator(table: description)
    var total = 0
    if let plan = translator.translate(descriptor.predicate), plan.exact {
      var sql = "SELECT count(*) FROM \(quoted(description.table))"
      if let clause = plan.whereClause { sql += " WHERE " + clause.sql }
      try database.query(sql, plan.whereClause?.parameters ?? []) { statement in
        total = Int(statement.integer(at: 0))
        return false
      }
    } else {
      try scan(table, predicate: descriptor.predicate, orderBy: nil) { _, _ in
        total += 1
        return true
      }
    }
    return descriptor.rangeCount(total)
  }

  func fetch<T: PersistentModel>(id: T.ID, table description: TableDescription<T>) throws -> T? {
    let table = try table(description)
    var model: T?
    try table.selectByID.run([description.encodeID(id)]) { statement in
      model = try T(row: Row(table: description, source: .statement(statement)))
      return false
    }
    return model
  }

  /// Calls `body` with each model (and its `loop_seq`) the predicate accepts.
  ///
  /// Rows come in `orderBy` order (insertion order when `nil`), until `body` returns `false`. The
  /// translatable part of the predicate runs in SQL, the whole predicate in Swift.
  private func scan<T>(
    _ table: SQLiteTable<T>, predicate: Predicate<T>?, orderBy: String?,
    _ body: (T, Int64) throws -> Bool
  ) throws {
    var translator = PredicateTranslator(table: table.description)
    let plan = translator.translate(predicate)
    var sql = table.selectAll
    if let clause = plan?.whereClause { sql += " WHERE " + clause.sql }
    sql += " ORDER BY " + (orderBy ?? quoted("loop_seq"))
    let sequenceColumn = Int32(table.description.columns.count)
    try database.query(sql, plan?.whereClause?.parameters ?? []) { statement in
      let model = try T(row: Row(table: table.description, source: .statement(statement)))
      if let predicate, plan?.exact != true, try !evaluate(predicate, model) { return true }
      return try body(model, statement.integer(at: sequenceColumn))
    }
  }

  // MARK: Transactions

  /// Runs `body` in a transaction.
  ///
  /// `BEGIN IMMEDIATE` … `COMMIT` at the outermost level, a `SAVEPOINT` when nested. A throw
  /// rolls back this level only and is rethrown.
  func transaction<R>(_ body: () throws -> R) throws -> R {
    let savepoint = "loop_savepoint_\(depth)"
    try database.execute(depth == 0 ? "BEGIN IMMEDIATE" : "SAVEPOINT \(savepoint)")
    depth += 1
    let result: R
    do {
      result = try body()
    } catch {
      depth -= 1
      rollback(savepoint: depth == 0 ? nil : savepoint)
      throw error
    }
    depth -= 1
    do {
      try database.execute(depth == 0 ? "COMMIT" : "RELEASE \(savepoint)")
    } catch {
      rollback(savepoint: depth == 0 ? nil : savepoint)
      throw error
    }
    return result
  }

  private func writeTransaction<R>(_ body: () throws(PersistenceError) -> R)
    throws(PersistenceError) -> R
  {
    do {
      return try transaction { () throws -> R in try body() }
    } catch let error as PersistenceError {
      throw error
    } catch {
      throw .sqlite(code: SQLITE_ERROR, message: "\(error)", sql: nil)
    }
  }

  private func rollback(savepoint: String?) {
    // NB: SQLite may already have rolled back (after SQLITE_FULL, SQLITE_IOERR, …).
    guard !database.isAutocommit else { return }
    if let savepoint {
      try? database.execute("ROLLBACK TO \(savepoint); RELEASE \(savepoint)")
    } else {
      try? database.execute("ROLLBACK")
    }
  }

  func checkIntegrity() throws {
    var problems: [String] = []
    try database.query("PRAGMA integrity_check") { statement in
      problems.append(statement.text(at: 0))
      return true
    }
    guard problems == ["ok"] else {
      throw PersistenceError.corruptDatabase(
        path: database.path, reason: problems.joined(separator: "; "))
    }
  }
}

// MARK: - Tables

/// A model's table in an open database, with its prepared statements.
final class SQLiteTable<T: PersistentModel> {
  let description: TableDescription<T>
  let database: SQLiteDatabase
  /// `SELECT <schema columns>, loop_seq FROM <table>`.
  let selectAll: String
  let insert: SQLiteStatement
  let update: SQLiteStatement
  let selectByID: SQLiteStatement
  let existsByID: SQLiteStatement
  let deleteByID: SQLiteStatement
  let deleteBySequence: SQLiteStatement
  private var idColumnChecked = false
  private var orders: [[SortKey]: Order] = [:]
  private var lastOrder: ([SortKey], Order)?

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
  final class Order {
    let orderBy: String?
    var plain: SQLiteStatement?
    var limited: SQLiteStatement?

    init(orderBy: String?) {
      self.orderBy = orderBy
    }
  }

  init(_ description: TableDescription<T>, database: SQLiteDatabase) throws(PersistenceError) {
    self.description = description
    self.database = database
    let table = quoted(description.table)
    let names = description.stored.map { quoted($0.name) }
    let id = names[description.idIndex]
    let selected = description.columns.map { quoted($0.name) } + [quoted("loop_seq")]
    selectAll = "SELECT \(selected.joined(separator: ", ")) FROM \(table)"
    insert = try database.prepareUncached(
      "INSERT INTO \(table) (\(names.joined(separator: ", "))) VALUES ("
        + Array(repeating: "?", count: names.count).joined(separator: ", ") + ")")
    var assignments = names.map { "\($0) = ?" }
    assignments.remove(at: description.idIndex)
    update = try database.prepareUncached(
      "UPDATE \(table) SET \(assignments.joined(separator: ", ")) WHERE \(id) = ?")
    selectByID = try database.prepareUncached("\(selectAll) WHERE \(id) = ?")
    existsByID = try database.prepareUncached("SELECT 1 FROM \(table) WHERE \(id) = ?")
    deleteByID = try database.prepareUncached("DELETE FROM \(table) WHERE \(id) = ?")
    deleteBySequence = try database.prepareUncached(
      "DELETE FROM \(table) WHERE \(quoted("loop_seq")) = ?")
  }

  func checkIDColumn(_ model: T) throws(PersistenceError) {
    guard !idColumnChecked else { return }
    try description.checkIDColumn(model)
    idColumnChecked = true
  }

  func exists(_ id: SQLValue) throws -> Bool {
    var found = false
    try existsByID.run([id]) { _ in
      found = true
      return false
    }
    return found
  }

  /// The first unique index (in declaration order) that `values` conflict with, as an error.
  func conflict(_ values: [SQLValue], model: T) throws -> PersistenceError? {
    let id = values[description.idIndex]
    for index in description.indexes where index.isUnique {
      let key = index.positions.map { values[$0] }
      if key.contains(.null) { continue }
      let conditions = index.columns.map { "\(quoted($0)) = ?" }
      let sql =
        "SELECT 1 FROM \(quoted(description.table)) WHERE "
        + conditions.joined(separator: " AND ")
        + " AND \(quoted(description.stored[description.idIndex].name)) <> ? LIMIT 1"
      var found = false
      try database.query(sql, key + [id]) { _ in
        found = true
        return false
      }
      if found {
        return .uniqueViolation(
          model: description.modelName, columns: index.columns, id: "\(model.id)")
      }
    }
    return nil
  }

  /// The cached ``Order`` for `descriptors`.
  func order(_ descriptors: [SortDescriptor<T>]) -> Order {
    // NB: a screen fetches with the same descriptors again and again; compare with the last
    // ones before building a key.
    if let (keys, order) = lastOrder, keys.count == descriptors.count,
      Self.matches(keys, descriptors)
    {
      return order
    }
    var keys: [SortKey] = []
    for descriptor in descriptors {
      guard descriptor.stringComparator == nil, let keyPath = descriptor.keyPath else {
        return Order(orderBy: orderBy(descriptors))
      }
      keys.append(SortKey(keyPath: keyPath, forward: descriptor.order == .forward))
    }
    let order: Order
    if let cached = orders[keys] {
      order = cached
    } else {
      if orders.count >= 64 { orders.removeAll() }
      order = Order(orderBy: orderBy(descriptors))
      orders[keys] = order
    }
    lastOrder = (keys, order)
    return order
  }

  /// Whether `descriptors` sort as `keys` (of the same count) do.
  ///
  /// NB: an index loop: `zip` and `allSatisfy` are generic code not specialized here, and cost
  /// more than the comparisons.
  private static func matches(_ keys: [SortKey], _ descriptors: [SortDescriptor<T>]) -> Bool {
    for index in keys.indices {
      let (key, descriptor) = (keys[index], descriptors[index])
      guard descriptor.keyPath === key.keyPath, (descriptor.order == .forward) == key.forward,
        descriptor.stringComparator == nil
      else { return false }
    }
    return true
  }

  /// The statement selecting every row in `order` (with `LIMIT ? OFFSET ?` when `limited`).
  func unfilteredSelect(_ order: Order, limited: Bool) throws(PersistenceError)
    -> SQLiteStatement
  {
    if let statement = limited ? order.limited : order.plain { return statement }
    let sql =
      selectAll + " ORDER BY " + (order.orderBy ?? quoted("loop_seq"))
      + (limited ? " LIMIT ? OFFSET ?" : "")
    let statement = try database.prepareUncached(sql)
    if limited { order.limited = statement } else { order.plain = statement }
    return statement
  }

  /// The `ORDER BY` terms for `descriptors` (ending with `loop_seq`), or `nil` when one of them
  /// cannot be sorted by SQL exactly as Swift sorts it.
  func orderBy(_ descriptors: [SortDescriptor<T>]) -> String? {
    guard let order = description.storedOrder(descriptors) else { return nil }
    let terms = order.map {
      description.stored[$0.position].quotedName + ($0.ascending ? " ASC" : " DESC")
    }
    return (terms + [quoted("loop_seq")]).joined(separator: ", ")
  }
}

extension SQLiteBackend {
  fileprivate func makeTable(for description: any AnyTableDescription) throws(PersistenceError)
    -> AnyObject
  {
    try description.makeSQLiteTable(database)
  }

  fileprivate func migrationPlan(for description: any AnyTableDescription)
    throws(PersistenceError) -> MigrationPlan
  {
    try description.migrationPlan(in: database)
  }

  fileprivate func apply(_ plan: MigrationPlan) throws(PersistenceError) {
    for statement in plan.beforeBackfill {
      try database.execute(statement)
    }
    try plan.backfill?(database)
    for (statement, index) in plan.indexes {
      do {
        try database.execute(statement)
      } catch {
        guard case .sqlite(let code, _, _) = error, code & 0xFF == SQLITE_CONSTRAINT else {
          throw error
        }
        throw .incompatibleSchema(
          table: plan.table, column: index.columns.joined(separator: ", "),
          reason: "existing rows share values in the new unique index")
      }
    }
    try database.run(
      """
      INSERT INTO loop_meta (table_name, version, columns) VALUES (?, ?, ?)
      ON CONFLICT (table_name) DO UPDATE SET version = excluded.version, columns = excluded.columns
      """, [.text(plan.table), .integer(Int64(plan.version)), .text(plan.columns)])
  }
}

// MARK: - Migration

/// What opening a file does to one table: statements to run, rows to fill in, indexes to make.
struct MigrationPlan {
  var table: String
  var version: Int
  var columns: String
  var beforeBackfill: [String] = []
  var backfill: ((SQLiteDatabase) throws(PersistenceError) -> Void)?
  var indexes: [(String, IndexDescription)] = []
}

extension TableDescription {
  func makeSQLiteTable(_ database: SQLiteDatabase) throws(PersistenceError) -> AnyObject {
    try SQLiteTable(self, database: database)
  }

  func migrationPlan(in database: SQLiteDatabase) throws(PersistenceError) -> MigrationPlan {
    var plan = MigrationPlan(
      table: table, version: version,
      columns: stored.map { "\($0.name) \($0.type.rawValue)" }.joined(separator: ", "))
    let existing = try existingColumns(in: database)
    let creates = indexes.map { index in
      (
        "CREATE \(index.isUnique ? "UNIQUE " : "")INDEX IF NOT EXISTS \(quoted(index.name)) ON "
          + "\(quoted(table)) (\(index.columns.map(quoted).joined(separator: ", ")))", index
      )
    }
    guard !existing.isEmpty else {
      let declarations =
        [quoted("loop_seq") + " INTEGER PRIMARY KEY"]
        + stored.enumerated().map { position, column in
          column.declaration + (position == idIndex ? " UNIQUE" : "")
        }
      plan.beforeBackfill = [
        "CREATE TABLE \(quoted(table)) (\(declarations.joined(separator: ", "))) STRICT"
      ]
      plan.indexes = creates
      return plan
    }
    try checkVersion(in: database)
    func incompatible(_ column: String?, _ reason: String) -> PersistenceError {
      .incompatibleSchema(table: table, column: column, reason: reason)
    }
    guard let sequence = existing.first(where: { $0.name == "loop_seq" }), sequence.isKey else {
      throw incompatible(nil, "the table was not created by Loop (it has no 'loop_seq' column)")
    }
    _ = sequence
    var dropped: [String] = []
    for column in existing where column.name != "loop_seq" {
      guard let declared = stored.first(where: { $0.name == column.name }) else {
        if column.name.hasPrefix("loop_folded_") {
          dropped.append(column.name)
          continue
        }
        throw incompatible(
          column.name, "the file has this column but the schema no longer declares it")
      }
      let declaredType = declared.type.rawValue + (declared.isOptional ? "" : " NOT NULL")
      let storedType = column.type + (column.notNull ? " NOT NULL" : "")
      guard declaredType == storedType else {
        throw incompatible(
          column.name, "the file stores it as \(storedType), the schema declares \(declaredType)")
      }
    }
    // Stale indexes first (a column with an index cannot be dropped), then columns.
    for name in try existingIndexes(in: database)
    where !indexes.contains(where: { $0.name == name }) {
      plan.beforeBackfill.append("DROP INDEX \(quoted(name))")
    }
    for name in dropped {
      plan.beforeBackfill.append("ALTER TABLE \(quoted(table)) DROP COLUMN \(quoted(name))")
    }
    var addedFolds: [Int] = []
    for (position, column) in stored.enumerated()
    where !existing.contains(where: { $0.name == column.name }) {
      var declaration = column.declaration
      if column.foldedSource != nil {
        addedFolds.append(position)
      } else if !column.isOptional {
        guard case .success(let value) = columns[position].defaultValue else {
          throw incompatible(column.name, "a new non-optional column needs a default value")
        }
        guard let literal = sqlLiteral(value) else {
          throw incompatible(column.name, "its default cannot be written in SQL")
        }
        declaration += " DEFAULT \(literal)"
      }
      plan.beforeBackfill.append("ALTER TABLE \(quoted(table)) ADD COLUMN \(declaration)")
    }
    if !addedFolds.isEmpty {
      plan.backfill = { database throws(PersistenceError) in
        try self.backfill(addedFolds, in: database)
      }
    }
    plan.indexes = creates
    return plan
  }

  private struct ExistingColumn {
    var name: String
    var type: String
    var notNull: Bool
    var isKey: Bool
  }

  private func existingColumns(in database: SQLiteDatabase) throws(PersistenceError)
    -> [ExistingColumn]
  {
    var columns: [ExistingColumn] = []
    do {
      try database.query(
        "SELECT name, type, \"notnull\", pk FROM pragma_table_info(?)", [.text(table)]
      ) { statement in
        columns.append(
          ExistingColumn(
            name: statement.text(at: 0), type: statement.text(at: 1).uppercased(),
            notNull: statement.integer(at: 2) != 0, isKey: statement.integer(at: 3) != 0))
        return true
      }
    } catch {
      throw error as? PersistenceError ?? .sqlite(code: SQLITE_ERROR, message: "\(error)", sql: nil)
    }
    return columns
  }

  private func existingIndexes(in database: SQLiteDatabase) throws(PersistenceError) -> [String] {
    var names: [String] = []
    do {
      try database.query(
        "SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = ?", [.text(table)]
      ) { statement in
        let name = statement.text(at: 0)
        if name.hasPrefix("loop_index_") || name.hasPrefix("loop_unique_") { names.append(name) }
        return true
      }
    } catch {
      throw error as? PersistenceError ?? .sqlite(code: SQLITE_ERROR, message: "\(error)", sql: nil)
    }
    return names
  }

  private func checkVersion(in database: SQLiteDatabase) throws(PersistenceError) {
    var recorded: Int64?
    do {
      var hasMeta = false
      try database.query(
        "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'loop_meta'"
      ) { _ in
        hasMeta = true
        return false
      }
      guard hasMeta else { return }
      try database.query(
        "SELECT version FROM loop_meta WHERE table_name = ?", [.text(table)]
      ) { statement in
        recorded = statement.integer(at: 0)
        return false
      }
    } catch {
      throw error as? PersistenceError ?? .sqlite(code: SQLITE_ERROR, message: "\(error)", sql: nil)
    }
    if let recorded, recorded > Int64(version) {
      throw .incompatibleSchema(
        table: table, column: nil,
        reason:
          "the file has schema version \(recorded), newer than version \(version) of \(modelName)"
      )
    }
  }

  /// Fills newly added folded columns from the rows' models.
  private func backfill(_ positions: [Int], in database: SQLiteDatabase) throws(PersistenceError) {
    let sequenceColumn = Int32(columns.count)
    var updates: [[SQLValue]] = []
    let selected = (columns.map { quoted($0.name) } + [quoted("loop_seq")])
    do {
      try database.query(
        "SELECT \(selected.joined(separator: ", ")) FROM \(quoted(table))"
      ) { statement in
        let model = try Model(row: Row(table: self, source: .statement(statement)))
        var values: [SQLValue] = positions.map { position in
          guard let source = stored[position].foldedSource, let fold = columns[source].fold else {
            return .null
          }
          return fold(model)
        }
        values.append(.integer(statement.integer(at: sequenceColumn)))
        updates.append(values)
        return true
      }
      let assignments = positions.map { "\(quoted(stored[$0].name)) = ?" }
      let update = try database.prepareUncached(
        "UPDATE \(quoted(table)) SET \(assignments.joined(separator: ", ")) WHERE "
          + "\(quoted("loop_seq")) = ?")
      for values in updates {
        try update.execute(values)
      }
    } catch {
      throw error as? PersistenceError
        ?? .incompatibleSchema(
          table: table, column: nil, reason: "an existing row cannot be read: \(error)")
    }
  }
}

/// `value` written as an SQL literal, for `DEFAULT` clauses (which cannot take parameters).
func sqlLiteral(_ value: SQLValue) -> String? {
  switch value {
  case .null:
    return "NULL"
  case .integer(let integer):
    return "\(integer)"
  case .real(let real):
    if real.isInfinite { return real < 0 ? "-9e999" : "9e999" }
    return "\(real)"
  case .text(let text):
    guard !text.utf8.contains(0) else { return nil }
    return "'\(text.replacingOccurrences(of: "'", with: "''"))'"
  case .blob(let bytes):
    let hex = bytes.map { byte in
      let digits = String(byte, radix: 16, uppercase: true)
      return digits.count == 1 ? "0" + digits : digits
    }
    return "X'\(hex.joined())'"
  }
}
