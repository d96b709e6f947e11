import CSQLite
import Foundation
import Persistence
import TestSupport
import Testing

/// A column type of an app's own that stores its double unchecked (it might hold NaN).
private struct Gauge: ColumnValue, Equatable, Codable {
  var value: Double

  init(_ value: Double) { self.value = value }

  static var columnType: ColumnType { .real }

  func encodeColumn() -> SQLValue { .real(value) }

  init(decodingColumn value: SQLValue) throws { self.value = try Double(decodingColumn: value) }
}

private struct Reading: PersistentModel, Equatable {
  var id: Int
  var gauge: Gauge
  var spare: Gauge?

  static let schema = Schema<Reading>(
    table: "readings",
    columns: [Column(\.id, "id"), Column(\.gauge, "gauge"), Column(\.spare, "spare")])

  init(id: Int, gauge: Gauge, spare: Gauge?) {
    self.id = id
    self.gauge = gauge
    self.spare = spare
  }

  init(row: Row<Reading>) throws {
    id = try row[\.id]
    gauge = try row[\.gauge]
    spare = try row[\.spare]
  }
}

/// A table as a file written before doubles were stored bit for bit has it: `REAL` columns.
private struct Measure: PersistentModel, Equatable {
  var id: Int
  var value: Double
  var takenAt: Date?
  var label: String

  static let schema = Schema<Measure>(
    table: "measures",
    columns: [
      Column(\.id, "id"), Column(\.value, "value"), Column(\.takenAt, "taken_at"),
      Column(\.label, "label", options: .searchable),
    ],
    indexes: [Index(\.value), Index(\.label, unique: true)])

  init(id: Int, value: Double, takenAt: Date?, label: String) {
    self.id = id
    self.value = value
    self.takenAt = takenAt
    self.label = label
  }

  init(row: Row<Measure>) throws {
    id = try row[\.id]
    value = try row[\.value]
    takenAt = try row[\.takenAt]
    label = try row[\.label]
  }
}

/// ``Measure`` a version later, with two new non-optional doubles.
private struct MeasureV2: PersistentModel {
  var id: Int
  var value: Double
  var takenAt: Date?
  var label: String
  var offset: Double
  var scale: Double

  /// A default SQLite's parser reads one bit off (SQLite 3.40), and one it reads as `+0.0`.
  static let awkward = -2.2606631148481385e-299

  static let schema = Schema<MeasureV2>(
    table: "measures", version: 2,
    columns: [
      Column(\.id, "id"), Column(\.value, "value"), Column(\.takenAt, "taken_at"),
      Column(\.label, "label", options: .searchable), Column(\.offset, "offset", default: -0.0),
      Column(\.scale, "scale", default: awkward),
    ],
    indexes: [Index(\.value), Index(\.label, unique: true)])

  init(row: Row<MeasureV2>) throws {
    id = try row[\.id]
    value = try row[\.value]
    takenAt = try row[\.takenAt]
    label = try row[\.label]
    offset = try row[\.offset]
    scale = try row[\.scale]
  }
}

/// Doubles (and dates, which are doubles) are stored bit for bit on every backend; NaN is
/// refused when written, never found broken when read.
@Suite struct DoubleStorageTests {
  static let awkwardDoubles: [Double] = [
    -0.0, 0.0, .infinity, -.infinity, .leastNonzeroMagnitude, -.leastNonzeroMagnitude,
    .leastNormalMagnitude, Double(bitPattern: 0x000F_FFFF_FFFF_FFFF), .greatestFiniteMagnitude,
    -.greatestFiniteMagnitude, 1.0 / 3, 0x1p53 + 2, -2.2606631148481385e-299,
    Double(bitPattern: 0x8000_0000_0000_0F00),
  ]

