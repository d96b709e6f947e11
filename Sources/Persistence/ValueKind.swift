import Foundation

/// What a stored value is, finer than its storage class: what PostgreSQL stores it as.
///
/// SQLite keeps five storage classes (``ColumnType``); PostgreSQL has a type of its own for
/// UUIDs, booleans and instants, which other programs reading the database expect. A column's
/// kind comes from its Swift type, seen through `Optional` and `RawRepresentable`: `UUID` (and
/// `ModelID`) is ``uuid``, `Bool` ``boolean``, `Date` ``date``; any other type has the kind of
/// its storage class. The encoded ``SQLValue`` is the same for every backend: the kind only says
/// how PostgreSQL declares, binds and reads it.
enum ValueKind: Sendable, Equatable {
  /// ``SQLValue/integer(_:)``: `bigint`.
  case integer
  /// ``SQLValue/real(_:)``: `double precision`.
  case real
  /// ``SQLValue/text(_:)``: `text`, compared byte by byte (`COLLATE "C"`).
  case text
  /// ``SQLValue/blob(_:)``: `bytea`.
  case blob
  /// ``SQLValue/blob(_:)`` of 16 bytes: `uuid`.
  case uuid
  /// ``SQLValue/integer(_:)`` 0 or 1: `boolean`.
  case boolean
  /// ``SQLValue/real(_:)`` seconds since 2001-01-01 UTC: a `timestamptz` column beside the exact
  /// seconds (see `SQLDialect.postgres`).
  case date

  /// The kind of the storage class alone.
  init(_ type: ColumnType) {
    switch type {
    case .integer: self = .integer
    case .real: self = .real
    case .text: self = .text
    case .blob: self = .blob
    }
  }

  /// The kind of a column or constant of `type`.
  ///
  /// NB: a `RawRepresentable` type stores its raw value (unless it encodes itself another way,
  /// which its storage class then shows): the kind is its raw type's when their storage classes
  /// agree.
  init(of type: any ColumnValue.Type) {
    // NB: only a blob, an integer or a real may have a finer kind: `baseType(of:)`'s casts look
    // for conformances, which the first time for each type scans every conformance record of
    // the process (at every container's opening).
    guard type.columnType != .text else {
      self = .text
      return
    }
    let base = baseType(of: type)
    switch (ObjectIdentifier(base), type.columnType) {
    case (ObjectIdentifier(UUID.self), .blob): self = .uuid
    case (ObjectIdentifier(Bool.self), .integer): self = .boolean
    case (ObjectIdentifier(Date.self), .real): self = .date
    default: self = ValueKind(type.columnType)
    }
  }

  /// The kind of the values bound for it: a date binds its exact seconds, a ``real``.
  var bound: ValueKind { self == .date ? .real : self }
}

/// A type whose values wrap another column type's: `Optional`.
protocol WrappingColumnValue {
  /// The type of the wrapped values.
  static var wrappedColumnType: any ColumnValue.Type { get }
}

extension Optional: WrappingColumnValue where Wrapped: ColumnValue {
  static var wrappedColumnType: any ColumnValue.Type { Wrapped.self }
}

/// Column types that are neither `Optional` nor `RawRepresentable`.
private let plainColumnTypes: [ObjectIdentifier] = [
  ObjectIdentifier(UUID.self), ObjectIdentifier(Bool.self), ObjectIdentifier(Date.self),
  ObjectIdentifier(Int.self), ObjectIdentifier(Double.self), ObjectIdentifier(Data.self),
]

/// `type` without its `Optional`s and raw-value wrappers (`ModelID<Link>?` is `UUID`).
private func baseType(of type: any ColumnValue.Type) -> any ColumnValue.Type {
  // NB: the common types are their own base; known at once, they skip the casts below.
  if plainColumnTypes.contains(ObjectIdentifier(type)) { return type }
  if type.isOptional, let wrapping = type as? any WrappingColumnValue.Type {
    return baseType(of: wrapping.wrappedColumnType)
  }
  if let representable = type as? any RawRepresentable.Type,
    let raw = rawType(of: representable) as? any ColumnValue.Type,
    raw.columnType == type.columnType
  {
    return baseType(of: raw)
  }
  return type
}

private func rawType<T: RawRepresentable>(of _: T.Type) -> Any.Type { T.RawValue.self }
