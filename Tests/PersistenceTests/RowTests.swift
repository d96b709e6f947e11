import Foundation
import Loop
import Persistence
import TestSupport
import Testing

/// A model whose `init(row:)` reads a property its schema does not declare.
private struct Stray: PersistentModel, Equatable {
  var id: Int
  var title: String
  var extra = 0

  static let schema = Schema<Stray>(
    table: "strays", columns: [Column(\.id, "id"), Column(\.title, "title")])

  init(id: Int, title: String) {
    self.id = id
    self.title = title
  }

  init(row: Row<Stray>) throws {
    id = try row[\.id]
    title = try row[\.title]
    extra = try row[\.extra]
  }
}

@Suite struct RowTests {
  @Test(arguments: Backend.allCases)
  func readingAPropertyTheSchemaDoesNotDeclareIsADecodingFailureNamingIt(_ backend: Backend)
    throws
  {
    let store = try Store(backend, Stray.self)
    // Twice: the second read finds the declared columns by the identity it learned.
    for _ in 1...2 {
      let error = #expect(throws: PersistenceError.self) {
        try store.context.insert(Stray(id: 1, title: "a"))
        _ = try store.context.fetchAll(Stray.self)
      }
      guard case .decodingFailed(let model, let column, let reason)? = error else {
        Issue.record("expected decodingFailed, got \(String(describing: error))")
        return
      }
      #expect(model == "Stray")
      #expect(column.hasSuffix("extra"))
      #expect(reason == "the key path is not a column of the schema")
      _ = try? store.context.delete(Stray.self, id: 1)
    }
  }
}

/// A model whose `init(row:)` reads its owner's id, and its payload, as a `UUID?`.
private struct Owned: PersistentModel, Equatable {
  var id: Int
  var owner: ModelID<Stray>?
  var payload: Data?
  var payloadAsUUID: UUID?

  static let schema = Schema<Owned>(
    table: "owned",
    columns: [Column(\.id, "id"), Column(\.owner, "owner"), Column(\.payload, "payload")])

  init(id: Int, owner: ModelID<Stray>?, payload: Data? = nil) {
    self.id = id
    self.owner = owner
    self.payload = payload
  }

  init(row: Row<Owned>) throws {
    id = try row[\.id]
    owner = try row[\.owner, as: UUID?.self].map { ModelID(rawValue: $0) }
    payload = try row[\.payload]
    payloadAsUUID = try row[\.payload, as: UUID?.self]
  }
}

extension RowTests {
  @Test(arguments: Backend.allCases)
  func readingAnOptionalIDAsAUUIDGivesTheStoredUUIDOrNil(_ backend: Backend) throws {
    let store = try Store(backend, Owned.self)
    let owner = ModelID<Stray>(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!)
    try store.context.insert(Owned(id: 1, owner: owner))
    try store.context.insert(Owned(id: 2, owner: nil))
    let read = try store.context.fetchAll(Owned.self, sortBy: [SortDescriptor(\.id)])
    #expect(read.map(\.owner) == [owner, nil])
  }

  @Test(arguments: Backend.allCases)
  func readingABlobOfAnotherLengthAsAUUIDIsADecodingFailure(_ backend: Backend) throws {
    let store = try Store(backend, Owned.self)
    // NB: the in-memory backend reads the row back as it inserts it, SQLite as it fetches it.
    let error = #expect(throws: PersistenceError.self) {
      try store.context.insert(Owned(id: 1, owner: nil, payload: Data([1, 2, 3])))
      _ = try store.context.fetchAll(Owned.self)
    }
    guard case .decodingFailed(let model, let column, let reason)? = error else {
      Issue.record("expected decodingFailed, got \(String(describing: error))")
      return
    }
    #expect(model == "Owned")
    #expect(column == "payload")
    #expect(reason == "expected a UUID, found a blob of 3 bytes")
  }
}

/// A model whose `init(row:)` asks for its columns in another order on every other row.
private struct Shuffled: PersistentModel, Equatable {
  var id: Int
  var title: String
  var count: Int

  static let schema = Schema<Shuffled>(
    table: "shuffled",
    columns: [Column(\.id, "id"), Column(\.title, "title"), Column(\.count, "count")])

  init(id: Int, title: String, count: Int) {
    self.id = id
    self.title = title
    self.count = count
  }

  init(row: Row<Shuffled>) throws {
    count = try row[\.count]
    if count.isMultiple(of: 2) {
      id = try row[\.id]
      title = try row[\.title]
    } else {
      title = try row[\.title]
      id = try row[\.id]
    }
  }
}

extension RowTests {
  @Test(arguments: Backend.allCases)
  func columnsAskedForInAnotherOrderOnEachRowAreReadRight(_ backend: Backend) throws {
    let store = try Store(backend, Shuffled.self)
    let rows = (1...6).map { Shuffled(id: $0, title: "t\($0)", count: $0 * 7) }
    for row in rows { try store.context.insert(row) }
    #expect(try store.context.fetchAll(Shuffled.self, sortBy: [SortDescriptor(\.id)]) == rows)
  }
}