  @Test(arguments: Backend.allCases)
  func everyDoubleReadsBackBitForBit(_ backend: Backend) throws {
    let store = try Store(backend)
    for (id, value) in Self.awkwardDoubles.enumerated() {
      try store.context.insert(
        Item(id: id, title: "t", score: value, date: date(value), dueDate: date(-value)))
    }
    let items = try store.context.fetchAll(Item.self)
    #expect(items.map(\.score.bitPattern) == Self.awkwardDoubles.map(\.bitPattern))
    #expect(
      items.map(\.date.timeIntervalSinceReferenceDate.bitPattern)
        == Self.awkwardDoubles.map(\.bitPattern))
    #expect(
      items.map { $0.dueDate?.timeIntervalSinceReferenceDate.bitPattern }
        == Self.awkwardDoubles.map { (-$0).bitPattern })
  }

  @Test(arguments: Backend.persistent)
  func negativeZeroKeepsItsSignInAReopenedDatabase(_ backend: Backend) throws {
    let folder = TemporaryFolder()
    defer { Backend.removeStorage(in: folder.url) }
    let storage = backend.storage(file: "store.sqlite", in: folder.url)
    try ModelContext(ModelContainer(for: Item.self, storage: storage))
      .insert(Item(id: 1, title: "t", score: -0.0))
    let context = ModelContext(try ModelContainer(for: Item.self, storage: storage))
    #expect(try context.fetch(Item.self, id: 1)?.score.sign == .minus)
  }

  /// `-0.0 == 0.0` in Swift, so in SQL too: equality, comparisons and sort ties agree.
  @Test(arguments: Backend.allCases)
  func negativeZeroComparesAndSortsAsZero(_ backend: Backend) throws {
    let store = try Store(backend)
    for (id, value) in [0.0, -0.0, -1, 1, -0.0].enumerated() {
      try store.context.insert(Item(id: id, title: "t", score: value))
    }
    let zero = 0.0
    let negativeZero = -0.0
    func ids(_ predicate: Predicate<Item>) throws -> [Int] {
      try store.context.fetchAll(Item.self, predicate: predicate).map(\.id)
    }
    #expect(try ids(#Predicate { $0.score == zero }) == [0, 1, 4])
    #expect(try ids(#Predicate { $0.score == negativeZero }) == [0, 1, 4])
    #expect(try ids(#Predicate { $0.score < zero }) == [2])
    #expect(try ids(#Predicate { $0.score >= negativeZero }) == [0, 1, 3, 4])
    #expect(
      try store.context.fetchAll(Item.self, sortBy: [SortDescriptor(\.score)]).map(\.id)
        == [2, 0, 1, 4, 3])
  }

  @Test(arguments: Backend.allCases)
  func nanIsRefusedWhenWrittenAndNothingIsStored(_ backend: Backend) throws {
    let store = try Store(backend, Item.self, Reading.self)
    try store.context.insert(Item(id: 1, title: "t"))
    #expect(throws: PersistenceError.invalidValue(model: "Item", column: "score", value: "nan")) {
      try store.context.insert(Item(id: 2, title: "t", score: .nan))
    }
    #expect(throws: PersistenceError.invalidValue(model: "Item", column: "score", value: "nan")) {
      try store.context.update(Item(id: 1, title: "t", score: .nan))
    }
    // NB: `Date.description` traps on this date; the error shows its interval.
    let nanDate = Date(timeIntervalSinceReferenceDate: .nan)
    #expect(throws: PersistenceError.invalidValue(model: "Item", column: "date", value: "nan")) {
      try store.context.insert(Item(id: 3, title: "t", date: nanDate))
    }
    #expect(throws: PersistenceError.invalidValue(model: "Item", column: "due_date", value: "nan"))
    {
      try store.context.insert(Item(id: 3, title: "t", dueDate: nanDate))
    }
    #expect(try store.context.fetchAll(Item.self) == [Item(id: 1, title: "t")])
  }

  /// A custom type that encodes NaN is refused too (SQLite would store `NULL` for it: an error
  /// for a non-optional column, a silent `nil` for an optional one).
  @Test(arguments: Backend.allCases)
  func aCustomTypeEncodingNaNIsRefused(_ backend: Backend) throws {
    let store = try Store(backend, Reading.self)
    #expect(
      throws: PersistenceError.invalidValue(
        model: "Reading", column: "gauge", value: "\(Gauge(.nan))")
    ) {
      try store.context.insert(Reading(id: 1, gauge: Gauge(.nan), spare: nil))
    }
    #expect(
      throws: PersistenceError.invalidValue(
        model: "Reading", column: "spare", value: String(describing: Optional(Gauge(.nan))))
    ) {
      try store.context.insert(Reading(id: 2, gauge: Gauge(1), spare: Gauge(.nan)))
    }
    #expect(try store.context.fetchCount(FetchDescriptor<Reading>()) == 0)
    try store.context.insert(Reading(id: 3, gauge: Gauge(-0.0), spare: Gauge(-0.0)))
    let reading = try #require(try store.context.fetch(Reading.self, id: 3))
    #expect(reading.gauge.value.sign == .minus)
    #expect(reading.spare?.value.sign == .minus)
  }

  /// A predicate comparing with NaN (of a custom type) is answered as Swift answers it: never
  /// equal, never ordered.
  @Test(arguments: Backend.allCases)
  func aComparisonWithNaNMatchesNothing(_ backend: Backend) throws {
    let store = try Store(backend, Reading.self)
    try store.context.insert(Reading(id: 1, gauge: Gauge(1), spare: nil))
    let nan = Gauge(.nan)
    #expect(
      try store.context.fetchAll(Reading.self, predicate: #Predicate { $0.gauge == nan }) == [])
    #expect(
      try store.context.fetchAll(Reading.self, predicate: #Predicate { $0.gauge != nan }).count
        == 1)
  }

  // MARK: Files written before

  @Test func aFileWithRealColumnsIsRebuiltKeepingRowsOrderAndIndexes() throws {
    let folder = TemporaryFolder()
    let path = folder.path("store.sqlite")
    try writeLegacyFile(at: path)
    let container = try ModelContainer(for: Measure.self, storage: .file(path))
    let context = ModelContext(container)
    #expect(
      try context.fetchAll(Measure.self) == [
        Measure(id: 3, value: 2.5, takenAt: date(10), label: "Äpfel"),
        Measure(id: 1, value: 0, takenAt: nil, label: "b"),
      ])
    // The stale folded column went, the declared one was filled; the unique index holds.
    let query = "äpfel".caseFolded
    #expect(
      try context.fetchAll(Measure.self, predicate: #Predicate { $0.label.caseFolded == query })
        .map(\.id) == [3])
    #expect(throws: PersistenceError.uniqueViolation(model: "Measure", columns: ["label"], id: "4"))
    {
      try context.insert(Measure(id: 4, value: 1, takenAt: nil, label: "b"))
    }
    try context.insert(Measure(id: 2, value: -0.0, takenAt: date(-0.0), label: "c"))
    let reopened = ModelContext(try ModelContainer(for: Measure.self, storage: .file(path)))
    let last = try #require(try reopened.fetchAll(Measure.self).last)
    #expect(last.id == 2)
    #expect(last.value.sign == .minus)
    #expect(last.takenAt?.timeIntervalSinceReferenceDate.sign == .minus)
    try container.checkIntegrity()
    #expect(try columnTypes(at: path, table: "measures")["value"] == "ANY")
  }

  @Test(arguments: Backend.persistent)
  func aNewDoubleColumnGivesExistingRowsItsDefaultBitForBit(_ backend: Backend) throws {
    let folder = TemporaryFolder()
    defer { Backend.removeStorage(in: folder.url) }
    let storage = backend.storage(file: "store.sqlite", in: folder.url)
    try ModelContext(ModelContainer(for: Measure.self, storage: storage))
      .insert(Measure(id: 1, value: 1, takenAt: nil, label: "a"))
    let context = ModelContext(try ModelContainer(for: MeasureV2.self, storage: storage))
    let measure = try #require(try context.fetch(MeasureV2.self, id: 1))
    #expect(measure.offset.bitPattern == (-0.0).bitPattern)
    #expect(measure.scale.bitPattern == MeasureV2.awkward.bitPattern)
  }

  /// Writes the `measures` table as Loop wrote it before doubles went in `ANY` columns, with a
  /// folded column the schema no longer declares.
  private func writeLegacyFile(at path: String) throws {
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try executeSQL(
      """
      PRAGMA journal_mode = WAL;
      CREATE TABLE loop_meta (
        table_name TEXT PRIMARY KEY, version INTEGER NOT NULL, columns TEXT NOT NULL
      ) STRICT;
      CREATE TABLE "measures" ("loop_seq" INTEGER PRIMARY KEY, "id" INTEGER NOT NULL UNIQUE,
        "value" REAL NOT NULL, "taken_at" REAL, "label" TEXT NOT NULL,
        "loop_folded_old" TEXT) STRICT;
      CREATE INDEX "loop_index_measures_value" ON "measures" ("value");
      CREATE UNIQUE INDEX "loop_unique_measures_label" ON "measures" ("label");
      INSERT INTO loop_meta VALUES ('measures', 1, 'id INTEGER, value REAL');
      INSERT INTO "measures" VALUES (5, 3, 2.5, 10.0, 'Äpfel', 'x');
      INSERT INTO "measures" VALUES (9, 1, 0.0, NULL, 'b', NULL);
      """, in: path)
  }

  private func columnTypes(at path: String, table: String) throws -> [String: String] {
    var types: [String: String] = [:]
    try withDatabase(at: path) { handle in
      var statement: OpaquePointer?
      guard
        sqlite3_prepare_v2(handle, "PRAGMA table_info(\(table))", -1, &statement, nil)
          == SQLITE_OK
      else { throw SQLiteFailure(message: String(cString: sqlite3_errmsg(handle))) }
      defer { sqlite3_finalize(statement) }
      while sqlite3_step(statement) == SQLITE_ROW {
        types[String(cString: sqlite3_column_text(statement, 1))] =
          String(cString: sqlite3_column_text(statement, 2))
      }
    }
    return types
  }

  private func withDatabase(at path: String, _ body: (OpaquePointer) throws -> Void) throws {
    var handle: OpaquePointer?
    guard sqlite3_open(path, &handle) == SQLITE_OK, let handle else {
      throw SQLiteFailure(message: "cannot open '\(path)'")
    }
    defer { sqlite3_close(handle) }
    try body(handle)
  }
}

private struct SQLiteFailure: Error {
  var message: String
}
