import CLibPQ
import Foundation
import Persistence

/// Persistence on PostgreSQL through Loop beside the same SQL sent through libpq's C API.
///
/// Both talk to the server `LOOP_POSTGRES_URL` names (`scripts/postgres run swift run -c
/// release loop-bench --only postgres` starts a throwaway one), each in a schema of its own made
/// for the run and dropped after it, with the same tables (made by Loop), the same prepared
/// statements and PostgreSQL's binary format both ways. The ratio is the figure; the server's
/// work (the round trips, the scans) is in both.
enum PostgresBenchmarks {
  // The statements Loop sends for these calls (see `PostgresBackend`), written out for libpq.
  static let columns =
    #""id", "title", "url", "loop_exact_created_at", "loop_exact_last_viewed_date", "visits""#
  static let insertSQL =
    #"INSERT INTO "links" ("id", "title", "url", "loop_exact_created_at", "#
    + #""loop_exact_last_viewed_date", "visits") VALUES ($1, $2, $3, $4, $5, $6) "#
    + "ON CONFLICT DO NOTHING"
  static let recentSQL =
    #"SELECT \#(columns), "loop_seq" FROM "links" ORDER BY "loop_exact_last_viewed_date" DESC "#
    + #"NULLS LAST, "loop_seq" LIMIT $1 OFFSET $2"#
  static let searchSQL =
    #"SELECT \#(columns), "loop_seq" FROM "links" WHERE (strpos("title", ($1 COLLATE "C")) > 0) "#
    + #"ORDER BY "loop_seq""#
  static let byIDSQL = #"SELECT \#(columns), "loop_seq" FROM "links" WHERE "id" = $1"#
  static let countSQL = #"SELECT count(*) FROM "links" WHERE ("visits" > $1)"#

  /// The rows on the server `LOOP_POSTGRES_URL` names; none (with a note on standard error)
  /// when it is unset.
  static func run(_ settings: Settings) throws -> [Measurement] {
    guard let url = ProcessInfo.processInfo.environment["LOOP_POSTGRES_URL"], !url.isEmpty else {
      FileHandle.standardError.write(
        Data(
          ("loop-bench: no PostgreSQL rows: LOOP_POSTGRES_URL is unset (scripts/postgres run "
            + "swift run -c release loop-bench --only postgres starts a server for them)\n").utf8))
      return []
    }
    let rows = settings.size(100_000, quick: 1_000)
    // NB: the group names the server as Loop does: never with its password.
    let group = "Persistence (\(ModelContainer.Storage.postgres(url)))"
    let admin = try DirectPostgres(url)
    var schemas: [String] = []
    defer {
      for schema in schemas { try? admin.execute("DROP SCHEMA IF EXISTS \(schema) CASCADE") }
    }
    /// A connection string to a new, empty schema.
    func fresh() throws -> String {
      let schema = "loop_bench_\(UUID().uuidString.prefix(8).lowercased())_\(schemas.count)"
      try admin.execute("CREATE SCHEMA \(schema)")
      schemas.append(schema)
      let separator = url.contains("?") ? "&" : "?"
      return url + separator + "options=-csearch_path%3D\(schema)"
    }
    let links = PersistenceBenchmarks.makeLinks(rows)

    // Insert: a new schema each run (its tables made by Loop on both sides), one transaction.
    let insert = try medianTimes(runs: settings.longRuns) {
      let context = ModelContext(
        try ModelContainer(for: BenchLink.self, storage: .postgres(try fresh())))
      try context.transaction { context in
        for link in links { try context.insert(link) }
      }
    } baseline: {
      let schema = try fresh()
      _ = try ModelContainer(for: BenchLink.self, storage: .postgres(schema))
      try DirectPostgres(schema).insert(links)
    }

    // Queries: both on one schema, filled by Loop.
    let filled = try fresh()
    let context = ModelContext(try ModelContainer(for: BenchLink.self, storage: .postgres(filled)))
    try context.transaction { context in
      for link in links { try context.insert(link) }
    }
    let direct = try DirectPostgres(filled)

    let reads = DirectReads(
      name: "libpq, same SQL",
      recent: { limit in try direct.select(recentSQL, [.int8(Int64(limit)), .int8(0)]) },
      search: { query in try direct.select(searchSQL, [.text(query)]) },
      byID: { id in try direct.select(byIDSQL, [.uuid(id)]).count },
      count: { minimumVisits in try direct.count(countSQL, [.int8(Int64(minimumVisits))]) })

    return try StorageBenchmarks.rows(
      insert: insert, reading: context, links: links, beside: reads,
      repeats: ReadRepeats(
        recent: settings.size(2_000, quick: 10), search: settings.size(20, quick: 1),
        count: settings.size(50, quick: 1)),
      settings: settings, group: group)
  }
}

// MARK: - libpq's C API, used directly

/// A parameter as a hand-written libpq client sends it, in binary.
private enum Parameter {
  case int8(Int64)
  case float8(Double)
  case text(String)
  case uuid(UUID)

  var type: Oid {
    switch self {
    case .int8: 20
    case .float8: 701
    case .text: 25
    case .uuid: 2950
    }
  }

  /// Appends the value in PostgreSQL's binary format.
  func append(to buffer: inout [UInt8]) {
    switch self {
    case .int8(let value): appendBigEndian(UInt64(bitPattern: value), to: &buffer)
    case .float8(let value): appendBigEndian(value.bitPattern, to: &buffer)
    case .text(let value): buffer += value.utf8
    case .uuid(let value): withUnsafeBytes(of: value.uuid) { buffer += $0 }
    }
  }

