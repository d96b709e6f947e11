import Foundation
import Loop

/// A value as SQLite stores it: one of its five storage classes.
///
/// ``ColumnValue`` types convert themselves to and from it. Both backends compare and index the
/// encoded form, so two values that are equal in Swift must encode to the same `SQLValue`.
public enum SQLValue: Sendable, Hashable {
  /// SQL `NULL`: an optional that is `nil`.
  case null
  /// A 64-bit signed integer.
  case integer(Int64)
  /// An IEEE double (never NaN: SQLite would store it as `NULL`).
  case real(Double)
  /// UTF-8 text.
  case text(String)
  /// Bytes.
  case blob([UInt8])
}

/// The SQLite storage class of a column.
public enum ColumnType: String, Sendable, Equatable {
  /// `INTEGER`: `Int`, `Int64`, `Bool`.
  case integer = "INTEGER"
  /// `REAL`: `Double`, `Date` (seconds since 2001-01-01 UTC), every bit kept (`-0.0`,
  /// infinities, subnormals); NaN cannot be stored.
  case real = "REAL"
  /// `TEXT`: `String`, `URL`.
  case text = "TEXT"
  /// `BLOB`: `Data`, `UUID` (its 16 bytes).
  case blob = "BLOB"
}

/// Which predicate operators SQLite answers for a column type exactly as Swift does.
///
/// The SQLite backend translates a comparison on a column into SQL only when the type allows it;
/// otherwise it evaluates that part of the predicate (or that sort) in Swift, so the answer is the
/// same either way, only slower.
public enum ColumnComparability: Sendable, Equatable {
  /// Nothing: `==` in Swift is not byte equality of the encoded value (for example `URL`).
  case none
  /// `==`, `!=` and membership in an array: equal values have equal encodings and back.
  case equality
  /// Equality and also `<`, `<=`, `>`, `>=` and sorting: SQLite's order of the encoded values is
  /// the type's `Comparable` order.
  case ordering
}

/// A Swift type that a model property can have: it knows its SQLite storage class and how to
/// convert to and from it.
///
/// `String`, `Int`, `Int64`, `Double`, `Bool`, `Date`, `UUID`, `URL`, `Data` and `Optional`s of
/// them conform. An enum whose raw type conforms adopts it with an empty extension:
///
/// ```swift
/// enum Kind: String, Codable { case article, video }
/// extension Kind: ColumnValue {}
/// ```
///
/// (`#Predicate` needs the constants it captures to be `Codable`, hence `Codable` on enums that
/// predicates compare.)
///
/// Strings are stored in Unicode normalization form C, the form in which SQLite's byte order and
/// byte equality are Swift's `<` and `==`; a string read back is `==` to the one stored.
public protocol ColumnValue: Sendable {
  /// The storage class of the column.
  static var columnType: ColumnType { get }

  /// Whether the column may hold `NULL` (`true` only for `Optional`).
  static var isOptional: Bool { get }

  /// Which operators SQLite can answer for this type exactly as Swift does.
  static var comparability: ColumnComparability { get }

  /// The type whose values are stored for this type's: the type itself, unless it stores
  /// another column type's values (`Optional`'s wrapped type, a `RawRepresentable`'s raw type
  /// when it stores its raw value). PostgreSQL declares a column by it: a `ModelID` is a `uuid`.
  static var storedType: any ColumnValue.Type { get }

  /// Returns the value as SQLite stores it.
  ///
  /// - Returns: A value of the storage class ``columnType``, or ``SQLValue/null`` for `nil`.
  /// - Throws: Any error when the value cannot be stored (for example `Double.nan`).
  func encodeColumn() throws -> SQLValue

  /// Creates a value from what SQLite stored.
  ///
  /// - Parameter value: The stored value.
  /// - Throws: Any error when `value` is not a valid encoding of this type.
  init(decodingColumn value: SQLValue) throws
}

extension ColumnValue {
  /// `false`: only `Optional` columns may hold `NULL`.
  public static var isOptional: Bool { false }

  /// ``ColumnComparability/equality``, the safe choice for a type with its own `==`.
  public static var comparability: ColumnComparability { .equality }

