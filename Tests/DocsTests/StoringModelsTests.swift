import Foundation
import Persistence
import Testing

// The code of Sources/Persistence/Persistence.docc/StoringModels.md.

// snippet: book-model
struct Book: PersistentModel, Equatable {
  enum Format: String, Codable { case ebook, paper }

  var id: Int
  var title: String
  var author: String
  var format: Format
  var pages: Int
  var finishedOn: Date?

  static let schema = Schema<Book>(
    table: "books",
    version: 2,
    columns: [
      Column(\.id, "id"),
      Column(\.title, "title", options: .searchable),
      Column(\.author, "author"),
      Column(\.format, "format", default: .paper),  // added in version 2
      Column(\.pages, "pages"),
      Column(\.finishedOn, "finished_on"),
    ],
    indexes: [Index(\.author), Index(\.finishedOn)]
  )
}

extension Book.Format: ColumnValue {}

extension Book {
  init(row: Row<Book>) throws {
    id = try row[\.id]
    title = try row[\.title]
    author = try row[\.author]
    format = try row[\.format]
    pages = try row[\.pages]
    finishedOn = try row[\.finishedOn]
  }
}
// snippet: end

// snippet: book-model-version-1
/// The books table as version 1 of the app declared it: no format yet.
struct BookV1: PersistentModel, Equatable {
  var id: Int
  var title: String
  var author: String
  var pages: Int
  var finishedOn: Date?

  static let schema = Schema<BookV1>(
    table: "books",
    columns: [
      Column(\.id, "id"),
      Column(\.title, "title", options: .searchable),
      Column(\.author, "author"),
      Column(\.pages, "pages"),
      Column(\.finishedOn, "finished_on"),
    ],
    indexes: [Index(\.author), Index(\.finishedOn)]
  )
}
// snippet: end

extension BookV1 {
  init(row: Row<BookV1>) throws {
    id = try row[\.id]
    title = try row[\.title]
    author = try row[\.author]
    pages = try row[\.pages]
    finishedOn = try row[\.finishedOn]
  }
}

// snippet: book-client
/// The books the app keeps: a client over a context (see the Dependencies article).
struct BookClient: Sendable {
  var add: @Sendable (_ book: Book) async throws -> Void
  var unfinished: @Sendable () async throws -> [Book]
}

extension BookClient {
  static func live(context: ModelContext) -> BookClient {
    BookClient(
      add: { book in try context.insert(book) },
      unfinished: {
        try context.fetchAll(
          Book.self, predicate: #Predicate { $0.finishedOn == nil },
          sortBy: [SortDescriptor(\.title)])
      })
  }
}
// snippet: end

/// A folder for one test's database files, removed when released.
final class ScratchFolder {
  let url = FileManager.default.temporaryDirectory
    .appendingPathComponent("loop-docs-tests-\(UUID().uuidString)")

  var path: String { url.appendingPathComponent("library.sqlite").path }

  deinit { try? FileManager.default.removeItem(at: url) }
}

let earthsea = Book(
  id: 1, title: "A Wizard of Earthsea", author: "Ursula K. Le Guin", format: .paper, pages: 183,
  finishedOn: Date(timeIntervalSince1970: 0))
let dispossessed = Book(
  id: 2, title: "The Dispossessed", author: "Ursula K. Le Guin", format: .ebook, pages: 387,
  finishedOn: nil)
let piranesi = Book(
  id: 3, title: "Piranesi", author: "Susanna Clarke", format: .paper, pages: 272, finishedOn: nil)

/// The two storages every fetch is checked on.
enum StorageKind: CaseIterable {
  case inMemory, sqliteFile
}

/// A context holding the three books, on a storage of `kind`; it removes its file when released.
final class Bookcase {
  let folder = ScratchFolder()
  let context: ModelContext

  init(_ kind: StorageKind) throws {
    let storage: ModelContainer.Storage = kind == .inMemory ? .inMemory : .file(folder.path)
    context = ModelContext(try ModelContainer(for: Book.self, storage: storage))
    for book in [earthsea, dispossessed, piranesi] { try context.insert(book) }
  }
}

@Suite struct StoringModelsTests {
  @Test func aContainerOpensAFileOrMemory() throws {
    let folder = ScratchFolder()
    let path = folder.path
    // snippet: open-container
    let container = try ModelContainer(for: Book.self, storage: .file(path))
    let context = ModelContext(container)
    try context.insert(earthsea)

    let inMemory = ModelContext(try ModelContainer(for: Book.self, storage: .inMemory))
    // snippet: end
    #expect(try context.fetchAll(Book.self) == [earthsea])
    #expect(try inMemory.fetchAll(Book.self) == [])
  }

