import Foundation
import Loop

/// A value type stored by a ``ModelContainer``: SwiftData's `PersistentModel`, without macros.
///
/// A model is an immutable value (a struct) with an `id`. It declares its table in ``schema``
/// (one ``Column`` per stored property, plus indexes) and rebuilds itself from a stored row in
/// ``init(row:)``, reading each property by its key path. Write `init(row:)` in an extension so
/// the struct keeps its memberwise initializer:
///
/// ```swift
/// struct Link: PersistentModel, Equatable {
///   enum Kind: String, Codable { case article, video }
///
///   var id: UUID
///   var title: String
///   var url: URL
///   var kind: Kind
///   var lastViewedDate: Date?
///
///   static let schema = Schema<Link>(
///     table: "links",
///     version: 2,
///     columns: [
///       Column(\.id, "id"),
///       Column(\.title, "title", options: .searchable),
///       Column(\.url, "url"),
///       Column(\.kind, "kind", default: .article),  // added in version 2
///       Column(\.lastViewedDate, "last_viewed_date"),
///     ],
///     indexes: [
///       Index(\.lastViewedDate),
///       Index(\.url, unique: true),
///     ]
///   )
/// }
///
/// extension Link.Kind: ColumnValue {}
///
/// extension Link {
///   init(row: Row<Link>) throws {
///     id = try row[\.id]
///     title = try row[\.title]
///     url = try row[\.url]
///     kind = try row[\.kind]
///     lastViewedDate = try row[\.lastViewedDate]
///   }
/// }
/// ```
///
/// Ids can be any ``ColumnValue`` that is not optional, such as `UUID`, `String` or `Int`.
public protocol PersistentModel: Identifiable, Sendable where ID: ColumnValue {
  /// The table, columns and indexes the model is stored in.
  static var schema: Schema<Self> { get }

  /// Rebuilds a model from a stored row.
  ///
  /// Read every stored property with `try row[\.property]`. The row is only valid during this
  /// call: do not keep it.
  ///
  /// - Parameter row: The stored values, readable by key path.
  /// - Throws: ``PersistenceError/decodingFailed(model:column:reason:)`` from the row, or any
  ///   error of your own.
  init(row: Row<Self>) throws
}

/// One stored row of a model's table, read by key path in ``PersistentModel/init(row:)``.
///
/// ```swift
/// title = try row[\.title]
/// ```
public struct Row<Model: PersistentModel> {
  @usableFromInline let reader: RowReader

  /// A row of `table` read from `source`; the rows of one fetch may share `positions`.
  ///
  /// NB: without them, each column is found in the layout: a row read alone (the in-memory
  /// backend decodes a model at a time) should not allocate a memo it uses once.
  init(
    table: TableDescription<Model>, source: RowReader.Source,
    positions: ColumnPositions? = nil
  ) {
    reader = RowReader(layout: table.layout, source: source, positions: positions)
  }

  /// Reads the value of the column declared for `keyPath` in the model's ``Schema``.
  ///
  /// - Parameter keyPath: A key path declared as a ``Column`` of the model.
  /// - Returns: The stored value, decoded as `Value`.
  /// - Throws: ``PersistenceError/decodingFailed(model:column:reason:)`` when the stored value
  ///   is not a valid `Value`, or when `keyPath` is not a column of the schema.
  // NB: inlinable so that decoding is specialized in the model's `init(row:)`; fetches spend
  // most of their Swift time here.
  @inlinable
  public subscript<Value: ColumnValue>(_ keyPath: KeyPath<Model, Value>) -> Value {
    get throws {
      // NB: ids are often UUIDs, or the model's typed id over one; read their 16 bytes without
      // making an array first. (Comparing types folds away once specialized; asking whether a
      // type conforms to a protocol would not, and cost more than the array. Nor does `as?` from
      // an optional: hence `unsafeBitCast`, to the type just compared equal.)
      if Value.self == UUID.self, let uuid = try reader.uuid(for: keyPath) {
        return unsafeBitCast(uuid, to: Value.self)
      }
      if Value.self == ModelID<Model>.self, let uuid = try reader.uuid(for: keyPath) {
        return unsafeBitCast(ModelID<Model>(uuid), to: Value.self)
      }
      // NB: text read straight into a string, not through an `SQLValue` first.
      if Value.self == String.self, let text = reader.text(for: keyPath) {
        return unsafeBitCast(text, to: Value.self)
      }
      // NB: flags and dates read in place too; any other stored value (a flag of 2, a date
      // written as an integer) takes the ordinary way below, which decodes or reports it.
      if Value.self == Bool.self, let integer = reader.integer(for: keyPath),
        integer == 0 || integer == 1
      {
        return unsafeBitCast(integer == 1, to: Value.self)
      }
      if Value.self == Date.self, let real = reader.real(for: keyPath) {
        return unsafeBitCast(Date(timeIntervalSinceReferenceDate: real), to: Value.self)
      }
      let (stored, index) = try reader.value(for: keyPath)
      do {
        return try Value(decodingColumn: stored)
      } catch {
        throw reader.decodingFailed(at: index, error)
      }
    }
  }

