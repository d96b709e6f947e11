import Foundation
import Loop

/// Reads and writes models in a ``ModelContainer``: SwiftData's `ModelContext`.
///
/// Every write is saved when the call returns (there is no separate `save()`); group writes that
/// must happen together in ``transaction(_:)``. Every failure is a ``PersistenceError``.
///
/// ```swift
/// let context = ModelContext(container)
/// try context.insert(link)
/// let recent = try context.fetchAll(
///   Link.self, sortBy: [SortDescriptor(\.lastViewedDate, order: .reverse)], limit: 6)
/// ```
///
/// Order: every fetch returns models in a defined order: by its sort descriptors, ties (and
/// everything, without sort descriptors) in insertion order, oldest first. Every storage returns
/// the same models in the same order.
///
/// A context is `Sendable`; use it from any task.
public final class ModelContext: Sendable {
  /// The container this context reads and writes.
  public let container: ModelContainer

  /// Creates a context on `container`.
  public init(_ container: ModelContainer) {
    self.container = container
  }

  // MARK: - Writing

  /// Stores a new model.
  ///
  /// - Parameter model: The model; its id must not be stored yet.
  /// - Throws: ``PersistenceError/duplicateID(model:id:)`` when a model with its id exists,
  ///   ``PersistenceError/uniqueViolation(model:columns:id:)``,
  ///   ``PersistenceError/invalidValue(model:column:value:)``; nothing is written then.
  public func insert<T: PersistentModel>(_ model: T) throws {
    let table = try container.table(T.self)
    try container.withWritingBackend { try $0.insert(model, table: table) }
  }

  /// Replaces the stored model that has `model`'s id; it keeps its place in insertion order.
  ///
  /// - Parameter model: The new value of a stored model.
  /// - Throws: ``PersistenceError/notFound(model:id:)`` when no model has its id,
  ///   ``PersistenceError/uniqueViolation(model:columns:id:)``,
  ///   ``PersistenceError/invalidValue(model:column:value:)``; nothing is written then.
  public func update<T: PersistentModel>(_ model: T) throws {
    let table = try container.table(T.self)
    try container.withWritingBackend { try $0.update(model, table: table) }
  }

  /// Deletes the stored model that has `model`'s id.
  ///
  /// - Parameter model: The model to delete.
  /// - Throws: ``PersistenceError/notFound(model:id:)`` when no model has its id.
  public func delete<T: PersistentModel>(_ model: T) throws {
    try delete(T.self, id: model.id)
  }

  /// Deletes the stored model with an id.
  ///
  /// - Parameters:
  ///   - type: The model type.
  ///   - id: The id of the model to delete.
  /// - Throws: ``PersistenceError/notFound(model:id:)`` when no model has the id.
  public func delete<T: PersistentModel>(_ type: T.Type, id: T.ID) throws {
    let table = try container.table(T.self)
    try container.withWritingBackend { try $0.delete(id: id, table: table) }
  }

  /// Deletes every model the predicate accepts, all or none.
  ///
  /// ```swift
  /// let removed = try context.delete(Link.self, where: #Predicate { $0.isArchived })
  /// ```
  ///
  /// - Parameters:
  ///   - type: The model type.
  ///   - predicate: Which models to delete; `#Predicate<T> { _ in true }` deletes all.
  /// - Returns: How many models were deleted.
  /// - Throws: ``PersistenceError/predicateFailed(model:reason:)`` when the predicate throws
  ///   (nothing is deleted then).
  @discardableResult
  public func delete<T: PersistentModel>(_ type: T.Type, where predicate: Predicate<T>) throws
    -> Int
  {
    let table = try container.table(T.self)
    return try container.withWritingBackend { try $0.delete(where: predicate, table: table) }
  }

  /// Runs `body` as one transaction: all of its writes are saved, or none.
  ///
  /// When `body` throws, its writes are rolled back and the error is rethrown. Transactions
  /// nest: a nested call is a savepoint, and when it throws only its own writes are rolled back,
  /// so an outer `body` that catches the error goes on and may still commit. Other tasks using
  /// the container wait until the outermost transaction ends.
  ///
  /// On PostgreSQL, transactions of every process sharing the database take turns; one that the
  /// server still aborts (a serialization failure or a deadlock, with another program) is rolled
  /// back and `body` runs again from the start, so `body` should change nothing but the
  /// database, or change it again the same way.
  ///
  /// ```swift
  /// try context.transaction { context in
  ///   try context.delete(Link.self, where: #Predicate { $0.categoryID == id })
  ///   try context.delete(category)
  /// }
  /// ```
  ///
  /// - Parameter body: The writes (and reads) to run; it receives this context.
  /// - Returns: What `body` returns.
  /// - Throws: What `body` throws, or ``PersistenceError/sqlite(code:message:sql:)`` (on
  ///   PostgreSQL ``PersistenceError/postgres(code:message:sql:)`` or
  ///   ``PersistenceError/connectionLost(server:reason:)``) when the transaction cannot begin or
  ///   commit (nothing is saved then).
  @discardableResult
  public func transaction<R>(_ body: (ModelContext) throws -> R) throws -> R {
    try container.withBackend { backend in
      try backend.transaction { try body(self) }
    }
  }

