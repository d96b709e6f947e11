import Foundation
import Synchronization

/// A key path usable as a dictionary key across isolation domains.
///
/// NB: `AnyKeyPath` is not `Sendable` because a key path may capture non-`Sendable` subscript
/// arguments; every key path stored here came from a `KeyPath & Sendable` in a schema, or is a
/// literal without captures.
struct KeyPathKey: Hashable, @unchecked Sendable {
  let keyPath: AnyKeyPath
}

/// A column as stored in the table: a schema column, or the hidden folded copy of a searchable
/// one.
struct StoredColumn: Sendable {
  let name: String
  let type: ColumnType
  /// What PostgreSQL stores it as.
  let kind: ValueKind
  let isOptional: Bool
  let comparability: ColumnComparability
  /// For a hidden folded column, the index of the column it folds.
  let foldedSource: Int?
  /// `name`, quoted for SQL.
  let quotedName: String

  init(
    name: String, type: ColumnType, kind: ValueKind, isOptional: Bool,
    comparability: ColumnComparability, foldedSource: Int?
  ) {
    self.name = name
    self.type = type
    self.kind = kind
    self.isOptional = isOptional
    self.comparability = comparability
    self.foldedSource = foldedSource
    self.quotedName = quoted(name)
  }
}

extension ColumnType {
  /// The type a column of this storage class is declared with in a `STRICT` table.
  ///
  /// NB: reals go in `ANY` columns, which keep each value's eight bytes as bound. A `REAL`
  /// column stores a whole-valued double as an integer and reads it back as `+0.0` when it was
  /// `-0.0`. Loop binds only reals to these columns (``TableDescription/encode(_:)`` checks
  /// every value's storage class), and `ANY` compares and sorts them as `REAL` would.
  var sqlType: String { self == .real ? "ANY" : rawValue }
}

/// An index as created in the database.
struct IndexDescription: Sendable, Equatable {
  let name: String
  let columns: [String]
  let isUnique: Bool
  /// Stored-column positions of `columns`.
  let positions: [Int]
}

/// The schema columns of a table, by position, without the model type.
final class ColumnLayout: Sendable {
  let modelName: String
  let names: [String]
  private let identifiers: [ObjectIdentifier]
  private let lookup: [KeyPathKey: Int]
  /// Positions found by equality, by the identity of the key path object asked with.
  ///
  /// NB: each key path literal is one object, but `init(row:)` writes its own literals, other
  /// objects than the schema's; hashing a key path to find its column cost more than decoding
  /// the value. The entries keep their key paths alive, so an identity is never reused.
  private let learned = Mutex<[ObjectIdentifier: (keyPath: KeyPathKey, position: Int)]>([:])

  init(modelName: String, names: [String], keyPaths: [KeyPathKey], lookup: [KeyPathKey: Int]) {
    self.modelName = modelName
    self.names = names
    self.identifiers = keyPaths.map { ObjectIdentifier($0.keyPath) }
    self.lookup = lookup
  }

  /// The position of the column declared for `keyPath`, or `nil`.
  ///
  /// NB: key path literals are uniqued objects, so identity finds a column in a few pointer
  /// comparisons; equality is the fallback for key paths built another way.
  func index(of keyPath: AnyKeyPath) -> Int? {
    let identifier = ObjectIdentifier(keyPath)
    for position in identifiers.indices where identifiers[position] == identifier {
      return position
    }
    if let known = learned.withLock({ $0[identifier] }) { return known.position }
    guard let position = lookup[KeyPathKey(keyPath: keyPath)] else { return nil }
    learned.withLock { learned in
      // Key paths made at run time could fill it without end; literals are a few per model.
      if learned.count >= 256 { learned.removeAll() }
      learned[identifier] = (KeyPathKey(keyPath: keyPath), position)
    }
    return position
  }
}