  /// The type itself.
  public static var storedType: any ColumnValue.Type { Self.self }
}

/// The reason a built-in ``ColumnValue`` rejects a value, reported inside a
/// ``PersistenceError``.
struct ColumnCodingError: Error, CustomStringConvertible {
  var description: String

  init(_ description: String) {
    self.description = description
  }

  static func unexpected(_ value: SQLValue, for type: Any.Type) -> ColumnCodingError {
    ColumnCodingError("expected a \(type), found \(value.debugSummary)")
  }
}

extension SQLValue {
  /// Whether the value is a NaN real, which SQLite can neither store nor compare (it binds NaN
  /// as `NULL`).
  var isNaN: Bool {
    guard case .real(let real) = self else { return false }
    return real.isNaN
  }

  /// A short description of the value for error messages.
  var debugSummary: String {
    switch self {
    case .null: return "NULL"
    case .integer(let value): return "the integer \(value)"
    case .real(let value): return "the real \(value)"
    case .text(let value): return "the text '\(value)'"
    case .blob(let bytes): return "a blob of \(bytes.count) bytes"
    }
  }
}

// MARK: - Standard types

extension String: ColumnValue {
  /// ``ColumnType/text``.
  public static var columnType: ColumnType { .text }

  /// ``ColumnComparability/ordering``: NFC text in UTF-8 sorts as Swift sorts strings.
  public static var comparability: ColumnComparability { .ordering }

  /// Returns the string in normalization form C as ``SQLValue/text(_:)``.
  ///
  /// - Returns: The text value.
  public func encodeColumn() -> SQLValue { .text(normalizedForStorage) }

  /// Reads ``SQLValue/text(_:)``.
  ///
  /// - Parameter value: The stored value.
  /// - Throws: When the value is not text.
  public init(decodingColumn value: SQLValue) throws {
    guard case .text(let text) = value else {
      throw ColumnCodingError.unexpected(value, for: String.self)
    }
    self = text
  }

  /// The string case-folded for case-insensitive search: `"Äpfel".caseFolded == "äpfel"`.
  ///
  /// Uses Unicode full case folding (so `"Straße"` folds to `"strasse"`) without a locale, then
  /// normalization form C. Diacritics are kept: `"Äpfel"` and `"Apfel"` stay different.
  ///
  /// It can be used inside `#Predicate`, where `lowercased()` cannot: fold the query outside the
  /// predicate and compare folded with folded. When the column is declared with
  /// ``ColumnOptions/searchable``, the SQLite backend answers such a predicate from a hidden
  /// column that holds the folded text (and an index can cover it); otherwise it folds in Swift.
  ///
  /// ```swift
  /// let query = "äpfel".caseFolded
  /// let links = try context.fetchAll(
  ///   Link.self, predicate: #Predicate { $0.title.caseFolded.contains(query) })
  /// ```
  public var caseFolded: String { foldedForSearch }
}

extension Int: ColumnValue {
  /// ``ColumnType/integer``.
  public static var columnType: ColumnType { .integer }

  /// ``ColumnComparability/ordering``.
  public static var comparability: ColumnComparability { .ordering }

  /// Returns ``SQLValue/integer(_:)``.
  ///
  /// - Returns: The integer value.
  public func encodeColumn() -> SQLValue { .integer(Int64(self)) }

  /// Reads ``SQLValue/integer(_:)``.
  ///
  /// - Parameter value: The stored value.
  /// - Throws: When the value is not an integer that fits.
  public init(decodingColumn value: SQLValue) throws {
    guard case .integer(let integer) = value, let result = Int(exactly: integer) else {
      throw ColumnCodingError.unexpected(value, for: Int.self)
    }
    self = result
  }
}

extension Int64: ColumnValue {
  /// ``ColumnType/integer``.
  public static var columnType: ColumnType { .integer }

  /// ``ColumnComparability/ordering``.
  public static var comparability: ColumnComparability { .ordering }

  /// Returns ``SQLValue/integer(_:)``.
  ///
  /// - Returns: The integer value.
  public func encodeColumn() -> SQLValue { .integer(self) }

