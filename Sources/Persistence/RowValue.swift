import Foundation

/// A translated SQL expression as a Swift function of one row's stored values: what SQLite
/// computes for that row, computed without SQLite.
///
/// ``PredicateTranslator`` builds one beside each SQL fragment it writes, so the in-memory
/// backend decides a predicate from the stored values (the ones SQLite would hold) with the
/// same answer as the SQL, instead of calling `Predicate.evaluate` on every model, which costs
/// microseconds a row.
///
/// The semantics are SQLite's for the operators the translator writes: `NULL` propagates
/// through comparisons and is unknown in `AND`, `OR` and `NOT`; `IS` and `IS NOT` treat two
/// `NULL`s as equal; text compares byte by byte (the `BINARY` collation) and sorts before blobs;
/// integers and reals compare by value. The translator compares only values of one storage
/// class, which is why no affinity conversion is modelled.
struct RowValue: Sendable {
  /// The value on a row (stored values in ``TableDescription/stored`` order).
  let value: @Sendable ([SQLValue]) -> SQLValue

  /// The position of the stored column this value reads, when it is one (``column(_:)``).
  var columnPosition: Int? = nil

  /// The value, when it is a constant (``constant(_:)``).
  var constantValue: SQLValue? = nil

  /// For a condition, where some columns' stored values must lie for it to hold, by position.
  ///
  /// A necessary condition only (a row in the ranges may still fail); empty when nothing is
  /// known. The in-memory backend reads only the slice of a sorted order that lies in them, as
  /// SQLite seeks an index.
  var ranges: [Int: StoredRange] = [:]

  /// The row's stored value at a position.
  static func column(_ position: Int) -> RowValue {
    RowValue(value: { $0[position] }, columnPosition: position)
  }

  /// A constant.
  static func constant(_ constant: SQLValue) -> RowValue {
    RowValue(value: { _ in constant }, constantValue: constant)
  }

  /// Whether the row passes a `WHERE` on this value: only a non-zero number does (`NULL` does
  /// not).
  func isTrue(_ row: [SQLValue]) -> Bool {
    Self.truth(value(row)) == true
  }

  // MARK: - Operators

  /// `lhs = rhs`, or `lhs IS rhs` when `nullSafe`.
  static func equal(_ lhs: RowValue, _ rhs: RowValue, nullSafe: Bool) -> RowValue {
    var result = RowValue { row in
      let left = lhs.value(row)
      let right = rhs.value(row)
      if nullSafe, isNull(left) || isNull(right) {
        return boolean(isNull(left) && isNull(right))
      }
      return compare(left, right).map { boolean($0 == 0) } ?? .null
    }
    // `column = constant` holds only on the constant; `column IS NULL` only on `NULL`.
    if let (position, constant) = columnAndConstant(lhs, rhs), nullSafe || !isNull(constant) {
      result.ranges[position] = StoredRange(lower: (constant, true), upper: (constant, true))
    }
    return result
  }

  /// `lhs <> rhs`, or `lhs IS NOT rhs` when `nullSafe`.
  static func notEqual(_ lhs: RowValue, _ rhs: RowValue, nullSafe: Bool) -> RowValue {
    var result = not(equal(lhs, rhs, nullSafe: nullSafe))
    // `column IS NOT NULL` holds only above `NULL`, which sorts first.
    if nullSafe, let (position, constant) = columnAndConstant(lhs, rhs), isNull(constant) {
      result.ranges[position] = StoredRange(lower: (.null, false), upper: nil)
    }
    return result
  }

  /// `lhs < rhs` and the like: `holds` tells from the comparison's sign whether it is true.
  static func comparison(
    _ lhs: RowValue, _ rhs: RowValue, _ holds: @escaping @Sendable (Int) -> Bool
  )
    -> RowValue
  {
    var result = RowValue { row in
      compare(lhs.value(row), rhs.value(row)).map { boolean(holds($0)) } ?? .null
    }
    // A comparison with `NULL` is never true, so only a constant bounds the column.
    if let (position, constant) = columnAndConstant(lhs, rhs), !isNull(constant) {
      // The signs of `compare(column, constant)` for which the comparison holds.
      let columnFirst = lhs.columnPosition != nil
      let signs = [-1, 0, 1].filter { holds(columnFirst ? $0 : -$0) }
      if let range = StoredRange(around: constant, signs: signs) { result.ranges[position] = range }
    }
    return result
  }

  /// `lhs AND rhs`.
  static func and(_ lhs: RowValue, _ rhs: RowValue) -> RowValue {
    var result = RowValue { row in
      let left = truth(lhs.value(row))
      if left == false { return boolean(false) }
      let right = truth(rhs.value(row))
      if right == false { return boolean(false) }
      return left == nil || right == nil ? .null : boolean(true)
    }
    // Both must hold, so the row lies in both sides' ranges.
    result.ranges = lhs.ranges.merging(rhs.ranges) { $0.intersection($1) }
    return result
  }

  /// The column's position and the constant, when one side is a stored column and the other a
  /// constant.
  private static func columnAndConstant(_ lhs: RowValue, _ rhs: RowValue) -> (Int, SQLValue)? {
    if let position = lhs.columnPosition, let constant = rhs.constantValue {
      return (position, constant)
    }
    if let position = rhs.columnPosition, let constant = lhs.constantValue {
      return (position, constant)
    }
    return nil
  }

  /// `lhs OR rhs`.
  static func or(_ lhs: RowValue, _ rhs: RowValue) -> RowValue {
    RowValue { row in
      let left = truth(lhs.value(row))
      if left == true { return boolean(true) }
      let right = truth(rhs.value(row))
      if right == true { return boolean(true) }
      return left == nil || right == nil ? .null : boolean(false)
    }
  }

