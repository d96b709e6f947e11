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
  /// NB: read through `ColumnValue.storedType`, which sees through `Optional` and a
  /// `RawRepresentable` that stores its raw value by the conformances' own witnesses: a cast to
  /// find them asks the runtime, whose first answer for each type is a search of every
  /// conformance record of the process (at every container's opening).
  init(of type: any ColumnValue.Type) {
    let stored = type.storedType
    switch (ObjectIdentifier(stored), type.columnType) {
    case (ObjectIdentifier(UUID.self), .blob): self = .uuid
    case (ObjectIdentifier(Bool.self), .integer): self = .boolean
    case (ObjectIdentifier(Date.self), .real): self = .date
    default: self = ValueKind(type.columnType)
    }
  }

  /// The kind of the values bound for it: a date binds its exact seconds, a ``real``.
  var bound: ValueKind { self == .date ? .real : self }
}