  @Test func insertRefusesAnIdThatIsStoredAndUpdateOneThatIsNot() throws {
    let context = ModelContext(try ModelContainer(for: Book.self, storage: .inMemory))
    // snippet: insert-update-contract
    try context.insert(piranesi)
    #expect(throws: PersistenceError.duplicateID(model: "Book", id: "3")) {
      try context.insert(piranesi)
    }

    var finished = piranesi
    finished.finishedOn = Date(timeIntervalSince1970: 86_400)
    try context.update(finished)
    #expect(throws: PersistenceError.notFound(model: "Book", id: "1")) {
      try context.update(earthsea)
    }
    // snippet: end
    #expect(try context.fetchAll(Book.self) == [finished])
  }

  @Test(arguments: StorageKind.allCases)
  func fetchesAnswerTheSameOnBothStorages(_ kind: StorageKind) throws {
    let bookcase = try Bookcase(kind)
    let context = bookcase.context
    // snippet: fetches
    let author = "Ursula K. Le Guin"
    let byAuthor = try context.fetchAll(
      Book.self, predicate: #Predicate { $0.author == author && $0.pages > 200 })
    #expect(byAuthor.map(\.title) == ["The Dispossessed"])

    var unfinished = FetchDescriptor<Book>(
      predicate: #Predicate { $0.finishedOn == nil }, sortBy: [SortDescriptor(\.title)])
    unfinished.fetchLimit = 1
    #expect(try context.fetch(unfinished).map(\.title) == ["Piranesi"])
    #expect(try context.fetchCount(FetchDescriptor<Book>()) == 3)
    #expect(try context.fetch(Book.self, id: 2) == dispossessed)
    // snippet: end
  }

  @Test(arguments: StorageKind.allCases)
  func searchesAndSwiftOnlyPredicatesAnswerTheSame(_ kind: StorageKind) throws {
    let bookcase = try Bookcase(kind)
    let context = bookcase.context
    // snippet: predicates-sql-and-swift
    let query = "WIZARD".caseFolded
    let found = try context.fetchAll(
      Book.self, predicate: #Predicate { $0.title.caseFolded.contains(query) })
    #expect(found == [earthsea])

    let shortTitles = try context.fetchAll(
      Book.self, predicate: #Predicate { $0.title.count < 10 })
    #expect(shortTitles == [piranesi])
    // snippet: end
  }

  @Test func aTransactionSavesEverythingOrNothing() throws {
    let bookcase = try Bookcase(.sqliteFile)
    let context = bookcase.context
    struct ShelfFull: Error {}
    // snippet: transaction
    #expect(throws: ShelfFull.self) {
      try context.transaction { context in
        try context.delete(Book.self, where: #Predicate { $0.finishedOn != nil })
        try context.insert(
          Book(
            id: 4, title: "Circe", author: "Madeline Miller", format: .ebook, pages: 393,
            finishedOn: nil))
        throw ShelfFull()
      }
    }
    #expect(try context.fetchCount(FetchDescriptor<Book>()) == 3)  // nothing was saved
    // snippet: end
  }

  @Test func anOlderFileGainsTheNewColumnWithItsDefault() throws {
    let folder = ScratchFolder()
    let path = folder.path
    // snippet: migration
    let old = ModelContext(try ModelContainer(for: BookV1.self, storage: .file(path)))
    try old.insert(
      BookV1(id: 5, title: "Kindred", author: "Octavia E. Butler", pages: 264, finishedOn: nil))

    let new = ModelContext(try ModelContainer(for: Book.self, storage: .file(path)))
    #expect(try new.fetch(Book.self, id: 5)?.format == .paper)
    // snippet: end
  }

  @Test func aFileWrittenByANewerVersionIsRefused() throws {
    let bookcase = try Bookcase(.sqliteFile)
    let path = bookcase.folder.path
    // snippet: newer-file-refused
    #expect(
      throws: PersistenceError.incompatibleSchema(
        table: "books", column: nil,
        reason: "the file has schema version 2, newer than version 1 of BookV1")
    ) {
      try ModelContainer(for: BookV1.self, storage: .file(path))
    }
    // snippet: end
  }

  @Test func aLiveClientRunsOnAnInMemoryContainerInTests() async throws {
    // snippet: book-client-in-memory
    let client = BookClient.live(
      context: ModelContext(try ModelContainer(for: Book.self, storage: .inMemory)))
    try await client.add(piranesi)
    #expect(try await client.unfinished() == [piranesi])
    // snippet: end
  }
}