/// A model whose `init(row:)` reads its integer column as text.
private struct Misread: PersistentModel, Equatable {
  var id: Int
  var count: Int

  static let schema = Schema<Misread>(
    table: "misread", columns: [Column(\.id, "id"), Column(\.count, "count")])

  init(id: Int, count: Int) {
    self.id = id
    self.count = count
  }

  init(row: Row<Misread>) throws {
    id = try row[\.id]
    count = Int(try row[\.count, as: String.self]) ?? 0
  }
}

extension RowTests {
  @Test(arguments: Backend.allCases)
  func readingAnIntegerAsTextIsADecodingFailureNamingTheColumn(_ backend: Backend) throws {
    let store = try Store(backend, Misread.self)
    let error = #expect(throws: PersistenceError.self) {
      try store.context.insert(Misread(id: 1, count: 7))
      _ = try store.context.fetchAll(Misread.self)
    }
    guard case .decodingFailed(let model, let column, _)? = error else {
      Issue.record("expected decodingFailed, got \(String(describing: error))")
      return
    }
    #expect(model == "Misread")
    #expect(column == "count")
  }
}

/// A model with a flag and a date, which SQLite reads in place when they are stored as Loop
/// stores them.
private struct Flagged: PersistentModel, Equatable {
  var id: Int
  var isOn: Bool
  var at: Date

  static let schema = Schema<Flagged>(
    table: "flagged", columns: [Column(\.id, "id"), Column(\.isOn, "is_on"), Column(\.at, "at")])

  init(id: Int, isOn: Bool, at: Date) {
    self.id = id
    self.isOn = isOn
    self.at = at
  }

  init(row: Row<Flagged>) throws {
    id = try row[\.id]
    isOn = try row[\.isOn]
    at = try row[\.at]
  }
}

extension RowTests {
  @Test func aDateAnotherProgramStoredAsAnIntegerReadsAsThatManySeconds() throws {
    let folder = TemporaryFolder()
    let path = folder.url.appendingPathComponent("flagged.sqlite").path
    let context = ModelContext(try ModelContainer(for: Flagged.self, storage: .file(path)))
    try context.insert(Flagged(id: 1, isOn: true, at: Date(timeIntervalSinceReferenceDate: 0.5)))
    try context.insert(Flagged(id: 2, isOn: false, at: Date(timeIntervalSinceReferenceDate: 1)))
    try executeSQL(#"UPDATE "flagged" SET "at" = 7 WHERE "id" = 2"#, in: path)
    #expect(
      try context.fetchAll(Flagged.self, sortBy: [SortDescriptor(\.id)]) == [
        Flagged(id: 1, isOn: true, at: Date(timeIntervalSinceReferenceDate: 0.5)),
        Flagged(id: 2, isOn: false, at: Date(timeIntervalSinceReferenceDate: 7)),
      ])
  }

  @Test func aFlagAnotherProgramStoredAsNeither0Nor1IsADecodingFailureNamingTheColumn() throws {
    let folder = TemporaryFolder()
    let path = folder.url.appendingPathComponent("flagged.sqlite").path
    let context = ModelContext(try ModelContainer(for: Flagged.self, storage: .file(path)))
    try context.insert(Flagged(id: 1, isOn: true, at: Date(timeIntervalSinceReferenceDate: 0)))
    try executeSQL(#"UPDATE "flagged" SET "is_on" = 2"#, in: path)
    let error = #expect(throws: PersistenceError.self) {
      _ = try context.fetchAll(Flagged.self)
    }
    guard case .decodingFailed(let model, let column, let reason)? = error else {
      Issue.record("expected decodingFailed, got \(String(describing: error))")
      return
    }
    #expect(model == "Flagged")
    #expect(column == "is_on")
    #expect(reason == "expected a Bool, found the integer 2")
  }
}

extension RowTests {
  @Test(arguments: Backend.allCases)
  func aPageWhoseReadingThrowsOnARowThrowsThatRowsError(_ backend: Backend) throws {
    let store = try Store(backend, Shuffled.self)
    for id in 1...4 { try store.context.insert(Shuffled(id: id, title: "t\(id)", count: id)) }
    var page = FetchDescriptor<Shuffled>(sortBy: [SortDescriptor(\.id)])
    page.fetchLimit = 3
    #expect(throws: Refused(id: 2)) {
      _ = try store.context.fetch(page) { row in
        let id = try row[\.id]
        if id == 2 { throw Refused(id: id) }
        return id
      }
    }
    #expect(try store.context.fetch(page) { try $0[\.title] } == ["t1", "t2", "t3"])
  }
}

/// What a test's reading of a row throws.
private struct Refused: Error, Equatable {
  var id: Int
}