  /// Reads the value of the column declared for `keyPath` as another type stored the same way:
  /// a URL's column as the `String` stored, say, when a list shows the text and need not parse
  /// it.
  ///
  /// ```swift
  /// let address = try row[\.url, as: String.self]
  /// ```
  ///
  /// - Parameters:
  ///   - keyPath: A key path declared as a ``Column`` of the model.
  ///   - type: The type to read the stored value as.
  /// - Returns: The stored value, decoded as `Stored`.
  /// - Throws: ``PersistenceError/decodingFailed(model:column:reason:)`` when the stored value
  ///   is not a valid `Stored`, or when `keyPath` is not a column of the schema.
  @inlinable
  public subscript<Value, Stored: ColumnValue>(
    _ keyPath: KeyPath<Model, Value>, as type: Stored.Type
  ) -> Stored {
    get throws {
      // NB: another model's id, read as its UUID, skips the array as ``subscript(_:)`` does.
      if Stored.self == UUID.self, let uuid = try reader.uuid(for: keyPath) {
        return unsafeBitCast(uuid, to: Stored.self)
      }
      if Stored.self == UUID?.self, let uuid = reader.optionalUUID(for: keyPath) {
        return unsafeBitCast(uuid, to: Stored.self)
      }
      if Stored.self == String.self, let text = reader.text(for: keyPath) {
        return unsafeBitCast(text, to: Stored.self)
      }
      let (stored, index) = try reader.value(for: keyPath)
      do {
        return try Stored(decodingColumn: stored)
      } catch {
        throw reader.decodingFailed(at: index, error)
      }
    }
  }
}

/// The positions of the columns one fetch's `init(row:)` asks for, by key path object.
///
/// NB: ``ColumnLayout/index(of:)`` finds a key path of the schema by identity, but `init(row:)`
/// writes its own literals, which it finds under a lock and a hash; a fetch of 200,000 rows asks
/// for the same few key paths on every row, so it remembers them here, unlocked (the rows of a
/// fetch are read on one thread). The key paths are kept alive, so an identity is never reused.
///
/// An `init(row:)` asks for its columns in the same order on every row, so the entry after the
/// last one found is tried first: a row's lookups are then one comparison each.
@usableFromInline
final class ColumnPositions {
  // NB: unchecked: one fetch reads its rows on one thread, and each row asks for its columns one
  // at a time; the run-time exclusivity checks cost more than the lookups.
  @exclusivity(unchecked) private var keyPaths: [AnyKeyPath] = []
  @exclusivity(unchecked) private var positions: [Int] = []
  /// The entry to try first: the one after the last found.
  @exclusivity(unchecked) private var next = 0

  init() {}

  /// The position in `layout` of the column declared for `keyPath`, or `nil`.
  func index(of keyPath: AnyKeyPath, in layout: ColumnLayout) -> Int? {
    // NB: after a row's last column, the next row starts again with the first.
    let candidate = next < keyPaths.count ? next : 0
    if candidate < keyPaths.count, keyPaths[candidate] === keyPath {
      next = candidate + 1
      return positions[candidate]
    }
    for index in keyPaths.indices where keyPaths[index] === keyPath {
      next = index + 1
      return positions[index]
    }
    guard let position = layout.index(of: keyPath) else { return nil }
    // Key paths made at run time could fill it without end; literals are a few per model.
    if keyPaths.count >= 64 {
      keyPaths.removeAll()
      positions.removeAll()
    }
    keyPaths.append(keyPath)
    positions.append(position)
    next = keyPaths.count
    return position
  }
}

