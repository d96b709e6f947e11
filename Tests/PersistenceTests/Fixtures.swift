import Foundation
import Persistence
import TestSupport
import Testing

/// A container and a context on a fresh storage, removing its folder when released.
final class Store {
  let container: ModelContainer
  let context: ModelContext
  let folder: URL

  init(_ backend: Backend, _ types: any PersistentModel.Type...) throws {
    folder = temporaryFolder("loop-persistence-tests")
    container = try ModelContainer(
      for: types.isEmpty ? [Item.self] : types,
      storage: backend.storage(file: "store.sqlite", in: folder))
    context = ModelContext(container)
  }

  deinit {
    Backend.removeStorage(in: folder)
  }
}

/// A fresh folder for file tests, removed when released.
final class TemporaryFolder {
  let url: URL

  /// A folder under the temporary directory, or under `/dev/shm` (memory) when
  /// `preferringMemory` and the machine has it: for files written often whose durability is not
  /// what a test checks (each commit syncs the file).
  init(preferringMemory: Bool = false) {
    var isFolder: ObjCBool = false
    let memory = URL(fileURLWithPath: "/dev/shm")
    let base =
      preferringMemory
        && FileManager.default.fileExists(atPath: memory.path, isDirectory: &isFolder)
        && isFolder.boolValue ? memory : FileManager.default.temporaryDirectory
    url = base.appendingPathComponent("loop-persistence-tests-\(UUID().uuidString)")
  }

  func path(_ name: String) -> String { url.appendingPathComponent(name).path }

  deinit {
    try? FileManager.default.removeItem(at: url)
  }
}

enum Kind: String, Codable, Sendable, CaseIterable {
  case article
  case video
  case note
}

extension Kind: ColumnValue {}

/// A model with a column of every supported type.
struct Item: PersistentModel, Equatable {
  var id: Int
  var title: String
  var note: String? = nil
  var count: Int = 0
  var score: Double = 0
  var isDone: Bool = false
  var flag: Bool? = nil
  var date: Date = Date(timeIntervalSinceReferenceDate: 0)
  var dueDate: Date? = nil
  var kind: Kind = .article
  var uuid: UUID = UUID(uuidString: "00000000-0000-0000-0000-000000000000") ?? UUID()
  var link: URL? = nil
  var data: Data = Data()
  var big: Int64 = 0

  static let schema = Schema<Item>(
    table: "items",
    columns: [
      Column(\.id, "id"),
      Column(\.title, "title", options: .searchable),
      Column(\.note, "note", options: .searchable),
      Column(\.count, "count"),
      Column(\.score, "score"),
      Column(\.isDone, "is_done"),
      Column(\.flag, "flag"),
      Column(\.date, "date"),
      Column(\.dueDate, "due_date"),
      Column(\.kind, "kind"),
      Column(\.uuid, "uuid"),
      Column(\.link, "link"),
      Column(\.data, "data"),
      Column(\.big, "big"),
    ],
    indexes: [Index(\.date), Index(\.title.caseFolded)]
  )
}

extension Item {
  init(row: Row<Item>) throws {
    id = try row[\.id]
    title = try row[\.title]
    note = try row[\.note]
    count = try row[\.count]
    score = try row[\.score]
    isDone = try row[\.isDone]
    flag = try row[\.flag]
    date = try row[\.date]
    dueDate = try row[\.dueDate]
    kind = try row[\.kind]
    uuid = try row[\.uuid]
    link = try row[\.link]
    data = try row[\.data]
    big = try row[\.big]
  }
}

/// The model of the `PersistentModel` documentation: a UUID id and a unique URL.
struct Link: PersistentModel, Equatable {
  var id: UUID
  var title: String
  var url: URL
  var lastViewedDate: Date?

  static let schema = Schema<Link>(
    table: "links",
    columns: [
      Column(\.id, "id"),
      Column(\.title, "title"),
      Column(\.url, "url"),
      Column(\.lastViewedDate, "last_viewed_date"),
    ],
    indexes: [Index(\.lastViewedDate), Index(\.url, unique: true)]
  )
}

extension Link {
  init(row: Row<Link>) throws {
    id = try row[\.id]
    title = try row[\.title]
    url = try row[\.url]
    lastViewedDate = try row[\.lastViewedDate]
  }
}

/// A model with a String id.
struct Tag: PersistentModel, Equatable {
  var id: String
  var color: String

  static let schema = Schema<Tag>(
    table: "tags", columns: [Column(\.id, "name"), Column(\.color, "color")])
}

extension Tag {
  init(row: Row<Tag>) throws {
    id = try row[\.id]
    color = try row[\.color]
  }
}

func date(_ seconds: Double) -> Date { Date(timeIntervalSinceReferenceDate: seconds) }