/// A model's validated ``Schema``, with everything both backends look up on every call.
final class TableDescription<Model: PersistentModel>: Sendable {
  let modelName: String
  let table: String
  let version: Int
  /// The schema's columns, in declaration order; their positions are the first positions of
  /// ``stored``.
  let columns: [Column<Model>]
  /// The schema's columns followed by the hidden folded columns.
  let stored: [StoredColumn]
  let idIndex: Int
  let indexes: [IndexDescription]
  /// Where each schema column is, for reading rows.
  let layout: ColumnLayout
  private let lookup: [KeyPathKey: Int]
  /// One encoder per stored column, in ``stored`` order.
  ///
  /// NB: not generic over the model (each reads it through a pointer), so that encoding, which
  /// runs unspecialized for every insert and update, loops over an array of a concrete type.
  private let encoders: [ColumnEncoder]

  init(_ schema: Schema<Model>) throws(PersistenceError) {
    let modelName = "\(Model.self)"
    func invalid(_ reason: String) -> PersistenceError {
      .invalidSchema(model: modelName, reason: reason)
    }
    guard isValidIdentifier(schema.table) else {
      throw invalid(
        "the table name '\(schema.table)' must be ASCII letters, digits and '_', not starting "
          + "with a digit, 'loop_' or 'sqlite_'")
    }
    guard schema.version >= 1 else {
      throw invalid("the version must be 1 or more, not \(schema.version)")
    }
    var stored: [StoredColumn] = []
    var lookup: [KeyPathKey: Int] = [:]
    var names: Set<String> = []
    for (position, column) in schema.columns.enumerated() {
      guard isValidIdentifier(column.name) else {
        throw invalid(
          "the column name '\(column.name)' must be ASCII letters, digits and '_', not starting "
            + "with a digit, 'loop_' or 'sqlite_'")
      }
      guard names.insert(column.name.lowercased()).inserted else {
        throw invalid("the column name '\(column.name)' is used twice")
      }
      guard lookup.updateValue(position, forKey: KeyPathKey(keyPath: column.keyPath)) == nil
      else {
        throw invalid("the key path of column '\(column.name)' is declared twice")
      }
      if case .failure(let error) = column.defaultValue { throw error }
      stored.append(
        StoredColumn(
          name: column.name, type: column.valueType.columnType,
          kind: ValueKind(of: column.valueType), isOptional: column.valueType.isOptional,
          comparability: column.valueType.comparability, foldedSource: nil))
    }
    // NB: in generic code `\Model.id` is the protocol requirement's key path, never equal to
    // the model's own `\.id`, so the id column is found by position (and checked on writes).
    guard let first = schema.columns.first,
      ObjectIdentifier(first.valueType) == ObjectIdentifier(Model.ID.self)
    else {
      throw invalid("its first column must be \\.id, of type \(Model.ID.self)")
    }
    guard !Model.ID.isOptional else {
      throw invalid("its id must not be optional")
    }
    let idIndex = 0
    if lookup[KeyPathKey(keyPath: \Model.id)] == nil {
      lookup[KeyPathKey(keyPath: \Model.id)] = idIndex
    }
    for (position, column) in schema.columns.enumerated()
    where column.options.contains(.searchable) {
      guard column.fold != nil, let folded = foldedKeyPath(column.keyPath) else {
        throw invalid(
          "column '\(column.name)' is searchable but is not a String or an optional String")
      }
      lookup[folded] = stored.count
      stored.append(
        StoredColumn(
          name: "loop_folded_\(column.name)", type: .text, kind: .text, isOptional: true,
          comparability: .ordering, foldedSource: position))
    }
    var indexes: [IndexDescription] = []
    for index in schema.indexes {
      guard !index.keyPaths.isEmpty else { throw invalid("an index has no key paths") }
      var positions: [Int] = []
      for keyPath in index.keyPaths {
        guard let position = lookup[KeyPathKey(keyPath: keyPath)] else {
          throw invalid("an index names \(keyPath), which is not a column")
        }
        positions.append(position)
      }
      let columns = positions.map { stored[$0].name }
      let name =
        "loop_\(index.isUnique ? "unique" : "index")_\(schema.table)_"
        + columns.joined(separator: "_")
      guard !indexes.contains(where: { $0.name == name }) else {
        throw invalid("the index on \(columns.joined(separator: ", ")) is declared twice")
      }
      indexes.append(
        IndexDescription(
          name: name, columns: columns, isUnique: index.isUnique, positions: positions))
    }
    self.modelName = modelName
    self.table = schema.table
    self.version = schema.version
    self.columns = schema.columns
    self.stored = stored
    self.idIndex = idIndex
    self.indexes = indexes
    self.layout = ColumnLayout(
      modelName: modelName, names: schema.columns.map(\.name),
      keyPaths: schema.columns.map { KeyPathKey(keyPath: $0.keyPath) },
      lookup: lookup.filter { $0.value < schema.columns.count })
    self.lookup = lookup
    self.encoders = stored.indices.map { position in
      let column = stored[position]
      let encode: @Sendable (UnsafeRawPointer) throws -> SQLValue
      if position < schema.columns.count {
        encode = schema.columns[position].encode
      } else if let source = column.foldedSource, let fold = schema.columns[source].fold {
        encode = fold
      } else {
        encode = { _ in .null }
      }
      return ColumnEncoder(encode: encode, type: column.type, isOptional: column.isOptional)
    }
  }

