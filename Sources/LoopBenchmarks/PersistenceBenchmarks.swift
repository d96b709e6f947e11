import CSQLite
import Foundation
import Persistence

/// A link as the TapTap app stores it.
struct BenchLink: PersistentModel, Equatable {
  var id: UUID
  var title: String
  var url: String
  var createdAt: Date
  var lastViewedDate: Date
  var visits: Int

  static let schema = Schema<BenchLink>(
    table: "links",
    columns: [
      Column(\.id, "id"),
      Column(\.title, "title"),
      Column(\.url, "url"),
      Column(\.createdAt, "created_at"),
      Column(\.lastViewedDate, "last_viewed_date"),
      Column(\.visits, "visits"),
    ],
    indexes: [Index(\.lastViewedDate)]
  )

  init(
    id: UUID, title: String, url: String, createdAt: Date, lastViewedDate: Date, visits: Int
  ) {
    self.id = id
    self.title = title
    self.url = url
    self.createdAt = createdAt
    self.lastViewedDate = lastViewedDate
    self.visits = visits
  }

  init(row: Row<BenchLink>) throws {
    id = try row[\.id]
    title = try row[\.title]
    url = try row[\.url]
    createdAt = try row[\.createdAt]
    lastViewedDate = try row[\.lastViewedDate]
    visits = try row[\.visits]
  }
}

extension BenchLink {
  /// The six most recently viewed links (the limit-6 indexed fetch every storage's rows time):
  /// how many came back.
  static func fetchMostRecentlyViewed(in context: ModelContext) throws -> Int {
    try context.fetchAll(
      BenchLink.self, sortBy: [SortDescriptor(\.lastViewedDate, order: .reverse)], limit: 6
    ).count
  }
}

/// Persistence through Loop beside the same SQL run directly through SQLite's C API.
///
/// Both run in the same process, on the same data. The ratio (Loop time / direct time) is the
/// figure.
enum PersistenceBenchmarks {
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  // The statements Loop runs for these calls (see SQLiteBackend), written out for the C API.
  static let columns =
    #""id", "title", "url", "created_at", "last_viewed_date", "visits""#
  static let insertSQL =
    #"INSERT INTO "links" ("id", "title", "url", "created_at", "last_viewed_date", "visits") "#
    + "VALUES (?, ?, ?, ?, ?, ?)"
  static let recentSQL =
    #"SELECT \#(columns), "loop_seq" FROM "links" ORDER BY "last_viewed_date" DESC, "loop_seq" "#
    + "LIMIT ? OFFSET ?"
  static let searchSQL =
    #"SELECT \#(columns), "loop_seq" FROM "links" WHERE (instr("title", ?) > 0) ORDER BY "loop_seq""#
  static let byIDSQL = #"SELECT \#(columns), "loop_seq" FROM "links" WHERE "id" = ?"#
  static let countSQL = #"SELECT count(*) FROM "links" WHERE ("visits" > ?)"#

  /// Runs every persistence benchmark on `rows` links, on a SQLite file and in memory, each
  /// beside the same SQL through the C API on a file.
  static func run(_ settings: Settings) throws -> [Measurement] {
    try run(settings, inMemory: false) + run(settings, inMemory: true)
  }

  static func run(_ settings: Settings, inMemory: Bool) throws -> [Measurement] {
    let rows = settings.size(100_000, quick: 1_000)
    let group = inMemory ? "Persistence (in memory)" : "Persistence (SQLite file)"
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("loop-bench-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let links = makeLinks(rows)
    let oursPath = folder.appendingPathComponent("loop.sqlite").path
    let directPath = folder.appendingPathComponent("direct.sqlite").path

    // Insert: a fresh file each run, one transaction.
    var run = 0
    let insert = try medianTimes(runs: settings.longRuns) {
      run += 1
      let context = ModelContext(
        try ModelContainer(
          for: BenchLink.self, storage: inMemory ? .inMemory : .file("\(oursPath)-\(run)")))
      try context.transaction { context in
        for link in links { try context.insert(link) }
      }
    } baseline: {
      run += 1
      let path = "\(directPath)-\(run)"
      // The same tables and indexes, made by Loop, then filled directly.
      _ = try ModelContainer(for: BenchLink.self, storage: .file(path))
      let database = try Direct(path: path)
      try database.insert(links)
    }

    // Queries: Loop on its storage, the C API on a file, both filled by Loop.
    let container = try ModelContainer(
      for: BenchLink.self, storage: inMemory ? .inMemory : .file(oursPath))
    let context = ModelContext(container)
    try context.transaction { context in
      for link in links { try context.insert(link) }
    }
    if inMemory {
      let file = ModelContext(try ModelContainer(for: BenchLink.self, storage: .file(oursPath)))
      try file.transaction { context in
        for link in links { try context.insert(link) }
      }
    }
    let direct = try Direct(path: oursPath)

    // NB: in memory, a sort looks at every row (there is no index), so fewer repeats keep the
    // whole run under two minutes.
    let repeats = ReadRepeats(
      recent: settings.size(inMemory ? 50 : 2_000, quick: 10),
      search: settings.size(inMemory ? 2 : 20, quick: 1),
      count: settings.size(inMemory ? 20 : 50, quick: 1))
    let reads = DirectReads(
      name: "C API, same SQL",
      recent: { limit in
        try direct.select(recentSQL) { statement in
          sqlite3_bind_int64(statement, 1, Int64(limit))
          sqlite3_bind_int64(statement, 2, 0)
        }
      },
      search: { query in try direct.select(searchSQL) { bindText($0, 1, query) } },
      byID: { id in try direct.select(byIDSQL) { bindUUID($0, 1, id) }.count },
      count: { minimumVisits in
        try direct.count(countSQL) { sqlite3_bind_int64($0, 1, Int64(minimumVisits)) }
      })

    return try StorageBenchmarks.rows(
      insert: insert, reading: context, links: links, beside: reads, repeats: repeats,
      settings: settings, group: group)
  }

  static func makeLinks(_ count: Int) -> [BenchLink] {
    let start = Date(timeIntervalSinceReferenceDate: 700_000_000)
    return (0..<count).map { index in
      // A deterministic, shuffled viewing time so the index does the work.
      let viewed = Double((index &* 48_271) % count)
      return BenchLink(
        id: UUID(), title: "Link title \(index) about Swift on Linux",
        url: "https://example.com/articles/\(index)",
        createdAt: start.addingTimeInterval(Double(index)),
        lastViewedDate: start.addingTimeInterval(viewed), visits: index % 97)
    }
  }
}

// MARK: - The C API, used directly

private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

private func bindText(_ statement: OpaquePointer, _ index: Int32, _ text: String) {
  sqlite3_bind_text(statement, index, text, -1, transient)
}

private func bindUUID(_ statement: OpaquePointer, _ index: Int32, _ id: UUID) {
  withUnsafeBytes(of: id.uuid) { bytes in
    _ = sqlite3_bind_blob(statement, index, bytes.baseAddress, 16, transient)
  }
}

/// What a hand-written SQLite client does: prepared statements, bound values, rows read into
/// structs.
private final class Direct {
  let handle: OpaquePointer
  private var statements: [String: OpaquePointer] = [:]