  /// Runs `body` as one transaction, as ``transaction(_:)`` does; when `rollingBack` is true,
  /// its writes are then rolled back and what it returned is still returned: a dry run, which
  /// tells what the writes would do without keeping them.
  ///
  /// ```swift
  /// let summary = try context.transaction(rollingBack: dryRun) { context in
  ///   try store(links, in: context)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - rollingBack: Whether to roll back `body`'s writes once it returns.
  ///   - body: The writes (and reads) to run; it receives this context.
  /// - Returns: What `body` returns.
  /// - Throws: As ``transaction(_:)``; nothing is saved then.
  @discardableResult
  public func transaction<R>(rollingBack: Bool, _ body: (ModelContext) throws -> R) throws -> R {
    guard rollingBack else { return try transaction(body) }
    var result: R?
    do {
      try transaction { context in
        result = try body(context)
        // NB: a transaction rolls back when its body throws.
        throw RollBack()
      }
    } catch is RollBack {}
    guard let result else { preconditionFailure("a rolled-back transaction returned nothing") }
    return result
  }

  // MARK: - Reading

  /// The models a descriptor selects, in its order.
  ///
  /// - Parameter descriptor: The predicate, sort, limit and offset.
  /// - Returns: The models, sorted by `descriptor.sortBy`, ties in insertion order.
  /// - Throws: ``PersistenceError/invalidFetch(model:reason:)`` for a negative limit or offset,
  ///   ``PersistenceError/predicateFailed(model:reason:)``,
  ///   ``PersistenceError/decodingFailed(model:column:reason:)``.
  public func fetch<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> [T] {
    try read(descriptor) { backend, table in try backend.fetch(descriptor, table: table) }
  }

  /// How many models a descriptor selects (after its offset and limit).
  ///
  /// - Parameter descriptor: The predicate, limit and offset (its sort is ignored).
  /// - Returns: The number of models ``fetch(_:)`` would return.
  /// - Throws: As ``fetch(_:)``.
  public func fetchCount<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> Int {
    try read(descriptor) { backend, table in try backend.fetchCount(descriptor, table: table) }
  }

  /// The models of a type, optionally filtered, sorted and limited: one call for every fetch.
  ///
  /// ```swift
  /// let links = try context.fetchAll(Link.self)
  /// let found = try context.fetchAll(Link.self, predicate: #Predicate { $0.title.contains(q) })
  /// let recent = try context.fetchAll(
  ///   Link.self, sortBy: [SortDescriptor(\.lastViewedDate, order: .reverse)], limit: 6)
  /// ```
  ///
  /// - Parameters:
  ///   - type: The model type.
  ///   - predicate: Which models; `nil` for all.
  ///   - sortBy: The order; `nil` or empty for insertion order.
  ///   - limit: The most models to return; `nil` for all.
  /// - Returns: The models.
  /// - Throws: As ``fetch(_:)``.
  public func fetchAll<T: PersistentModel>(
    _ type: T.Type, predicate: Predicate<T>? = nil, sortBy: [SortDescriptor<T>]? = nil,
    limit: Int? = nil
  ) throws -> [T] {
    var descriptor = FetchDescriptor<T>(predicate: predicate, sortBy: sortBy ?? [])
    descriptor.fetchLimit = limit
    return try fetch(descriptor)
  }

  /// The first model a predicate accepts, in the given order (insertion order by default).
  ///
  /// - Parameters:
  ///   - type: The model type.
  ///   - predicate: Which models; `nil` for any.
  ///   - sortBy: The order deciding which is first; `nil` or empty for insertion order.
  /// - Returns: The first model, or `nil` when none matches.
  /// - Throws: As ``fetch(_:)``.
  public func fetchOne<T: PersistentModel>(
    _ type: T.Type, predicate: Predicate<T>? = nil, sortBy: [SortDescriptor<T>]? = nil
  ) throws -> T? {
    try fetchAll(type, predicate: predicate, sortBy: sortBy, limit: 1).first
  }

