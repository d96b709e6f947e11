import Foundation

/// The SQL a backend speaks, where SQLite's and PostgreSQL's differ: literals, null-safe
/// equality, substring search, `NULL`s in sorts, and how a model's column is declared and named.
///
/// ``PredicateTranslator``, the sorts and ``MigrationPlan`` write one tree of SQL for both
/// backends and ask the dialect for each of these words, so that both answer every predicate,
/// sort and schema change alike. Both take parameters as `?` in the fragments; the PostgreSQL
/// backend numbers them (`$1`, `$2`, …) when it sends a statement.
///
/// What PostgreSQL stores (see ``ValueKind``): `bigint`, `double precision` (every bit kept),
/// `text` with the `"C"` collation (byte order, which is SQLite's `BINARY` and, for text in
/// normalization form C, Swift's `<`), `bytea`, `uuid`, `boolean`, and for a `Date` a
/// `timestamptz` column that other programs read, computed from a hidden `double precision`
/// column (`loop_exact_<name>`) holding the exact seconds, which Loop reads, compares and sorts
/// by: `timestamptz` keeps microseconds, and a `Date` keeps every bit of a `Double`.
enum SQLDialect: Sendable {
  case sqlite
  case postgres

  // MARK: Values

  /// The literal of a boolean.
  func literal(_ flag: Bool) -> String {
    switch self {
    case .sqlite: flag ? "1" : "0"
    case .postgres: flag ? "true" : "false"
    }
  }

  /// `lhs IS rhs`: equality where two `NULL`s are equal.
  var isOperator: String {
    self == .sqlite ? " IS " : " IS NOT DISTINCT FROM "
  }

  /// `lhs IS NOT rhs`: inequality where two `NULL`s are equal.
  var isNotOperator: String {
    self == .sqlite ? " IS NOT " : " IS DISTINCT FROM "
  }

  /// The function that finds text in text: the 1-based position in characters of the first
  /// occurrence, 0 when there is none, 1 for empty text.
  var findFunction: String { self == .sqlite ? "instr" : "strpos" }

  /// A parameter of `kind`, as a fragment writes it.
  ///
  /// NB: two parameters compared with each other (a predicate comparing two constants) would be
  /// compared in the database's own collation on PostgreSQL: text parameters carry `"C"`, the
  /// collation of every text column.
  func parameter(_ kind: ValueKind) -> String {
    self == .postgres && kind == .text ? #"(? COLLATE "C")"# : "?"
  }

  // MARK: Names

  /// An identifier as the database keeps it: PostgreSQL cuts names at 63 bytes, so a longer one
  /// (a long index name) is shortened to its start and a hash of the whole.
  func identifier(_ name: String) -> String {
    guard self == .postgres, name.utf8.count > 63 else { return name }
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    let digits = String(hash, radix: 16)
    return String(name.prefix(46)) + "_" + String(repeating: "0", count: 16 - digits.count)
      + digits
  }

  /// The quoted name of the column that holds `column`'s values as bound and read.
  func columnName(_ column: StoredColumn) -> String {
    quoted(identifier(storageName(of: column.name, kind: column.kind)))
  }

  /// The name of the column that holds the values of the schema column `name` of `kind`.
  func storageName(of name: String, kind: ValueKind) -> String {
    self == .postgres && kind == .date ? "loop_exact_" + name : name
  }

  /// What ends an `INSERT`: nothing in SQLite, whose backend reads a conflict from the error;
  /// `ON CONFLICT DO NOTHING` in PostgreSQL.
  ///
  /// NB: in PostgreSQL a conflict is not an error: inside a transaction an error would abort it,
  /// and `insert` reports a duplicate as a thrown error the caller may catch and go on from.
  var insertConflictClause: String {
    self == .postgres ? " ON CONFLICT DO NOTHING" : ""
  }

  // MARK: Sorts

