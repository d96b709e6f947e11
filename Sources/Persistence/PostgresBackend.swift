import Foundation

/// The PostgreSQL backend: the SQLite backend's contract on a server several processes (on
/// several machines) share.
///
/// Each model's table has the same columns as in SQLite (see `SQLDialect` for their types) and
/// a hidden `loop_seq` identity column giving insertion order; every value is bound as a
/// parameter in PostgreSQL's binary format, so doubles keep every bit. Tables are created in the
/// connection's current schema (the first of its `search_path` that exists), with `loop_meta`
/// beside them, by the same ``MigrationPlan`` as in a file.
///
/// Transactions: an outermost ``transaction(_:)`` is `SERIALIZABLE` and first takes an
/// `EXCLUSIVE` lock on `loop_meta`, so Loop's writers (in every process) take turns, as they do
/// on an SQLite file: one waits for another's transaction however long it lasts, and none is
/// starved by a stream of others. Should PostgreSQL still abort one for a serialization failure
/// or a deadlock (with another program's transactions), its body runs again from the start, in
/// a new transaction, up to ``retryLimit`` times; a single write outside a transaction is
/// retried likewise. Nested transactions are savepoints.
///
/// A lost connection fails the call (and the rest of the transaction in progress) with
/// ``PersistenceError/connectionLost(server:reason:)``; the next call outside a transaction
/// connects again.
final class PostgresBackend: SQLBackend, @unchecked Sendable {
  let connection: PostgresConnection
  private var tables: BackendTables = [:]
  private var depth = 0
  /// The failure that ended the open transaction on the server (a lost connection): every
  /// later call in it throws it, and it is not committed.
  private var broken: PersistenceError?
  /// Whether the open transaction met a serialization failure or a deadlock: it is run again.
  private var mustRetry = false
  /// The first error the server reported in the open transaction.
  private var firstFailure: PersistenceError?

  /// How many times a transaction (or a single write) aborted by a serialization failure or a
  /// deadlock is run in all, before its error is reported.
  static let retryLimit = 20

  /// Connects, checks the server, and brings every table to its schema in one transaction.
  init(connectionString: String, descriptions: [any AnyTableDescription]) throws(PersistenceError) {
    connection = try PostgresConnection(connectionString: connectionString)
    try checkServer()
    try migrate(descriptions)
    for description in descriptions {
      tables[description.modelID] = try description.makePostgresTable(connection)
    }
  }

  private func checkServer() throws(PersistenceError) {
    let server = connection.server
    if let encoding = connection.setting("server_encoding"), encoding != "UTF8" {
      throw .cannotOpen(
        path: server, reason: "the database's encoding is \(encoding), and Loop stores UTF-8 text")
    }
    let version = connection.setting("server_version") ?? ""
    if let major = Int(version.prefix { $0.isNumber }), major < 12 {
      throw .cannotOpen(
        path: server, reason: "the server runs PostgreSQL \(version), and Loop needs 12 or later")
    }
    let schema = try connection.run("SELECT current_schema()")
    guard schema.count == 1, case .text = schema.value(row: 0, column: 0) else {
      throw .cannotOpen(
        path: server,
        reason: "no schema of its search_path exists, so there is nowhere to create tables")
    }
  }

  /// Creates `loop_meta` and applies every table's plan in one transaction, checking every table
  /// before the first change; a table that cannot be migrated leaves the database as it was.
  private func migrate(_ descriptions: [any AnyTableDescription]) throws(PersistenceError) {
    do {
      // NB: two processes opening one database at once must not both create its tables: the
      // lock (per schema) makes the second wait, then find them.
      try connection.execute(
        "BEGIN; SELECT pg_advisory_xact_lock(hashtext('loop ' || current_schema()))")
      try connection.execute(
        """
        CREATE TABLE IF NOT EXISTS loop_meta (
          table_name text PRIMARY KEY, version bigint NOT NULL, columns text NOT NULL
        )
        """)
      var plans: [MigrationPlan] = []
      for description in descriptions {
        plans.append(try description.migrationPlan(in: connection))
      }
      // NB: DDL locks the tables it changes; taken while another process's transaction writes
      // to some of them, it could deadlock with it. Loop's writer lock first waits for those
      // transactions to end. A database already up to date is not locked at all, so opening
      // one never waits for an import in progress.
      if plans.contains(where: { !$0.isEmpty }) {
        try connection.execute("LOCK TABLE loop_meta IN EXCLUSIVE MODE")
      }
      for plan in plans {
        try plan.apply(in: .postgres(connection))
      }
      try connection.execute("COMMIT")
    } catch {
      try? connection.execute("ROLLBACK")
      throw error
    }
  }

