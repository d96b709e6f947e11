import CLibPQ
import Foundation

// Values to and from PostgreSQL's binary format: what each ``ValueKind`` is on the wire, the
// parameters of one call, and the rows of a result.

extension ValueKind {
  /// The type of a parameter of this kind (`pg_type.oid`).
  var typeOID: Oid {
    switch self {
    case .integer: 20  // int8
    case .real, .date: 701  // float8
    case .text: 25  // text
    case .blob: 17  // bytea
    case .uuid: 2950  // uuid
    case .boolean: 16  // bool
    }
  }
}

/// Text as PostgreSQL stores it: its `text` cannot hold U+0000, which a Swift string can.
///
/// U+0000 is stored as the bytes `01 01` and U+0001 as `01 02`; every other byte as it is. The
/// codes are in the order of the bytes they stand for, and none is a prefix of another, so byte
/// order (the `"C"` collation) and equality of stored text are those of the strings; a search
/// for stored text within stored text finds at least every true occurrence (and predicates that
/// search are checked in Swift afterwards anyway).
enum PostgresText {
  /// The bytes stored for `text`.
  static func encode(_ text: String) -> String {
    guard text.utf8.contains(where: { $0 < 2 }) else { return text }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count + 8)
    for byte in text.utf8 {
      if byte < 2 {
        bytes += [1, byte + 1]
      } else {
        bytes.append(byte)
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The string stored as `bytes`.
  static func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    guard bytes.contains(1) else { return String(decoding: bytes, as: UTF8.self) }
    var decoded: [UInt8] = []
    decoded.reserveCapacity(bytes.count)
    var index = 0
    while index < bytes.count {
      if bytes[index] == 1, index + 1 < bytes.count {
        decoded.append(bytes[index + 1] - 1)
        index += 2
      } else {
        decoded.append(bytes[index])
        index += 1
      }
    }
    return String(decoding: decoded, as: UTF8.self)
  }
}

/// The parameters of one call, encoded one after another in a buffer.
struct PostgresParameters {
  /// The values, after one byte of padding.
  ///
  /// NB: an empty value needs a pointer that is not NULL (NULL means SQL NULL): the padding
  /// makes sure the buffer has an address.
  private var bytes: [UInt8] = [0]
  /// Each parameter's start in ``bytes`` and length, or `nil` for `NULL`.
  private var spans: [(start: Int, count: Int)?] = []

  /// Appends `value` as a parameter of `kind`; `false` when it is not a value of that kind.
  mutating func append(_ value: SQLValue, as kind: ValueKind) -> Bool {
    let start = bytes.count
    switch (value, kind) {
    case (.null, _):
      spans.append(nil)
      return true
    case (.integer(let integer), .integer):
      appendBigEndian(UInt64(bitPattern: integer))
    case (.integer(let integer), .boolean):
      bytes.append(integer == 0 ? 0 : 1)
    case (.real(let real), .real), (.real(let real), .date):
      appendBigEndian(real.bitPattern)
    case (.text(let text), .text):
      bytes += PostgresText.encode(text).utf8
    case (.blob(let blob), .blob):
      bytes += blob
    case (.blob(let blob), .uuid) where blob.count == 16:
      bytes += blob
    default:
      return false
    }
    spans.append((start, bytes.count - start))
    return true
  }

  private mutating func appendBigEndian(_ value: UInt64) {
    for shift in stride(from: 56, through: 0, by: -8) {
      bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
    }
  }

  /// Calls `body` with the parameters' values, lengths and formats (all binary), as
  /// `PQexecPrepared` takes them; the pointers are valid during the call only.
  func withPointers<R>(
    _ body: (
      UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?
    ) -> R
  ) -> R {
    let lengths = spans.map { Int32($0?.count ?? 0) }
    let formats = [Int32](repeating: 1, count: spans.count)
    return bytes.withUnsafeBufferPointer { buffer in
      let values: [UnsafePointer<CChar>?] = spans.map { span in
        span.flatMap { span in
          buffer.baseAddress.map {
            UnsafeRawPointer($0 + span.start).assumingMemoryBound(to: CChar.self)
          }
        }
      }
      return values.withUnsafeBufferPointer { values in
        body(values.baseAddress, lengths, formats)
      }
    }
  }

  /// `sql` with its `?` parameters numbered as PostgreSQL writes them: `$1`, `$2`, ….
  ///
  /// NB: Loop's SQL holds `?` only as parameters: identifiers are letters, digits and `_`, and
  /// its only string literals are `''` and escaped defaults, which hold no `?` (DDL is never
  /// numbered).
  static func numbered(_ sql: String) -> String {
    guard sql.utf8.contains(UInt8(ascii: "?")) else { return sql }
    var result = ""
    result.reserveCapacity(sql.utf8.count + 16)
    var number = 0
    for character in sql {
      if character == "?" {
        number += 1
        result += "$\(number)"
      } else {
        result.append(character)
      }
    }
    return result
  }
}

/// The rows of a statement's result, read in PostgreSQL's binary format.
final class PostgresResult {
  private let handle: OpaquePointer
  /// The number of rows.
  let count: Int32

  init(_ handle: OpaquePointer) {
    self.handle = handle
    count = PQntuples(handle)
  }

  deinit { PQclear(handle) }

  /// The rows an `INSERT`, `UPDATE` or `DELETE` changed.
  var changes: Int {
    Int(String(cString: PQcmdTuples(handle))) ?? 0
  }

  /// The value in `column` (0-based) of `row`.
  func value(row: Int32, column: Int32) -> SQLValue {
    if PQgetisnull(handle, row, column) != 0 { return .null }
    let length = Int(PQgetlength(handle, row, column))
    guard let raw = PQgetvalue(handle, row, column) else { return .null }
    let bytes = UnsafeRawPointer(raw)
    switch PQftype(handle, column) {
    case 20: return .integer(Int64(bitPattern: bigEndian(bytes, length)))
    case 23: return .integer(Int64(Int32(truncatingIfNeeded: bigEndian(bytes, length))))
    case 21: return .integer(Int64(Int16(truncatingIfNeeded: bigEndian(bytes, length))))
    case 701: return .real(Double(bitPattern: bigEndian(bytes, length)))
    case 16: return .integer(length > 0 && bytes.load(as: UInt8.self) != 0 ? 1 : 0)
    case 25, 1043, 19:  // text, varchar, name
      return .text(
        PostgresText.decode(
          UnsafeBufferPointer(start: bytes.assumingMemoryBound(to: UInt8.self), count: length)))
    default:
      return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: length)))
    }
  }

  /// The UUID in `column` of `row`, read in place, if it is a 16-byte value.
  func uuid(row: Int32, column: Int32) -> UUID? {
    guard PQgetisnull(handle, row, column) == 0, PQgetlength(handle, row, column) == 16,
      let raw = PQgetvalue(handle, row, column)
    else { return nil }
    return UUID(uuid: UnsafeRawPointer(raw).loadUnaligned(as: uuid_t.self))
  }

  /// The 64-bit integer in `column` of `row`.
  func integer(row: Int32, column: Int32) -> Int64 {
    guard case .integer(let value) = value(row: row, column: column) else { return 0 }
    return value
  }

  private func bigEndian(_ bytes: UnsafeRawPointer, _ length: Int) -> UInt64 {
    var value: UInt64 = 0
    for offset in 0..<min(length, 8) {
      value = value << 8 | UInt64(bytes.load(fromByteOffset: offset, as: UInt8.self))
    }
    return value
  }
}