  private func appendBigEndian(_ value: UInt64, to buffer: inout [UInt8]) {
    for shift in stride(from: 56, through: 0, by: -8) {
      buffer.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
    }
  }
}

/// What a hand-written libpq client does: prepared statements, binary parameters and results,
/// rows read into structs.
private final class DirectPostgres {
  let handle: OpaquePointer
  private var statements: [String: String] = [:]

  init(_ url: String) throws {
    guard let handle = PQconnectdb(url), PQstatus(handle) == CONNECTION_OK else {
      throw PersistenceBenchmarks.Failure(description: "cannot connect to the PostgreSQL server")
    }
    PQsetNoticeProcessor(handle, { _, _ in }, nil)
    self.handle = handle
  }

  deinit { PQfinish(handle) }

  func execute(_ sql: String) throws {
    let result = PQexec(handle, sql)
    defer { PQclear(result) }
    try check(result)
  }

  private func check(_ result: OpaquePointer?) throws {
    let status = PQresultStatus(result)
    guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
      throw PersistenceBenchmarks.Failure(description: String(cString: PQerrorMessage(handle)))
    }
  }

  /// Runs `sql`, prepared on first use, with `parameters`; the caller clears the result.
  private func run(_ sql: String, _ parameters: [Parameter]) throws -> OpaquePointer {
    let name: String
    if let prepared = statements[sql] {
      name = prepared
    } else {
      name = "direct_\(statements.count)"
      let types = parameters.map(\.type)
      let result = PQprepare(handle, name, sql, Int32(types.count), types)
      defer { PQclear(result) }
      try check(result)
      statements[sql] = name
    }
    var buffer: [UInt8] = [0]
    var spans: [(start: Int, count: Int)] = []
    for parameter in parameters {
      let start = buffer.count
      parameter.append(to: &buffer)
      spans.append((start, buffer.count - start))
    }
    let lengths = spans.map { Int32($0.count) }
    let formats = [Int32](repeating: 1, count: spans.count)
    let result = buffer.withUnsafeBufferPointer { buffer in
      let arguments = spans.map { span in
        buffer.baseAddress.map {
          UnsafeRawPointer($0 + span.start).assumingMemoryBound(to: CChar.self)
        }
      }
      return PQexecPrepared(handle, name, Int32(spans.count), arguments, lengths, formats, 1)
    }
    do {
      try check(result)
    } catch {
      PQclear(result)
      throw error
    }
    guard let result else {
      throw PersistenceBenchmarks.Failure(description: "no result")
    }
    return result
  }

  func insert(_ links: [BenchLink]) throws {
    try execute("BEGIN ISOLATION LEVEL SERIALIZABLE; LOCK TABLE loop_meta IN EXCLUSIVE MODE")
    for link in links {
      PQclear(
        try run(
          PostgresBenchmarks.insertSQL,
          [
            .uuid(link.id), .text(link.title), .text(link.url),
            .float8(link.createdAt.timeIntervalSinceReferenceDate),
            .float8(link.lastViewedDate.timeIntervalSinceReferenceDate), .int8(Int64(link.visits)),
          ]))
    }
    try execute("COMMIT")
  }

  func count(_ sql: String, _ parameters: [Parameter]) throws -> Int {
    let result = try run(sql, parameters)
    defer { PQclear(result) }
    return Int(integer(result, 0, 0))
  }

  func select(_ sql: String, _ parameters: [Parameter]) throws -> [BenchLink] {
    let result = try run(sql, parameters)
    defer { PQclear(result) }
    return (0..<PQntuples(result)).map { row in
      var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
      withUnsafeMutableBytes(of: &uuid) {
        $0.copyMemory(from: UnsafeRawBufferPointer(start: PQgetvalue(result, row, 0), count: 16))
      }
      return BenchLink(
        id: UUID(uuid: uuid), title: text(result, row, 1), url: text(result, row, 2),
        createdAt: Date(timeIntervalSinceReferenceDate: double(result, row, 3)),
        lastViewedDate: Date(timeIntervalSinceReferenceDate: double(result, row, 4)),
        visits: Int(integer(result, row, 5)))
    }
  }

  private func integer(_ result: OpaquePointer, _ row: Int32, _ column: Int32) -> Int64 {
    Int64(bitPattern: bigEndian(result, row, column))
  }

  private func double(_ result: OpaquePointer, _ row: Int32, _ column: Int32) -> Double {
    Double(bitPattern: bigEndian(result, row, column))
  }

  private func bigEndian(_ result: OpaquePointer, _ row: Int32, _ column: Int32) -> UInt64 {
    let bytes = UnsafeRawPointer(PQgetvalue(result, row, column))
    var value: UInt64 = 0
    for offset in 0..<8 {
      value = value << 8 | UInt64(bytes?.load(fromByteOffset: offset, as: UInt8.self) ?? 0)
    }
    return value
  }

  private func text(_ result: OpaquePointer, _ row: Int32, _ column: Int32) -> String {
    guard let bytes = PQgetvalue(result, row, column) else { return "" }
    return String(
      decoding: UnsafeRawBufferPointer(
        start: bytes, count: Int(PQgetlength(result, row, column))),
      as: UTF8.self)
  }
}
