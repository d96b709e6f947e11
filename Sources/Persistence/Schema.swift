/// How a model is stored: its table, its columns (each a key path with a name) and its indexes.
///
/// Declare it once per model as `static let schema`; see ``PersistentModel`` for a full example.
/// The first column must be `\.id`. The container checks the schema when it opens: a bad name,
/// a first column that is not the id or an index on a key path that is not a column is reported
/// as ``PersistenceError/invalidSchema(model:reason:)``.
///
/// Changing the schema of an existing file: add a column that is optional or has a default (it
/// is added on open; existing rows get `nil` or the default), add or remove indexes, add or
/// remove ``ColumnOptions/searchable``. Removing a column or changing its type or optionality
/// cannot be applied and fails with ``PersistenceError/incompatibleSchema(table:column:reason:)``,
/// leaving the file untouched. Raise `version` with each change; it is recorded in the file, and a
/// file written with a higher version than the model declares is refused.
public struct Schema<Model: PersistentModel>: Sendable {
  /// The table name: ASCII letters, digits and `_`, not starting with a digit, `loop_` or
  /// `sqlite_`.
  public let table: String

  /// The schema version recorded in the file; raise it when the schema changes.
  public let version: Int

  /// The stored properties, one column each; the first must be `\.id`.
  public let columns: [Column<Model>]

  /// The indexes to maintain besides the one on `id`.
  public let indexes: [Index<Model>]

  /// Creates a schema.
  public init(
    table: String, version: Int = 1, columns: [Column<Model>], indexes: [Index<Model>] = []
  ) {
    self.table = table
    self.version = version
    self.columns = columns
    self.indexes = indexes
  }
}

/// Options of a ``Column``.
public struct ColumnOptions: OptionSet, Sendable {
  /// The option bits.
  public let rawValue: Int

  /// Creates options from their bits.
  public init(rawValue: Int) {
    self.rawValue = rawValue
  }

  /// Keep a case-folded copy of this `String` column for case-insensitive search.
  ///
  /// The SQLite backend stores `String.caseFolded` of the value in a hidden column, so that
  /// predicates and sorts on `\.title.caseFolded` run in SQL (and an index can cover them). The
  /// in-memory backend folds in Swift; both give the same answers.
  public static let searchable = ColumnOptions(rawValue: 1 << 0)
}

/// One stored property of a model: its key path, its column name, and options.
///
/// ```swift
/// Column(\.title, "title", options: .searchable)
/// Column(\.kind, "kind", default: .article)
/// ```
public struct Column<Model: PersistentModel>: Sendable {
  /// The column name (ASCII letters, digits and `_`, not starting with a digit or `loop_`).
  public let name: String

  /// The column's options.
  public let options: ColumnOptions

  @usableFromInline let keyPath: PartialKeyPath<Model> & Sendable
  @usableFromInline let valueType: any ColumnValue.Type
  @usableFromInline let defaultValue: Result<SQLValue, PersistenceError>?
  /// The stored value of the model at the pointer.
  @usableFromInline let encode: @Sendable (UnsafeRawPointer) throws -> SQLValue
  /// The case-folded text of a `String` or `String?` column of the model at the pointer.
  @usableFromInline let fold: (@Sendable (UnsafeRawPointer) -> SQLValue)?

  /// Creates a column.
  ///
  /// - Parameters:
  ///   - keyPath: The stored property.
  ///   - name: The column name.
  ///   - options: Options such as ``ColumnOptions/searchable``.
  ///   - defaultValue: The value existing rows get when the column is added to an existing file;
  ///     required to add a non-optional column.
  // NB: inlinable so that the encoding closure is specialized for the model and value types in
  // the model's module: inserts spend most of their Swift time in it.
  @inlinable
  public init<Value: ColumnValue>(
    _ keyPath: KeyPath<Model, Value> & Sendable, _ name: String, options: ColumnOptions = [],
    default defaultValue: Value? = nil
  ) {
    self.name = name
    self.options = options
    self.keyPath = keyPath
    self.valueType = Value.self
    self.defaultValue = defaultValue.map { value in
      Result {
        try value.encodeColumn()
      }.mapError { _ in
        PersistenceError.invalidSchema(
          model: "\(Model.self)", reason: "the default of column '\(name)' cannot be stored")
      }
    }
    let read = Self.reader(of: keyPath)
    self.encode = { model in try read(model).encodeColumn() }
    if Value.self == String.self {
      self.fold = { model in
        guard let text = read(model) as? String else { return .null }
        return .text(text.caseFolded)
      }
    } else if Value.self == String?.self {
      self.fold = { model in
        guard let text = read(model) as? String? else { return .null }
        return text.map { .text($0.caseFolded) } ?? .null
      }
    } else {
      self.fold = nil
    }
  }

  /// Reads the property at `keyPath` of the model at a pointer.
  ///
  /// NB: a stored property of a struct is loaded from its offset in the model: applying a key
  /// path at run time looks up generic metadata on every call, and cost more than encoding the
  /// value. Other key paths (a class's properties, computed ones) are applied.
  @inlinable
  static func reader<Value>(of keyPath: KeyPath<Model, Value> & Sendable)
    -> @Sendable (UnsafeRawPointer) -> Value
  {
    if let offset = MemoryLayout<Model>.offset(of: keyPath) {
      return { model in model.load(fromByteOffset: offset, as: Value.self) }
    }
    return { model in model.assumingMemoryBound(to: Model.self).pointee[keyPath: keyPath] }
  }
}

/// An index on one or more columns, optionally unique.
///
/// ```swift
/// Index(\.lastViewedDate)
/// Index(\.url, unique: true)
/// Index(\.title.caseFolded)  // the hidden column of a searchable column
/// ```
///
/// A unique index rejects a second model with the same values
/// (``PersistenceError/uniqueViolation(model:columns:id:)``); as in SQL, rows with `nil` in an
/// indexed column never conflict.
public struct Index<Model: PersistentModel>: Sendable {
  /// The indexed key paths, each a column of the schema (or `\.column.caseFolded` of a
  /// searchable one).
  public let keyPaths: [PartialKeyPath<Model> & Sendable]

  /// Whether two models may not share the indexed values.
  public let isUnique: Bool

  /// Creates an index.
  public init(_ keyPaths: (PartialKeyPath<Model> & Sendable)..., unique: Bool = false) {
    self.keyPaths = keyPaths
    self.isUnique = unique
  }
}