  /// The position of the stored column (a schema column or a folded one) for `keyPath`.
  func storedIndex(of keyPath: AnyKeyPath) -> Int? {
    lookup[KeyPathKey(keyPath: keyPath)]
  }

  /// The stored columns `descriptors` sort by, with their directions, or `nil` when one of them
  /// cannot be sorted on stored values exactly as Swift sorts it (a string comparator, or a
  /// column whose stored order is not its Swift order).
  func storedOrder(_ descriptors: [SortDescriptor<Model>]) -> [(position: Int, ascending: Bool)]? {
    var order: [(position: Int, ascending: Bool)] = []
    for descriptor in descriptors {
      guard descriptor.stringComparator == nil, let keyPath = descriptor.keyPath,
        let position = storedIndex(of: keyPath), stored[position].comparability == .ordering
      else { return nil }
      order.append((position, descriptor.order == .forward))
    }
    return order
  }

  /// The position of the folded copy of the stored column at `position`, if it is searchable.
  func foldedIndex(ofColumn position: Int) -> Int? {
    stored.firstIndex { $0.foldedSource == position }
  }

  /// Whether the first column reads `model.id`; checked on a table's first write, since the id
  /// column cannot be recognized by its key path (see `init`).
  func checkIDColumn(_ model: Model) throws(PersistenceError) {
    guard let id = model[keyPath: columns[idIndex].keyPath] as? Model.ID, id == model.id else {
      throw .invalidSchema(
        model: modelName, reason: "its first column '\(columns[idIndex].name)' is not \\.id")
    }
  }

  /// The stored values of `model`, in ``stored`` order, checked against the declarations.
  func encode(_ model: Model) throws(PersistenceError) -> [SQLValue] {
    var values: [SQLValue] = []
    try encode(model, into: &values)
    return values
  }

  /// An UPDATE's SET list for the quoted column `names` (in stored order): every column but the
  /// id, each from a parameter, in ``updateParameters(_:)``'s order.
  ///
  /// NB: a model of an id alone has nothing to set; setting the id to itself still changes the
  /// row when it exists, which is how an update tells a missing row.
  func updateAssignments(_ names: [String]) -> String {
    var assignments = names.map { "\($0) = ?" }
    assignments.remove(at: idIndex)
    if assignments.isEmpty { return "\(names[idIndex]) = \(names[idIndex])" }
    return assignments.joined(separator: ", ")
  }

  /// An UPDATE's parameters from ``encode(_:)``'s values: every column but the id, in order,
  /// then the id, which the statement's WHERE compares.
  func updateParameters(_ values: [SQLValue]) -> [SQLValue] {
    var parameters = values
    parameters.remove(at: idIndex)
    parameters.append(values[idIndex])
    return parameters
  }