  /// One `ORDER BY` term: `NULL` sorts first ascending and last descending, as SQLite and
  /// `SortDescriptor` sort it (PostgreSQL's default is the other way round).
  func sortTerm(_ column: StoredColumn, ascending: Bool) -> String {
    let name = columnName(column)
    switch self {
    case .sqlite: return name + (ascending ? " ASC" : " DESC")
    case .postgres: return name + (ascending ? " ASC NULLS FIRST" : " DESC NULLS LAST")
    }
  }

  // MARK: Declarations

  /// The type of a column of `kind` as declared, and as the database reports it back.
  func typeName(_ kind: ValueKind) -> String {
    switch (self, kind) {
    case (.sqlite, .integer), (.sqlite, .boolean): ColumnType.integer.rawValue
    case (.sqlite, .real), (.sqlite, .date): ColumnType.real.rawValue
    case (.sqlite, .text): ColumnType.text.rawValue
    case (.sqlite, .blob), (.sqlite, .uuid): ColumnType.blob.rawValue
    case (.postgres, .integer): "bigint"
    case (.postgres, .real), (.postgres, .date): "double precision"
    case (.postgres, .text): "text"
    case (.postgres, .blob): "bytea"
    case (.postgres, .uuid): "uuid"
    case (.postgres, .boolean): "boolean"
    }
  }

  /// The columns that store `column`, each with its definition in `CREATE TABLE` or `ADD COLUMN`
  /// (without a default): one, or for a date on PostgreSQL the exact seconds and then the
  /// `timestamptz` computed from them.
  func declarations(_ column: StoredColumn, unique: Bool = false) -> [(
    name: String, declaration: String
  )] {
    let notNull = column.isOptional ? "" : " NOT NULL"
    let suffix = notNull + (unique ? " UNIQUE" : "")
    switch self {
    case .sqlite:
      return [(column.name, "\(column.quotedName) \(column.type.sqlType)\(suffix)")]
    case .postgres:
      let name = identifier(storageName(of: column.name, kind: column.kind))
      let collation = column.kind == .text ? #" COLLATE "C""# : ""
      let stored = "\(quoted(name)) \(typeName(column.kind))\(collation)\(suffix)"
      guard column.kind == .date else { return [(name, stored)] }
      return [(name, stored), (identifier(column.name), nativeDateDeclaration(column))]
    }
  }

  /// Whether PostgreSQL stores values of `kind` in a btree index as they are: not text or bytes,
  /// which may be longer than a btree entry can be (2,704 bytes).
  private static func fitsBtree(_ kind: ValueKind) -> Bool {
    kind != .text && kind != .blob
  }

  /// `CREATE INDEX` for `index` on `table`.
  ///
  /// NB: PostgreSQL refuses a row whose value is too long for a btree entry, where SQLite
  /// indexes anything. So a unique index compares text and bytes by their MD5 (a deliberate MD5
  /// collision is the only way two different values could then be refused as a duplicate); a
  /// plain index on text or bytes is a hash index on its first column (equality lookups), or a
  /// btree on its columns before the first such one.
  func createIndex(_ index: IndexDescription, table: String, stored: [StoredColumn]) -> String {
    let name = quoted(identifier(index.name))
    let columns = index.positions.map { stored[$0] }
    let prefix = "CREATE \(index.isUnique ? "UNIQUE " : "")INDEX IF NOT EXISTS \(name) ON "
    guard self == .postgres, !columns.allSatisfy({ Self.fitsBtree($0.kind) }) else {
      return prefix + "\(quoted(table)) (\(columns.map(columnName).joined(separator: ", ")))"
    }
    if index.isUnique {
      let terms = columns.map {
        Self.fitsBtree($0.kind) ? columnName($0) : "md5(\(columnName($0)))"
      }
      return prefix + "\(quoted(table)) (\(terms.joined(separator: ", ")))"
    }
    let leading = columns.prefix { Self.fitsBtree($0.kind) }
    guard leading.isEmpty else {
      return prefix + "\(quoted(table)) (\(leading.map(columnName).joined(separator: ", ")))"
    }
    return prefix + "\(quoted(table)) USING hash (\(columnName(columns[0])))"
  }

