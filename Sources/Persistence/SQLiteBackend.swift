import CSQLite
import Foundation
import Loop

/// The SQLite backend: one table per model, one real column per schema column.
///
/// Every table has a hidden `loop_seq INTEGER PRIMARY KEY` (the rowid): it grows with each insert
/// and gives the default order, and breaks ties in sorts. The id column is `NOT NULL UNIQUE`.
/// Tables are `STRICT` (reals in `ANY` columns, which keep their bits: see `ColumnType.sqlType`;
/// a table with `REAL` columns, as earlier versions wrote, is rebuilt on open). The file is in
/// WAL mode, and a writer waits for another's transaction (see `BusyWait`), so several
/// connections and processes can share it. Every value is bound as a parameter; only `DEFAULT`
/// values in DDL, which SQLite cannot bind, are written as escaped literals.
///
/// This file is the backend's contract (opening, writes, reads, transactions); what it does as
/// the PostgreSQL backend does is in `SQLBackend`, a model's table, its statements and reading
/// its rows are in `SQLTable` (`SQLiteTable`), keeping the stored id prefix length up to date is
/// in `SQLiteBackend+IDPrefixLength.swift`, and what opening does to a file written by an
/// earlier schema is in `MigrationPlan`.
final class SQLiteBackend: SQLBackend, @unchecked Sendable {
  let database: SQLiteDatabase
  private var tables: BackendTables = [:]
  private(set) var depth = 0
  // NB: not private: the id prefix length's upkeep, in `SQLiteBackend+IDPrefixLength.swift`,
  // reads and resets these two.
  /// How many models the running transaction inserted, up to ``largeWriteInserts``.
  var inserts = 0
  /// The table the running transaction made large, whose id prefix length it forgot, and the
  /// pass over its ids that stores it again before it commits (see ``StoredIDPrefixLength``).
  var largeWriteTable: (name: String, pass: () throws -> (length: Int, count: Int))?

  /// The page cache of reads and small writes, in KiB: a listing of every row then keeps little
  /// of the file in memory.
  static let readCacheKiB = 4_096
  /// The page cache of a large write, in KiB.
  ///
  /// NB: 64 MiB, not SQLite's 2 MiB: a large transaction (an import of 100,000 links) otherwise
  /// spills its dirty pages to the log and reads them back, which cost more than the inserts.
  static let writeCacheKiB = 65_536
  /// How many inserts make a transaction large: it gets ``writeCacheKiB`` until it ends.
  static let largeWriteInserts = 1_000

  /// Opens the file at `path`, checks it is an SQLite database and that every table can be
  /// brought to its schema, then (and only then) writes: WAL mode, new tables, columns, indexes.
  init(path: String, descriptions: [any AnyTableDescription]) throws(PersistenceError) {
    try Self.prepareFile(at: path)
    let database = try SQLiteDatabase(path: path)
    self.database = database
    try probe()
    // NB: check every table before the first write, so a schema that cannot be applied leaves
    // the file as it was.
    for description in descriptions {
      _ = try description.migrationPlan(in: database)
    }
    try enableWriteAheadLog()
    try database.execute("PRAGMA foreign_keys = ON")
    // NB: a small page cache until a transaction writes much (see `largeWriteInserts`): a large
    // cache kept for reads too made a listing of 200,000 links hold the whole file in memory.
    try database.execute("PRAGMA cache_size = -\(Self.readCacheKiB)")
    try writeTransaction { () throws(PersistenceError) in
      try database.execute(
        """
        CREATE TABLE IF NOT EXISTS loop_meta (
          table_name TEXT PRIMARY KEY, version INTEGER NOT NULL, columns TEXT NOT NULL
        ) STRICT
        """)
      for description in descriptions {
        // Planned again inside the write transaction, in case another process changed the file.
        try description.migrationPlan(in: database).apply(in: database)
      }
    }
    for description in descriptions {
      tables[description.modelID] = try description.makeSQLiteTable(database)
    }
  }