  init(path: String) throws {
    var handle: OpaquePointer?
    guard
      sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil)
        == SQLITE_OK, let handle
    else {
      throw PersistenceBenchmarks.Failure(description: "cannot open \(path)")
    }
    self.handle = handle
    sqlite3_busy_timeout(handle, 5_000)
    try execute("PRAGMA journal_mode = WAL")
  }

  deinit {
    for statement in statements.values { sqlite3_finalize(statement) }
    sqlite3_close_v2(handle)
  }

  func execute(_ sql: String) throws {
    guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else {
      throw PersistenceBenchmarks.Failure(description: String(cString: sqlite3_errmsg(handle)))
    }
  }

  func prepare(_ sql: String) throws -> OpaquePointer {
    if let statement = statements[sql] { return statement }
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
      throw PersistenceBenchmarks.Failure(description: String(cString: sqlite3_errmsg(handle)))
    }
    statements[sql] = statement
    return statement
  }

  func insert(_ links: [BenchLink]) throws {
    try execute("BEGIN IMMEDIATE")
    let statement = try prepare(PersistenceBenchmarks.insertSQL)
    for link in links {
      bindUUID(statement, 1, link.id)
      bindText(statement, 2, link.title)
      bindText(statement, 3, link.url)
      sqlite3_bind_double(statement, 4, link.createdAt.timeIntervalSinceReferenceDate)
      sqlite3_bind_double(statement, 5, link.lastViewedDate.timeIntervalSinceReferenceDate)
      sqlite3_bind_int64(statement, 6, Int64(link.visits))
      guard sqlite3_step(statement) == SQLITE_DONE else {
        throw PersistenceBenchmarks.Failure(description: String(cString: sqlite3_errmsg(handle)))
      }
      sqlite3_reset(statement)
    }
    try execute("COMMIT")
  }

  func count(_ sql: String, bind: (OpaquePointer) -> Void) throws -> Int {
    let statement = try prepare(sql)
    defer {
      sqlite3_reset(statement)
      sqlite3_clear_bindings(statement)
    }
    bind(statement)
    guard sqlite3_step(statement) == SQLITE_ROW else {
      throw PersistenceBenchmarks.Failure(description: String(cString: sqlite3_errmsg(handle)))
    }
    return Int(sqlite3_column_int64(statement, 0))
  }

  func select(_ sql: String, bind: (OpaquePointer) -> Void) throws -> [BenchLink] {
    let statement = try prepare(sql)
    defer {
      sqlite3_reset(statement)
      sqlite3_clear_bindings(statement)
    }
    bind(statement)
    var links: [BenchLink] = []
    while true {
      let code = sqlite3_step(statement)
      if code == SQLITE_DONE { break }
      guard code == SQLITE_ROW else {
        throw PersistenceBenchmarks.Failure(description: String(cString: sqlite3_errmsg(handle)))
      }
      links.append(link(statement))
    }
    return links
  }

  private func link(_ statement: OpaquePointer) -> BenchLink {
    var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    if let blob = sqlite3_column_blob(statement, 0), sqlite3_column_bytes(statement, 0) == 16 {
      withUnsafeMutableBytes(of: &uuid) {
        $0.copyMemory(from: UnsafeRawBufferPointer(start: blob, count: 16))
      }
    }
    return BenchLink(
      id: UUID(uuid: uuid), title: text(statement, 1), url: text(statement, 2),
      createdAt: Date(timeIntervalSinceReferenceDate: sqlite3_column_double(statement, 3)),
      lastViewedDate: Date(timeIntervalSinceReferenceDate: sqlite3_column_double(statement, 4)),
      visits: Int(sqlite3_column_int64(statement, 5)))
  }

  private func text(_ statement: OpaquePointer, _ column: Int32) -> String {
    guard let text = sqlite3_column_text(statement, column) else { return "" }
    return String(cString: text)
  }
}