  /// Reads ``SQLValue/integer(_:)``.
  ///
  /// - Parameter value: The stored value.
  /// - Throws: When the value is not an integer.
  public init(decodingColumn value: SQLValue) throws {
    guard case .integer(let integer) = value else {
      throw ColumnCodingError.unexpected(value, for: Int64.self)
    }
    self = integer
  }
}

extension Double: ColumnValue {
  /// ``ColumnType/real``: every value but NaN, bit for bit (`-0.0` reads back as `-0.0`).
  public static var columnType: ColumnType { .real }

  /// ``ColumnComparability/ordering`` (NaN is never stored, and `-0.0 == 0.0` in SQL too).
  public static var comparability: ColumnComparability { .ordering }

  /// Returns ``SQLValue/real(_:)``.
  ///
  /// - Returns: The real value.
  /// - Throws: For NaN, which SQLite cannot store (it binds it as `NULL`): an insert or update
  ///   of a model holding NaN fails with ``PersistenceError/invalidValue(model:column:value:)``.
  public func encodeColumn() throws -> SQLValue {
    guard !isNaN else { throw ColumnCodingError("NaN cannot be stored") }
    return .real(self)
  }

  /// Reads ``SQLValue/real(_:)`` (or an integer, which another program may have written).
  ///
  /// - Parameter value: The stored value.
  /// - Throws: When the value is not a number.
  public init(decodingColumn value: SQLValue) throws {
    switch value {
    case .real(let real): self = real
    case .integer(let integer): self = Double(integer)
    default: throw ColumnCodingError.unexpected(value, for: Double.self)
    }
  }
}

extension Bool: ColumnValue {
  /// ``ColumnType/integer`` (0 or 1).
  public static var columnType: ColumnType { .integer }

  /// Returns `.integer(1)` for `true`, `.integer(0)` for `false`.
  ///
  /// - Returns: The integer value.
  public func encodeColumn() -> SQLValue { .integer(self ? 1 : 0) }

  /// Reads 0 or 1.
  ///
  /// - Parameter value: The stored value.
  /// - Throws: When the value is not 0 or 1.
  public init(decodingColumn value: SQLValue) throws {
    switch value {
    case .integer(0): self = false
    case .integer(1): self = true
    default: throw ColumnCodingError.unexpected(value, for: Bool.self)
    }
  }
}

extension Date: ColumnValue {
  /// ``ColumnType/real``: seconds since 2001-01-01 00:00:00 UTC, exactly as `Date` holds them.
  public static var columnType: ColumnType { .real }

  /// ``ColumnComparability/ordering``.
  public static var comparability: ColumnComparability { .ordering }

  /// Returns the seconds since the reference date as ``SQLValue/real(_:)``.
  ///
  /// - Returns: The real value.
  /// - Throws: For a date whose interval is NaN.
  public func encodeColumn() throws -> SQLValue {
    try timeIntervalSinceReferenceDate.encodeColumn()
  }

  /// Reads seconds since the reference date.
  ///
  /// - Parameter value: The stored value.
  /// - Throws: When the value is not a number.
  public init(decodingColumn value: SQLValue) throws {
    self.init(timeIntervalSinceReferenceDate: try Double(decodingColumn: value))
  }
}

extension UUID: ColumnValue {
  /// ``ColumnType/blob``: the 16 bytes, whose byte order is `UUID`'s `Comparable` order.
  public static var columnType: ColumnType { .blob }

  /// ``ColumnComparability/ordering``.
  public static var comparability: ColumnComparability { .ordering }

  /// Returns the 16 bytes as ``SQLValue/blob(_:)``.
  ///
  /// - Returns: The blob value.
  public func encodeColumn() -> SQLValue {
    .blob(withUnsafeBytes(of: uuid) { Array($0) })
  }

  /// Reads 16 bytes.
  ///
  /// - Parameter value: The stored value.
  /// - Throws: When the value is not a 16-byte blob.
  public init(decodingColumn value: SQLValue) throws {
    guard case .blob(let bytes) = value, bytes.count == 16 else {
      throw ColumnCodingError.unexpected(value, for: UUID.self)
    }
    var tuple: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    withUnsafeMutableBytes(of: &tuple) { $0.copyBytes(from: bytes) }
    self.init(uuid: tuple)
  }
}

