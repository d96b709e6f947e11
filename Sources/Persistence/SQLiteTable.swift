import CSQLite
import Foundation

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
  /// The values of the row being written, kept between inserts for their storage.
  var values: [SQLValue] = []
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

  // MARK: Reading rows

  /// The model in the current row of `statement`, a select of ``selectAll``'s columns.
  func model(at statement: SQLiteStatement) throws -> T {
    try T(row: Row(table: description, source: .statement(statement)))
  }

  /// Calls `body` with each model (and its `loop_seq`) the predicate accepts.
  ///
  /// Rows come in `orderBy` order (insertion order when `nil`), until `body` returns `false`. The
  /// translatable part of the predicate runs in SQL, the whole predicate in Swift.
  func scan(
    predicate: Predicate<T>?, orderBy: String?, _ body: (T, Int64) throws -> Bool
  ) throws {
    var translator = PredicateTranslator(table: description)
    let plan = translator.translate(predicate)
    var sql = selectAll
    if let clause = plan?.whereClause { sql += " WHERE " + clause.sql }
    sql += " ORDER BY " + (orderBy ?? quoted("loop_seq"))
    let sequenceColumn = Int32(description.columns.count)
    try database.query(sql, plan?.whereClause?.parameters ?? []) { statement in
      let model = try model(at: statement)
      if let predicate, plan?.exact != true, try !evaluate(predicate, model) { return true }
      return try body(model, statement.integer(at: sequenceColumn))
    }
  }
}

extension TableDescription {
  /// The table's prepared statements in `database`.
  func makeSQLiteTable(_ database: SQLiteDatabase) throws(PersistenceError) -> AnyObject {
    try SQLiteTable(self, database: database)
  }
}