  /// What makes the id column unique beside `CREATE TABLE`, when its declaration cannot (text or
  /// bytes on PostgreSQL: see ``createIndex(_:table:stored:)``), and lets lookups by id use an
  /// index.
  func idIndexes(_ id: StoredColumn, table: String) -> [String] {
    guard self == .postgres, !Self.fitsBtree(id.kind) else { return [] }
    let name = columnName(id)
    return [
      "CREATE UNIQUE INDEX \(quoted(identifier("loop_id_\(table)"))) ON \(quoted(table)) "
        + "(md5(\(name)))",
      "CREATE INDEX \(quoted(identifier("loop_id_hash_\(table)"))) ON \(quoted(table)) "
        + "USING hash (\(name))",
    ]
  }

  /// Whether the id column is declared `UNIQUE` (see ``idIndexes(_:table:)``).
  func declaresUniqueID(_ id: StoredColumn) -> Bool {
    self == .sqlite || Self.fitsBtree(id.kind)
  }

  /// Who holds the tables, in messages: "the file" or "the database".
  var holder: String { self == .sqlite ? "the file" : "the database" }

  /// The type PostgreSQL reports for the `timestamptz` column of a date.
  static let nativeDateType = "timestamp with time zone"

  /// The `timestamptz` column PostgreSQL computes from a date's exact seconds: the instant to
  /// the microsecond, `infinity` or `-infinity` beyond the years it can hold, `NULL` for `nil`.
  func nativeDateDeclaration(_ column: StoredColumn) -> String {
    let exact = columnName(column)
    // NB: to_timestamp takes seconds since 1970 (978,307,200 before 2001) and holds the years
    // 4713 BC to 294276 AD; it is immutable, as a generated column's expression must be.
    return
      "\(quoted(identifier(column.name))) timestamptz GENERATED ALWAYS AS (CASE WHEN \(exact) IS "
      + "NULL THEN NULL WHEN \(exact) >= -211845110400 AND \(exact) < 9223339708800 THEN "
      + "to_timestamp(\(exact) + 978307200) WHEN \(exact) > 0 THEN 'infinity'::timestamptz "
      + "ELSE '-infinity'::timestamptz END) STORED"
  }

  /// The hidden column giving every row its place in insertion order.
  var sequenceDeclaration: String {
    switch self {
    case .sqlite: #""loop_seq" INTEGER PRIMARY KEY"#
    case .postgres: #""loop_seq" bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY"#
    }
  }

  /// `value` written as a literal of `kind`, for `DEFAULT` clauses (which cannot take
  /// parameters), or `nil` when it cannot be written.
  func literal(_ value: SQLValue, kind: ValueKind) -> String? {
    guard self == .postgres else { return sqlLiteral(value) }
    switch (value, kind) {
    case (.null, _):
      return "NULL"
    case (.integer(let integer), .boolean):
      return literal(integer != 0)
    case (.integer(let integer), _):
      return "\(integer)"
    case (.real(let real), _):
      let text = real.isInfinite ? (real < 0 ? "-Infinity" : "Infinity") : "\(real)"
      return "'\(text)'::double precision"
    case (.text(let text), _):
      // NB: an E'' string means the same whatever standard_conforming_strings is.
      let escaped = PostgresText.encode(text).replacingOccurrences(of: "\\", with: "\\\\")
        .replacingOccurrences(of: "'", with: "''")
      return "E'\(escaped)'"
    case (.blob(let bytes), .uuid):
      guard bytes.count == 16 else { return nil }
      let uuid = bytes.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }
      return "'\(uuid.uuidString)'::uuid"
    case (.blob(let bytes), _):
      return "E'\\\\x\(hex(bytes))'::bytea"
    }
  }
}

/// The bytes in hexadecimal, two upper-case digits each.
func hex(_ bytes: [UInt8]) -> String {
  bytes.map { byte in
    let digits = String(byte, radix: 16, uppercase: true)
    return digits.count == 1 ? "0" + digits : digits
  }.joined()
}