/// Reads one row's columns by key path, without knowing the model type.
@usableFromInline
struct RowReader {
  enum Source {
    case statement(SQLiteStatement)
    case postgres(PostgresResult, row: Int32)
    case values([SQLValue])
  }

  let layout: ColumnLayout
  let source: Source
  /// The columns found so far by this fetch, when its rows share them.
  let positions: ColumnPositions?
  /// The statement's row, when the source is a statement.
  private let sqliteRow: SQLiteRow?

  init(layout: ColumnLayout, source: Source, positions: ColumnPositions?) {
    self.layout = layout
    self.source = source
    self.positions = positions
    if case .statement(let statement) = source {
      sqliteRow = SQLiteRow(handle: statement.handle)
    } else {
      sqliteRow = nil
    }
  }

  /// The position of the column declared for `keyPath`, or `nil`.
  private func index(of keyPath: AnyKeyPath) -> Int? {
    positions?.index(of: keyPath, in: layout) ?? layout.index(of: keyPath)
  }

  /// The stored value of the column for `keyPath`, and the column's position.
  @usableFromInline
  func value(for keyPath: AnyKeyPath) throws(PersistenceError) -> (SQLValue, Int) {
    guard let index = index(of: keyPath) else {
      throw .decodingFailed(
        model: layout.modelName, column: "\(keyPath)",
        reason: "the key path is not a column of the schema")
    }
    switch source {
    case .statement(let statement): return (statement.value(at: Int32(index)), index)
    case .postgres(let result, let row):
      return (result.value(row: row, column: Int32(index)), index)
    case .values(let values): return (values[index], index)
    }
  }

  /// The UUID stored for `keyPath`, read in place; `nil` when the stored value is not 16 bytes
  /// (the caller then decodes it the ordinary way, which reports the error).
  @usableFromInline
  func uuid(for keyPath: AnyKeyPath) throws(PersistenceError) -> UUID? {
    guard let index = index(of: keyPath) else { return nil }
    switch source {
    case .statement: return sqliteRow?.uuid(at: Int32(index))
    case .postgres(let result, let row): return result.uuid(row: row, column: Int32(index))
    case .values: return nil
    }
  }

  /// The text stored for `keyPath`; `nil` when the stored value is not text (the caller then
  /// decodes it the ordinary way, which reports the error).
  @usableFromInline
  func text(for keyPath: AnyKeyPath) -> String? {
    inPlace(keyPath) { $0.textIfText(at: $1) }
  }

  /// The integer stored for `keyPath`; `nil` when the stored value is not an integer (the
  /// caller then decodes it the ordinary way, which reports the error).
  @usableFromInline
  func integer(for keyPath: AnyKeyPath) -> Int64? {
    inPlace(keyPath) { $0.integerIfInteger(at: $1) }
  }

  /// The real stored for `keyPath`; `nil` when the stored value is not a real (the caller then
  /// decodes it the ordinary way).
  @usableFromInline
  func real(for keyPath: AnyKeyPath) -> Double? {
    inPlace(keyPath) { $0.realIfReal(at: $1) }
  }

  /// The UUID or `NULL` stored for `keyPath`, read in place: `.some(nil)` for `NULL`; `nil` when
  /// the stored value is neither (the caller then decodes it the ordinary way).
  @usableFromInline
  func optionalUUID(for keyPath: AnyKeyPath) -> UUID?? {
    inPlace(keyPath) { $0.optionalUUID(at: $1) }
  }

  /// What `read` finds in the column declared for `keyPath` of a SQLite row, read in place;
  /// `nil` for the other sources, and for a key path that is no column (the ordinary decoding
  /// reports both).
  private func inPlace<Value>(
    _ keyPath: AnyKeyPath, _ read: (SQLiteRow, Int32) -> Value?
  ) -> Value? {
    guard let sqliteRow, let index = index(of: keyPath) else { return nil }
    return read(sqliteRow, Int32(index))
  }

  /// The error for a value that does not decode.
  @usableFromInline
  func decodingFailed(at index: Int, _ error: any Error) -> PersistenceError {
    .decodingFailed(
      model: layout.modelName, column: layout.names[index], reason: String(describing: error))
  }
}