extension URL: ColumnValue {
  /// ``ColumnType/text``: the absolute string.
  public static var columnType: ColumnType { .text }

  /// ``ColumnComparability/none``: `URL`'s `==` also compares how a URL was built (a base URL),
  /// so predicates on URLs are evaluated in Swift.
  public static var comparability: ColumnComparability { .none }

  /// Returns `absoluteString` as ``SQLValue/text(_:)``.
  ///
  /// - Returns: The text value.
  public func encodeColumn() -> SQLValue { absoluteString.encodeColumn() }

  /// Reads a URL string.
  ///
  /// - Parameter value: The stored value.
  /// - Throws: When the value is not text that parses as a URL.
  public init(decodingColumn value: SQLValue) throws {
    guard let url = URL(string: try String(decodingColumn: value)) else {
      throw ColumnCodingError("\(value.debugSummary) is not a URL")
    }
    self = url
  }
}

extension Data: ColumnValue {
  /// ``ColumnType/blob``.
  public static var columnType: ColumnType { .blob }

  /// Returns the bytes as ``SQLValue/blob(_:)``.
  ///
  /// - Returns: The blob value.
  public func encodeColumn() -> SQLValue { .blob(Array(self)) }

  /// Reads bytes.
  ///
  /// - Parameter value: The stored value.
  /// - Throws: When the value is not a blob.
  public init(decodingColumn value: SQLValue) throws {
    guard case .blob(let bytes) = value else {
      throw ColumnCodingError.unexpected(value, for: Data.self)
    }
    self = Data(bytes)
  }
}

extension Optional: ColumnValue where Wrapped: ColumnValue {
  /// The wrapped type's storage class.
  public static var columnType: ColumnType { Wrapped.columnType }

  /// `true`: `nil` is stored as `NULL`.
  public static var isOptional: Bool { true }

  /// The wrapped type's comparability (`nil` sorts first, as `SortDescriptor` sorts it).
  public static var comparability: ColumnComparability { Wrapped.comparability }

  /// The type the wrapped type stores.
  public static var storedType: any ColumnValue.Type { Wrapped.storedType }

  /// Returns ``SQLValue/null`` for `nil`, else the wrapped value's encoding.
  ///
  /// - Returns: The stored value.
  /// - Throws: When the wrapped value cannot be stored.
  public func encodeColumn() throws -> SQLValue {
    switch self {
    case .none: return .null
    case .some(let wrapped): return try wrapped.encodeColumn()
    }
  }

  /// Reads `nil` from ``SQLValue/null``, else a wrapped value.
  ///
  /// - Parameter value: The stored value.
  /// - Throws: When the value is not a valid encoding of `Wrapped`.
  public init(decodingColumn value: SQLValue) throws {
    if case .null = value {
      self = .none
    } else {
      self = .some(try Wrapped(decodingColumn: value))
    }
  }
}

extension ColumnValue where Self: RawRepresentable, RawValue: ColumnValue {
  /// The raw value's storage class.
  public static var columnType: ColumnType { RawValue.columnType }

  /// The type the raw type stores, when the type stores its raw value (its storage class is the
  /// raw type's); else the type itself.
  public static var storedType: any ColumnValue.Type {
    columnType == RawValue.columnType ? RawValue.storedType : Self.self
  }

  /// Returns the raw value's encoding.
  ///
  /// - Returns: The stored value.
  /// - Throws: When the raw value cannot be stored.
  public func encodeColumn() throws -> SQLValue { try rawValue.encodeColumn() }

  /// Reads a raw value and makes the case that has it.
  ///
  /// - Parameter value: The stored value.
  /// - Throws: When no case has the stored raw value.
  public init(decodingColumn value: SQLValue) throws {
    let raw = try RawValue(decodingColumn: value)
    guard let result = Self(rawValue: raw) else {
      throw ColumnCodingError("no case of \(Self.self) has the raw value '\(raw)'")
    }
    self = result
  }
}