  func table<T>(_ description: TableDescription<T>) throws(PersistenceError) -> PostgresTable<T> {
    try tables.table(of: T.self, as: PostgresTable<T>.self)
  }

  // MARK: Calls

  /// Runs one call's statements: outside a transaction after opening a lost connection again,
  /// and again when the server aborts them for a serialization failure or a deadlock (a read
  /// also when the connection is lost under it); inside one, recording what the failure means
  /// for the transaction.
  func perform<R>(reading: Bool = false, _ work: () throws -> R) throws -> R {
    guard depth == 0 else {
      if let broken { throw broken }
      do {
        return try work()
      } catch let error as PersistenceError {
        throw noted(error)
      }
    }
    var attempt = 1
    while true {
      try connection.reopenIfLost()
      do {
        return try work()
      } catch let error as PersistenceError where error.isRetryable && attempt < Self.retryLimit {
        Self.backOff(attempt)
        attempt += 1
      } catch PersistenceError.connectionLost(let server, let reason) {
        guard reading, attempt == 1 else {
          throw PersistenceError.connectionLost(
            server: server,
            reason: reason + (reading ? "" : "; the write may or may not have been saved"))
        }
        attempt += 1
      }
    }
  }

  /// Records a failure of a call inside the open transaction; returns the error to report.
  private func noted(_ error: PersistenceError) -> PersistenceError {
    if error.isRetryable { mustRetry = true }
    if case .connectionLost(let server, let reason) = error {
      let broken = PersistenceError.connectionLost(
        server: server, reason: reason + "; the transaction in progress was not saved")
      self.broken = broken
      return broken
    }
    if firstFailure == nil, case .postgres = error { firstFailure = error }
    return error
  }

  /// Waits a little, longer after each attempt, so that the transactions that collided do not
  /// collide again.
  private static func backOff(_ attempt: Int) {
    usleep(UInt32.random(in: 1_000...5_000) * UInt32(min(attempt, 10)))
  }

  // MARK: Writes

  func insert<T: PersistentModel>(_ model: T, table description: TableDescription<T>) throws {
    let table = try table(description)
    try table.checkIDColumn(model)
    try description.encode(model, into: &table.values)
    let values = table.values
    try perform {
      guard try connection.run(table.insert, values).changes == 0 else { return }
      if try table.exists(values[description.idIndex]) {
        throw PersistenceError.duplicateID(model: description.modelName, id: "\(model.id)")
      }
      throw try table.conflict(values, model: model)
        ?? .postgres(
          code: "23505", message: "the row conflicts with a row written at the same time",
          sql: table.insert.sql)
    }
  }

  func update<T: PersistentModel>(_ model: T, table description: TableDescription<T>) throws {
    let table = try table(description)
    try table.checkIDColumn(model)
    let values = try description.encode(model)
    let parameters = description.updateParameters(values)
    let changes = try perform {
      // NB: inside a transaction a failed statement aborts the whole of it; a savepoint keeps
      // a unique violation to this update, which the caller may catch and go on from.
      do {
        if depth > 0, table.hasUniqueIndexes {
          return try savepoint("loop_write") { try connection.run(table.update, parameters) }
            .changes
        }
        return try connection.run(table.update, parameters).changes
      } catch let error as PersistenceError {
        throw table.uniqueViolation(in: error, model: model) ?? error
      }
    }
    guard changes > 0 else {
      throw PersistenceError.notFound(model: description.modelName, id: "\(model.id)")
    }
  }

  func delete<T: PersistentModel>(id: T.ID, table description: TableDescription<T>) throws {
    let table = try table(description)
    let key = try description.encodeID(id)
    guard try perform({ try connection.run(table.deleteByID, [key]).changes }) > 0 else {
      throw PersistenceError.notFound(model: description.modelName, id: "\(id)")
    }
  }

  // MARK: Reads

