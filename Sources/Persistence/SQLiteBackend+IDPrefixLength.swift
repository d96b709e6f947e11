import Foundation
import Loop

// The id prefix length (``ModelContext/fetchIDPrefixLength(_:)``) on SQLite: read from the id
// index in place, kept in the file between reads (``StoredIDPrefixLength``), and stored anew at
// the end of a large write.

extension SQLiteBackend {
  /// The digits `id` needs beside its two neighbours in id order (at least 1).
  ///
  /// Two seeks in the id index (blobs compare as their bytes, the ids' order), in one
  /// statement, read in place. `T.ID` is `ModelID<T>`.
  func idPrefixLength<T: PersistentModel>(
    ofNeighboursOf id: T.ID, table description: TableDescription<T>
  ) throws -> Int {
    let column = quoted(description.columns[description.idIndex].name)
    let table = quoted(description.table)
    let stored = try description.encodeID(id)
    var neighbours: (below: UInt128?, above: UInt128?)
    try database.query(
      "SELECT (SELECT \(column) FROM \(table) WHERE \(column) < ? ORDER BY \(column) DESC LIMIT 1), "
        + "(SELECT \(column) FROM \(table) WHERE \(column) > ? ORDER BY \(column) LIMIT 1)",
      [stored, stored]
    ) { statement in
      neighbours.below = statement.bytes16(at: 0).map(IDPrefix.key(ofBytes:))
      neighbours.above = statement.bytes16(at: 1).map(IDPrefix.key(ofBytes:))
      return false
    }
    return IDPrefix.length(
      of: IDPrefix.key(of: unsafeBitCast(id, to: ModelID<T>.self).rawValue),
      between: neighbours.below, and: neighbours.above)
  }

  func fetchIDPrefixLength<T: PersistentModel>(table description: TableDescription<T>) throws
    -> Int
  where T.ID == ModelID<T> {
    _ = try table(description)
    let stored = StoredIDPrefixLength(database: database, table: description.table)
    // NB: inside a transaction, the length is read (its writes deleted a stale one) but not
    // stored: the transaction is the caller's.
    guard depth == 0 else { return try stored.read() ?? idPrefixPass(description).length }
    // One read transaction: the stored length, or the pass and the length stored from what it
    // read. Storing is a courtesy to the next reader; when the file cannot be written now
    // (another connection wrote since, or holds the lock), the length is still exact.
    // NB: without syncing, set before the transaction as SQLite requires.
    return try database.withoutSyncing { () throws -> Int in
      try database.execute("BEGIN")
      do {
        if let length = try stored.read() {
          try database.execute("COMMIT")
          return length
        }
        let pass = try idPrefixPass(description)
        guard pass.count >= StoredIDPrefixLength.minimumIDs else {
          try database.execute("COMMIT")
          return pass.length
        }
        do {
          try database.withoutWaiting {
            try stored.store(pass.length)
            try database.execute("COMMIT")
          }
        } catch {
          rollback(savepoint: nil)
        }
        return pass.length
      } catch {
        rollback(savepoint: nil)
        throw error
      }
    }
  }

  /// The ids of `description`'s table in ascending order, as one ``IDPrefix``, and their count.
  func idPrefixPass<T: PersistentModel>(_ description: TableDescription<T>) throws
    -> (length: Int, count: Int)
  {
    let id = quoted(description.columns[description.idIndex].name)
    var prefix = IDPrefix()
    var count = 0
    // NB: the id index in order, each id compared in place as the 16 bytes stored: neither an
    // id nor an array of them is made, so SQLite's walk of the index is most of the cost.
    try database.query("SELECT \(id) FROM \(quoted(description.table)) ORDER BY \(id)") {
      statement in
      if let bytes = statement.bytes16(at: 0) { prefix.add(IDPrefix.key(ofBytes: bytes)) }
      count += 1
      return true
    }
    return (prefix.length, count)
  }

  func fetchIDPrefixLength<T: PersistentModel>(
    of id: T.ID, table description: TableDescription<T>
  ) throws -> Int where T.ID == ModelID<T> {
    _ = try table(description)
    return try idPrefixLength(ofNeighboursOf: id, table: description)
  }

  /// Forgets the stored id prefix length of the table a transaction is writing much to, and
  /// its triggers, for the rest of the transaction.
  ///
  /// NB: a trigger on every insert made an import of 200,000 links 2.5 times slower; the
  /// length is stored again, from a pass over the ids, before the transaction commits.
  func startLargeWrite<T: PersistentModel>(_ description: TableDescription<T>)
    throws(PersistenceError)
  {
    try StoredIDPrefixLength(database: database, table: description.table).forget()
    guard T.ID.self == ModelID<T>.self else { return }
    largeWriteTable = (description.table, { [unowned self] in try idPrefixPass(description) })
  }

  /// Stores the id prefix length of the table a large write forgot, with its triggers, inside
  /// the write; when that fails, the next reader makes the pass.
  func storeLargeWriteLength() {
    guard let (table, pass) = largeWriteTable else { return }
    largeWriteTable = nil
    let stored = StoredIDPrefixLength(database: database, table: table)
    do {
      try database.execute("SAVEPOINT loop_id_prefix")
      do {
        let found = try pass()
        if found.count >= StoredIDPrefixLength.minimumIDs { try stored.store(found.length) }
        try database.execute("RELEASE loop_id_prefix")
      } catch {
        try database.execute("ROLLBACK TO loop_id_prefix; RELEASE loop_id_prefix")
      }
    } catch {
      // NB: the length is a courtesy: the write itself is unharmed either way.
    }
  }

  /// Gives the page cache back after a large write (``largeWriteInserts``).
  func endLargeWrite() {
    defer {
      inserts = 0
      largeWriteTable = nil
    }
    guard inserts == Self.largeWriteInserts else { return }
    // NB: a cache that cannot shrink only keeps memory; the write is done either way.
    try? database.execute("PRAGMA cache_size = -\(Self.readCacheKiB)")
  }
}