  /// Creates the file's folder (`0700`) and the file itself (`0600`) when they are missing.
  ///
  /// SQLite then opens a file only its owner can read, and gives its `-wal` and `-shm` the same
  /// mode (see `PrivateFile`). An existing file or folder is left as it is.
  private static func prepareFile(at path: String) throws(PersistenceError) {
    var isFolder: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
      throw .cannotOpen(path: path, reason: "it is a folder")
    }
    let folder = PrivateFile.folder(of: path)
    if folder != "." {
      do {
        try PrivateFile.createFolder(atPath: folder)
      } catch {
        throw .cannotOpen(path: path, reason: "cannot create the folder '\(folder)'")
      }
    }
    do {
      try PrivateFile.createIfMissing(atPath: path)
    } catch {
      throw .cannotOpen(path: path, reason: error.reason)
    }
  }

  /// Reads the schema, which fails on a file that is not a database or is damaged.
  private func probe() throws(PersistenceError) {
    try mappingErrors {
      try database.run("SELECT count(*) FROM sqlite_schema")
    } sqliteFailed: { [path = database.path] _, message in
      .cannotOpen(path: path, reason: message)
    }
  }

  private func enableWriteAheadLog() throws(PersistenceError) {
    var mode = ""
    try mappingErrors {
      try database.query("PRAGMA journal_mode = WAL") { statement in
        mode = statement.text(at: 0)
        return false
      }
    } otherError: { [path = database.path] error in
      .cannotOpen(path: path, reason: "\(error)")
    }
    guard mode.lowercased() == "wal" else {
      throw .cannotOpen(path: database.path, reason: "WAL mode is not available (got '\(mode)')")
    }
  }

  func table<T>(_ description: TableDescription<T>) throws(PersistenceError) -> SQLiteTable<T> {
    try tables.table(of: T.self, as: SQLiteTable<T>.self)
  }

  /// Runs a call's statements as they are: a writer waits for another's transaction (see
  /// `BusyWait`), so there is nothing to run again.
  func perform<R>(reading: Bool, _ work: () throws -> R) throws -> R {
    try work()
  }

  // MARK: Writes

  func insert<T: PersistentModel>(_ model: T, table description: TableDescription<T>) throws {
    if depth > 0, inserts < Self.largeWriteInserts {
      inserts += 1
      if inserts == Self.largeWriteInserts {
        try database.execute("PRAGMA cache_size = -\(Self.writeCacheKiB)")
        try startLargeWrite(description)
      }
    }
    // NB: a transaction's first insert (a link added) keeps the stored id prefix length, which
    // the table's insert trigger deletes: put back, grown to what the new id and its two
    // neighbours need. Later inserts leave it deleted (a large write stores it at its end).
    guard T.ID.self == ModelID<T>.self, depth == 0 || inserts == 1 else {
      return try insertRow(model, table: description)
    }
    let stored = StoredIDPrefixLength(database: database, table: description.table)
    guard try stored.read() != nil else { return try insertRow(model, table: description) }
    try transaction {
      let known = try stored.read()
      try insertRow(model, table: description)
      guard let known else { return }
      let neighbours = try idPrefixLength(ofNeighboursOf: model.id, table: description)
      try stored.put(max(known, neighbours))
    }
  }

  private func insertRow<T: PersistentModel>(_ model: T, table description: TableDescription<T>)
    throws
  {
    let table = try table(description)
    try table.checkIDColumn(model)
    try description.encode(model, into: &table.values)
    let values = table.values
    try mappingErrors {
      try table.insert.execute(values)
    } sqliteFailed: { code, _ in
      guard code & 0xFF == SQLITE_CONSTRAINT else { return nil }
      if try table.exists(values[description.idIndex]) {
        return .duplicateID(model: description.modelName, id: "\(model.id)")
      }
      return try table.conflict(values, model: model)
        ?? .sqlite(code: code, message: "constraint failed", sql: table.insert.sql)
    }
  }

  func update<T: PersistentModel>(_ model: T, table description: TableDescription<T>) throws {
    let stored = StoredIDPrefixLength(database: database, table: description.table)
    // NB: an update keeps every id, so it keeps their stored length, which the table's update
    // trigger deletes: put back in the same transaction, as it was read there.
    guard T.ID.self == ModelID<T>.self, try stored.read() != nil else {
      return try updateRow(model, table: description)
    }
    try transaction {
      let known = try stored.read()
      try updateRow(model, table: description)
      if let known { try stored.put(known) }
    }
  }

  private func updateRow<T: PersistentModel>(_ model: T, table description: TableDescription<T>)
    throws
  {
    let table = try table(description)
    try table.checkIDColumn(model)
    let values = try description.encode(model)
    let parameters = description.updateParameters(values)
    try mappingErrors {
      try table.update.execute(parameters)
    } sqliteFailed: { code, _ in
      guard code & 0xFF == SQLITE_CONSTRAINT else { return nil }
      return try table.conflict(values, model: model)
        ?? .sqlite(code: code, message: "constraint failed", sql: table.update.sql)
    }
    // NB: an UPDATE of a missing row succeeds with zero changes.
    guard database.changes > 0 else {
      throw PersistenceError.notFound(model: description.modelName, id: "\(model.id)")
    }
  }

  func delete<T: PersistentModel>(id: T.ID, table description: TableDescription<T>) throws {
    let stored = StoredIDPrefixLength(database: database, table: description.table)
    guard T.ID.self == ModelID<T>.self, try stored.read() != nil else {
      return try deleteRow(id: id, table: description)
    }
    // NB: an id that no pair of the stored length holds takes nothing from it (the pair its
    // neighbours then make shares no more than either did with it): the length its delete
    // trigger deleted is put back. Otherwise the next reader makes the pass.
    try transaction {
      let known = try stored.read()
      let neighbours = try idPrefixLength(ofNeighboursOf: id, table: description)
      try deleteRow(id: id, table: description)
      if let known, neighbours < known { try stored.put(known) }
    }
  }

  private func deleteRow<T: PersistentModel>(id: T.ID, table description: TableDescription<T>)
    throws
  {
    let table = try table(description)
    try table.deleteByID.execute([description.encodeID(id)])
    guard database.changes > 0 else {
      throw PersistenceError.notFound(model: description.modelName, id: "\(id)")
    }
  }

  // MARK: Reads

  func fetch<T: PersistentModel>(
    _ descriptor: FetchDescriptor<T>, table description: TableDescription<T>
  ) throws -> [T] {
    try fetch(descriptor, table: description, reading: T.init(row:))
  }

  func fetch<T: PersistentModel, R>(
    _ descriptor: FetchDescriptor<T>, table description: TableDescription<T>,
    reading: (Row<T>) throws -> R
  ) throws -> [R] {
    func read(_ models: [T]) throws -> [R] {
      try models.map {
        try reading(Row(table: description, source: .values(description.encode($0))))
      }
    }
    let table = try table(description)
    guard let plan = table.translate(descriptor.predicate) else {
      return try read(fetchInSwift(descriptor, table: table, translated: false, orderBy: nil))
    }
    if descriptor.fetchLimit == 0 { return [] }
    let order = table.order(descriptor.sortBy)
    let orderBy = order.orderBy
    let limited = descriptor.fetchLimit != nil || descriptor.fetchOffset != nil
    let range = limited ? table.rangeParameters(descriptor) : []
    let statement: SQLiteStatement
    var parameters = range
    if descriptor.predicate == nil, orderBy != nil {
      // The common case (a list, sorted, maybe limited) runs a statement prepared once.
      statement = try table.unfilteredSelect(order, limited: limited)
    } else if plan.exact, let orderBy {
      let clause = plan.whereClause
      statement = try database.prepare(
        table.select(where: clause, orderBy: orderBy, limited: limited))
      parameters = (clause?.parameters ?? []) + range
    } else {
      return try read(fetchInSwift(descriptor, table: table, translated: true, orderBy: orderBy))
    }
    // NB: read through one row that follows the statement's steps: a row made per step in this
    // generic code looked up its type's metadata each time.
    let row = Row(table: description, source: .statement(statement), positions: ColumnPositions())
    return try collect(statement, parameters, limit: descriptor.fetchLimit) { try reading(row) }
  }

  /// What `reading` makes of each row `statement` gives with `parameters`, at most `limit`.
  ///
  /// NB: under a small limit (a page of a list), into an array allocated once and filled in
  /// place: this code is generic in `R`, and `Array.append` unspecialized looked up the array
  /// type's metadata on every row.
  private func collect<R>(
    _ statement: SQLiteStatement, _ parameters: [SQLValue], limit: Int?,
    reading: () throws -> R
  ) throws -> [R] {
    guard let limit, limit <= Self.filledInPlaceLimit else {
      var results: [R] = []
      if let limit { results.reserveCapacity(min(limit, 4_096)) }
      try statement.run(parameters) { _ in
        results.append(try reading())
        return true
      }
      return results
    }
    return try [R](unsafeUninitializedCapacity: limit) { buffer, count in
      try statement.run(parameters) { _ in
        // NB: the statement's `LIMIT` stops it at `limit` rows; this only guards the buffer.
        guard count < limit, let base = buffer.baseAddress else { return false }
        (base + count).initialize(to: try reading())
        count += 1
        return true
      }
    }
  }

  /// The largest limit whose results ``collect(_:_:limit:reading:)`` fills in place.
  private static let filledInPlaceLimit = 4_096

  func fetchIdentifiers<T: PersistentModel>(
    _ descriptor: FetchDescriptor<T>, table description: TableDescription<T>
  ) throws -> [T.ID] {
    let table = try table(description)
    // NB: only a predicate and an order SQL evaluates whole can skip decoding the models.
    guard let plan = table.translate(descriptor.predicate), plan.exact,
      let orderBy = table.order(descriptor.sortBy).orderBy
    else {
      return try fetch(descriptor, table: description).map(\.id)
    }
    if descriptor.fetchLimit == 0 { return [] }
    let limited = descriptor.fetchLimit != nil || descriptor.fetchOffset != nil
    let sql = table.select(
      table.idColumn, where: plan.whereClause, orderBy: orderBy, limited: limited)
    let parameters =
      (plan.whereClause?.parameters ?? []) + (limited ? table.rangeParameters(descriptor) : [])
    var ids: [T.ID] = []
    if let limit = descriptor.fetchLimit { ids.reserveCapacity(min(limit, 16_384)) }
    // NB: the id is the first column of the select, as it is of the table's. A model's
    // `ModelID` is read from its 16 bytes in place; a generic key path (`\T.id`) is built
    // anew each time it is evaluated, which cost more than reading the row.
    let id = \T.id
    let isModelID = T.ID.self == ModelID<T>.self
    try database.query(sql, parameters) { statement in
      if isModelID, let uuid = statement.uuid(at: 0) {
        ids.append(unsafeBitCast(ModelID<T>(uuid), to: T.ID.self))
      } else {
        ids.append(try Row(table: description, source: .statement(statement))[id])
      }
      return true
    }
    return ids
  }

  // MARK: Transactions

  /// Runs `body` in a transaction.
  ///
  /// `BEGIN IMMEDIATE` … `COMMIT` at the outermost level, a `SAVEPOINT` when nested. A throw
  /// rolls back this level only and is rethrown.
  func transaction<R>(_ body: () throws -> R) throws -> R {
    let savepoint = "loop_savepoint_\(depth)"
    // NB: the outermost level's two statements are prepared once: `link list` runs a transaction
    // for each page it reads, and parsing them each time cost more than the locks they take.
    if depth == 0 {
      try database.prepare("BEGIN IMMEDIATE").execute([])
    } else {
      try database.execute("SAVEPOINT \(savepoint)")
    }
    depth += 1
    defer { if depth == 0 { endLargeWrite() } }
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
      if depth == 0 {
        storeLargeWriteLength()
        try database.prepare("COMMIT").execute([])
      } else {
        try database.execute("RELEASE \(savepoint)")
      }
    } catch {
      rollback(savepoint: depth == 0 ? nil : savepoint)
      throw error
    }
    return result
  }

  private func writeTransaction<R>(_ body: () throws(PersistenceError) -> R)
    throws(PersistenceError) -> R
  {
    try mappingErrors { try transaction { () throws -> R in try body() } }
  }

  func rollback(savepoint: String?) {
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