  func fetch<T: PersistentModel>(
    _ descriptor: FetchDescriptor<T>, table description: TableDescription<T>
  ) throws -> [T] {
    let table = try table(description)
    guard let plan = table.translate(descriptor.predicate) else {
      return try fetchInSwift(descriptor, table: table, translated: false, orderBy: nil)
    }
    if descriptor.fetchLimit == 0 { return [] }
    let order = table.order(descriptor.sortBy)
    let limited = descriptor.fetchLimit != nil || descriptor.fetchOffset != nil
    let range = limited ? table.rangeParameters(descriptor) : []
    guard plan.exact, let orderBy = order.orderBy else {
      return try fetchInSwift(descriptor, table: table, translated: true, orderBy: order.orderBy)
    }
    guard let clause = plan.whereClause else {
      // The common case (a list, sorted, maybe limited) runs a statement made once per order.
      let statement = try table.unfilteredSelect(order, limited: limited)
      return try perform(reading: true) { try table.models(in: connection.run(statement, range)) }
    }
    let sql = table.select(where: clause, orderBy: orderBy, limited: limited)
    let kinds = clause.kinds + (limited ? [.integer, .integer] : [])
    return try perform(reading: true) {
      try table.models(in: connection.run(sql, clause.parameters + range, kinds: kinds))
    }
  }

  // MARK: Transactions

  /// Runs `body` in a transaction.
  ///
  /// At the outermost level a `SERIALIZABLE` one holding Loop's writer lock, run again after a
  /// serialization failure or a deadlock; nested, a savepoint. A throw rolls back this level
  /// only and is rethrown.
  func transaction<R>(_ body: () throws -> R) throws -> R {
    guard depth == 0 else {
      if let broken { throw broken }
      return try savepoint("loop_savepoint_\(depth)", body)
    }
    var attempt = 1
    while true {
      let result: R
      do {
        try begin()
        defer { depth = 0 }
        result = try body()
        try commit()
        return result
      } catch {
        rollback()
        // NB: once the server doomed the transaction, whatever the body threw: a client's
        // storage turns the server's failure into its domain's error as it comes.
        let isRetryable = mustRetry || (error as? PersistenceError)?.isRetryable == true
        guard isRetryable, attempt < Self.retryLimit else { throw error }
        Self.backOff(attempt)
        attempt += 1
      }
    }
  }

  private func begin() throws(PersistenceError) {
    try connection.reopenIfLost()
    (broken, mustRetry, firstFailure) = (nil, false, nil)
    // NB: LOCK TABLE takes no snapshot, so the transaction's snapshot is taken after the lock
    // is held: it sees everything the previous holder committed.
    try connection.execute(
      "BEGIN ISOLATION LEVEL SERIALIZABLE; LOCK TABLE loop_meta IN EXCLUSIVE MODE")
    depth = 1
  }

  /// Commits the outermost transaction, unless a failure on the server doomed it.
  private func commit() throws(PersistenceError) {
    if let broken { throw broken }
    // NB: COMMIT of a transaction that failed on the server answers ROLLBACK without an error:
    // its writes would be lost without a word.
    if mustRetry || connection.isInFailedTransaction {
      throw firstFailure
        ?? .postgres(code: "25P02", message: "the transaction failed on the server", sql: nil)
    }
    do {
      try connection.execute("COMMIT")
    } catch .connectionLost(let server, let reason) {
      throw .connectionLost(
        server: server,
        reason: reason + "; the transaction being committed may or may not have been saved")
    }
  }

  private func rollback() {
    depth = 0
    if connection.isInTransaction { try? connection.execute("ROLLBACK") }
  }

  /// Runs `body` inside a savepoint: a throw rolls back its writes only, and is rethrown.
  private func savepoint<R>(_ name: String, _ body: () throws -> R) throws -> R {
    try connection.execute("SAVEPOINT \(name)")
    depth += 1
    let result: R
    do {
      result = try body()
    } catch {
      depth -= 1
      if broken == nil, !connection.isLost {
        try? connection.execute("ROLLBACK TO SAVEPOINT \(name); RELEASE SAVEPOINT \(name)")
      }
      throw error
    }
    depth -= 1
    try connection.execute("RELEASE SAVEPOINT \(name)")
    return result
  }

  func checkIntegrity() throws {
    // NB: the server keeps its own files sound (and checks their pages, when the cluster has
    // checksums); what a client can check is that it answers.
    try perform(reading: true) { try connection.execute("SELECT 1") }
  }
}

extension PersistenceError {
  /// Whether the server aborted the statement or transaction only because of another one (a
  /// serialization failure or a deadlock), so that running it again can succeed.
  var isRetryable: Bool {
    guard case .postgres(let code, _, _) = self else { return false }
    return code == "40001" || code == "40P01"
  }
}