  /// What `read` takes from each row a descriptor selects, in its order, without building the
  /// models: a list that shows a few columns of many rows reads only those (SwiftData's
  /// `propertiesToFetch`, as values).
  ///
  /// ```swift
  /// let titles = try context.fetch(FetchDescriptor<Book>(sortBy: [SortDescriptor(\.title)])) {
  ///   try $0[\.title]
  /// }
  /// ```
  ///
  /// The row is only valid during the call to `read`: do not keep it.
  ///
  /// - Parameters:
  ///   - descriptor: The predicate, sort, limit and offset.
  ///   - read: Reads what is needed of a row, as ``PersistentModel/init(row:)`` does.
  /// - Returns: What `read` returned for each row ``fetch(_:)`` would return, in its order.
  /// - Throws: As ``fetch(_:)``, or what `read` throws.
  public func fetch<T: PersistentModel, R>(
    _ descriptor: FetchDescriptor<T>, reading read: (Row<T>) throws -> R
  ) throws -> [R] {
    try self.read(descriptor) { backend, table in
      try backend.fetch(descriptor, table: table, reading: read)
    }
  }

  /// The ids of the models a descriptor selects, in its order, without reading the models:
  /// SwiftData's `fetchIdentifiers`.
  ///
  /// ```swift
  /// var descriptor = FetchDescriptor<Link>(sortBy: [SortDescriptor(\.id)])
  /// descriptor.fetchLimit = 10_000
  /// let ids = try context.fetchIdentifiers(descriptor)
  /// ```
  ///
  /// - Parameter descriptor: The predicate, sort, limit and offset.
  /// - Returns: The ids of the models ``fetch(_:)`` would return, in the same order.
  /// - Throws: As ``fetch(_:)``.
  public func fetchIdentifiers<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws
    -> [T.ID]
  {
    try read(descriptor) { backend, table in
      try backend.fetchIdentifiers(descriptor, table: table)
    }
  }

  /// What `body` reads from the backend for `descriptor`, once the model type is known to be
  /// registered and the descriptor's limit and offset are valid.
  ///
  /// NB: the one place a descriptor is checked, so every backend gets only valid ones.
  private func read<T: PersistentModel, R>(
    _ descriptor: FetchDescriptor<T>,
    _ body: (any StorageBackend, TableDescription<T>) throws -> R
  ) throws -> R {
    let table = try container.table(T.self)
    try descriptor.validate()
    return try container.withBackend { try body($0, table) }
  }

  /// How many leading hexadecimal digits of their ids tell every stored model of a type from
  /// every other: one more than the most digits two of them share (at least 1, at most 32).
  ///
  /// ```swift
  /// let length = try context.fetchIDPrefixLength(Link.self)
  /// let ref = link.id.rawValue.uuidString.prefix(length)  // names this link alone
  /// ```
  ///
  /// It reads the ids alone, in their order, comparing each with the one before: on SQLite in
  /// one pass over the id index, without making the ids; in memory over the ids it keeps
  /// sorted; on PostgreSQL a page at a time. Its memory does not grow with the models. An
  /// SQLite file of thousands of models keeps the answer, exact: Loop's own writes update or
  /// forget it, and triggers on the table forget it when another process or tool changes a
  /// row; asking again while it is kept reads one row.
  ///
  /// - Parameter type: The model type.
  /// - Returns: The number of digits; 1 when fewer than two models are stored.
  /// - Throws: As ``fetch(_:)``.
  public func fetchIDPrefixLength<T: PersistentModel>(_ type: T.Type) throws -> Int
  where T.ID == ModelID<T> {
    let table = try container.table(T.self)
    return try container.withBackend { try $0.fetchIDPrefixLength(table: table) }
  }

  /// How many leading hexadecimal digits of an id tell it from every other stored id of its
  /// model type.
  ///
  /// One more than it shares with the closer of its two neighbours in id order (at least 1, at
  /// most 32); whether `id` itself is stored does not matter.
  ///
  /// ```swift
  /// try context.insert(link)
  /// let ref = link.id.rawValue.uuidString.prefix(try context.fetchIDPrefixLength(of: link.id))
  /// ```
  ///
  /// It reads the two neighbours alone: on SQLite and PostgreSQL two seeks in the id index, in
  /// memory two searches of the ids kept sorted; its cost does not grow with the models.
  ///
  /// - Parameter id: The id, stored or not.
  /// - Returns: The number of digits; 1 when no other model is stored.
  /// - Throws: As ``fetch(_:)``.
  public func fetchIDPrefixLength<T: PersistentModel>(of id: ModelID<T>) throws -> Int
  where T.ID == ModelID<T> {
    let table = try container.table(T.self)
    return try container.withBackend { try $0.fetchIDPrefixLength(of: id, table: table) }
  }

  /// The model with an id.
  ///
  /// - Parameters:
  ///   - type: The model type.
  ///   - id: The id.
  /// - Returns: The model, or `nil` when no model has the id.
  /// - Throws: ``PersistenceError/decodingFailed(model:column:reason:)``.
  public func fetch<T: PersistentModel>(_ type: T.Type, id: T.ID) throws -> T? {
    let table = try container.table(T.self)
    return try container.withBackend { try $0.fetch(id: id, table: table) }
  }
}

/// Thrown at the end of ``ModelContext/transaction(rollingBack:_:)``'s body to roll its writes
/// back.
private struct RollBack: Error {}