  /// Replaces `values` with the stored values of `model`, as ``encode(_:)`` returns them, keeping
  /// the array's storage (an insert reuses one array for every row).
  func encode(_ model: Model, into values: inout [SQLValue]) throws(PersistenceError) {
    values.removeAll(keepingCapacity: true)
    values.reserveCapacity(encoders.count)
    let failed = withUnsafePointer(to: model) { model in
      ColumnEncoder.encode(UnsafeRawPointer(model), with: encoders, into: &values)
    }
    if let position = failed { throw invalidValue(model, position) }
  }

  private func invalidValue(_ model: Model, _ position: Int) -> PersistenceError {
    let column = columns[stored[position].foldedSource ?? position]
    return .invalidValue(
      model: modelName, column: column.name, value: describeValue(model[keyPath: column.keyPath]))
  }

  /// The stored value of an id.
  func encodeID(_ id: Model.ID) throws(PersistenceError) -> SQLValue {
    do {
      return try id.encodeColumn()
    } catch {
      throw .invalidValue(model: modelName, column: columns[idIndex].name, value: describe(id))
    }
  }

  /// The description of an id used in error messages.
  func describe(_ id: Model.ID) -> String { describeValue(id) }

  /// Rebuilds a model from stored values in ``stored`` order.
  func decode(_ values: [SQLValue]) throws -> Model {
    try Model(row: Row(table: self, source: .values(values)))
  }
}

/// A property's value as error messages show it.
///
/// NB: `Date.description` traps on a date whose interval is NaN (the one date a model can hold
/// that cannot be stored, so the one an error message describes): it is shown as `nan`, as a
/// NaN `Double` is.
func describeValue(_ value: Any) -> String {
  if let date = value as? Date, date.timeIntervalSinceReferenceDate.isNaN { return "nan" }
  return "\(value)"
}

/// How one stored column is read from a model and checked: a schema column's value, or the
/// folded copy of a searchable one.
struct ColumnEncoder: Sendable {
  /// The stored value of the model at the pointer.
  let encode: @Sendable (UnsafeRawPointer) throws -> SQLValue
  let type: ColumnType
  let isOptional: Bool

  /// Appends the stored value of each column of the model at `model` to `values`; returns the
  /// position of the first column whose value cannot be stored, or `nil`.
  static func encode(
    _ model: UnsafeRawPointer, with encoders: [ColumnEncoder], into values: inout [SQLValue]
  ) -> Int? {
    for position in encoders.indices {
      let encoder = encoders[position]
      guard let value = try? encoder.encode(model), matches(value, encoder) else {
        return position
      }
      values.append(value)
    }
    return nil
  }
}

private func matches(_ value: SQLValue, _ column: ColumnEncoder) -> Bool {
  switch (value, column.type) {
  case (.null, _): return column.isOptional
  // NB: SQLite binds NaN as NULL; refused here (a custom `ColumnValue` may encode it) so that
  // both backends reject it alike, instead of SQLite storing NULL.
  case (.real, .real): return !value.isNaN
  case (.integer, .integer), (.text, .text), (.blob, .blob): return true
  default: return false
  }
}

private func foldedKeyPath(_ keyPath: AnyKeyPath) -> KeyPathKey? {
  if let path = keyPath.appending(path: \String.caseFolded) {
    return KeyPathKey(keyPath: path)
  }
  if let path = keyPath.appending(path: \String?.?.caseFolded) {
    return KeyPathKey(keyPath: path)
  }
  return nil
}

/// Whether `name` is safe to use, quoted, as a table or column name of ours.
func isValidIdentifier(_ name: String) -> Bool {
  guard let first = name.utf8.first, !(0x30...0x39).contains(first) else { return false }
  let lowered = name.lowercased()
  guard !lowered.hasPrefix("loop_"), !lowered.hasPrefix("sqlite_") else { return false }
  return name.utf8.allSatisfy { byte in
    (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
      || byte == 0x5F
  }
}

/// `name` as a quoted SQL identifier.
func quoted(_ name: String) -> String {
  guard name.utf8.contains(UInt8(ascii: "\"")) else { return "\"" + name + "\"" }
  return "\"\(name.replacingOccurrences(of: "\"", with: "\"\""))\""
}