  /// `NOT inner`.
  static func not(_ inner: RowValue) -> RowValue {
    RowValue { row in truth(inner.value(row)).map { boolean(!$0) } ?? .null }
  }

  /// `COALESCE(lhs, rhs)`.
  static func coalesce(_ lhs: RowValue, _ rhs: RowValue) -> RowValue {
    RowValue { row in
      let left = lhs.value(row)
      return isNull(left) ? rhs.value(row) : left
    }
  }

  /// `CASE WHEN guard IS NULL THEN NULL ELSE result END`.
  static func nullIfNull(_ guarded: RowValue, else result: RowValue) -> RowValue {
    RowValue { row in isNull(guarded.value(row)) ? .null : result.value(row) }
  }

  /// `element IN (members…)` (members never `NULL`).
  static func isMember(_ element: RowValue, of members: [SQLValue]) -> RowValue {
    RowValue { row in
      let value = element.value(row)
      if isNull(value) { return .null }
      return boolean(members.contains { compare(value, $0) == 0 })
    }
  }

  /// `instr(haystack, needle)`: the 1-based position, in characters, of the needle's first
  /// occurrence in text; 0 when it does not occur; 1 for an empty needle.
  static func instr(_ haystack: RowValue, _ needle: RowValue) -> RowValue {
    RowValue { row in
      // NB: the translator writes `instr` on strings only, which are stored as text.
      guard case .text(var text) = haystack.value(row), case .text(var part) = needle.value(row)
      else { return .null }
      // NB: on the strings' own UTF-8 storage: copying each title into an array to search it
      // cost more than the search.
      let found = text.withUTF8 { text in part.withUTF8 { firstOffset(of: $0, in: text) } }
      guard let offset = found else { return .integer(0) }
      // SQLite counts characters, not bytes: skip UTF-8 continuation bytes.
      let characters = text.utf8.prefix(offset).count { $0 & 0xC0 != 0x80 }
      return .integer(Int64(characters + 1))
    }
  }

  // MARK: - SQLite semantics

  private static func boolean(_ value: Bool) -> SQLValue { .integer(value ? 1 : 0) }

  private static func isNull(_ value: SQLValue) -> Bool {
    if case .null = value { return true }
    return false
  }

  /// A value as a condition: `nil` for `NULL` (unknown).
  private static func truth(_ value: SQLValue) -> Bool? {
    switch value {
    case .null: return nil
    case .integer(let number): return number != 0
    case .real(let number): return number != 0
    // NB: SQLite reads text and blobs as numbers here; the translator never writes a condition
    // on them, so they are false.
    case .text, .blob: return false
    }
  }

  /// The order of two values (negative, zero, positive), or `nil` when either is `NULL`.
  static func compare(_ lhs: SQLValue, _ rhs: SQLValue) -> Int? {
    switch (lhs, rhs) {
    case (.null, _), (_, .null): return nil
    case (.integer(let left), .integer(let right)): return sign(left, right)
    case (.real(let left), .real(let right)): return sign(left, right)
    case (.integer(let left), .real(let right)): return compare(left, right)
    case (.real(let left), .integer(let right)): return -compare(right, left)
    case (.text(let left), .text(let right)): return compareBytes(left.utf8, right.utf8)
    case (.blob(let left), .blob(let right)): return compareBytes(left, right)
    default: return sign(storageRank(lhs), storageRank(rhs))
    }
  }

  /// The order of two values as SQLite's `ORDER BY` sorts them: `NULL` first, then as
  /// ``compare(_:_:)``.
  static func order(_ lhs: SQLValue, _ rhs: SQLValue) -> Int {
    switch (lhs, rhs) {
    case (.null, .null): return 0
    case (.null, _): return -1
    case (_, .null): return 1
    default: return compare(lhs, rhs) ?? 0
    }
  }

  /// Numbers before text before blobs.
  private static func storageRank(_ value: SQLValue) -> Int {
    switch value {
    case .null: return 0
    case .integer, .real: return 1
    case .text: return 2
    case .blob: return 3
    }
  }

  private static func sign<T: Comparable>(_ lhs: T, _ rhs: T) -> Int {
    lhs < rhs ? -1 : lhs == rhs ? 0 : 1
  }

  /// An integer against a real, exactly (as SQLite does, without rounding the integer).
  private static func compare(_ lhs: Int64, _ rhs: Double) -> Int {
    if rhs >= 9_223_372_036_854_775_808.0 { return -1 }
    if rhs < -9_223_372_036_854_775_808.0 { return 1 }
    let whole = Int64(rhs.rounded(.down))
    if lhs != whole { return sign(lhs, whole) }
    return Double(whole) < rhs ? -1 : 0
  }

  private static func compareBytes(
    _ lhs: some Sequence<UInt8>, _ rhs: some Sequence<UInt8>
  ) -> Int {
    var left = lhs.makeIterator()
    var right = rhs.makeIterator()
    while true {
      switch (left.next(), right.next()) {
      case (nil, nil): return 0
      case (nil, _): return -1
      case (_, nil): return 1
      case (let l?, let r?): if l != r { return l < r ? -1 : 1 }
      }
    }
  }

  /// The byte offset of the first occurrence of `needle` in `haystack` (0 for an empty needle).
  private static func firstOffset(
    of needle: UnsafeBufferPointer<UInt8>, in haystack: UnsafeBufferPointer<UInt8>
  ) -> Int? {
    guard needle.count <= haystack.count else { return nil }
    guard let first = needle.first, let needleStart = needle.baseAddress,
      let haystackStart = haystack.baseAddress
    else { return 0 }
    for start in 0...(haystack.count - needle.count) where haystack[start] == first {
      if memcmp(haystackStart + start, needleStart, needle.count) == 0 { return start }
    }
    return nil
  }
}
