import Foundation
import Persistence
import TestSupport
import Testing

/// What only a file has: it may be no database, be damaged, or have a folder in its place.
/// (Reopening and migrating a stored database runs on every persistent backend:
/// `MigrationTests`.)
@Suite struct SQLiteFileTests {
  private func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

  private func write(_ notes: [NoteV1], to path: String) throws {
    let context = ModelContext(try ModelContainer(for: NoteV1.self, storage: .file(path)))
    for note in notes { try context.insert(note) }
  }

  @Test func aFileThatIsNotADatabaseIsReportedAndLeftAlone() throws {
    let folder = TemporaryFolder()
    let path = folder.path("notes.txt")
    try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
    let text = Data(String(repeating: "not a database\n", count: 200).utf8)
    try text.write(to: URL(fileURLWithPath: path))
    #expect(throws: PersistenceError.notADatabase(path: path)) {
      try ModelContainer(for: NoteV1.self, storage: .file(path))
    }
    #expect(bytes(path) == text)
  }

  @Test func aDamagedDatabaseIsReportedAndLeftAlone() throws {
    let folder = TemporaryFolder()
    let path = folder.path("store.sqlite")
    try write([NoteV1(id: 1, text: "one")], to: path)
    var damaged = try #require(bytes(path))
    // Keep the 100-byte header, garble the rest of page 1 (the schema).
    for offset in 100..<min(4_096, damaged.count) { damaged[offset] = 0xA5 }
    try damaged.write(to: URL(fileURLWithPath: path))
    #expect(
      throws: PersistenceError.corruptDatabase(
        path: path, reason: "database disk image is malformed")
    ) {
      try ModelContainer(for: NoteV1.self, storage: .file(path))
    }
    #expect(bytes(path) == damaged)
  }

  @Test func integrityCheckReportsDamagedPages() throws {
    let folder = TemporaryFolder()
    let path = folder.path("store.sqlite")
    try write((1...500).map { NoteV1(id: $0, text: String(repeating: "x", count: 100)) }, to: path)
    var damaged = try #require(bytes(path))
    let page = damaged.count - 8_192
    for offset in page..<(page + 4_096) { damaged[offset] = 0x5A }
    try damaged.write(to: URL(fileURLWithPath: path))
    let container = try ModelContainer(for: NoteV1.self, storage: .file(path))
    #expect {
      try container.checkIntegrity()
    } throws: { error in
      guard case .corruptDatabase(let reported, _) = error as? PersistenceError else {
        return false
      }
      return reported == path
    }
  }

  @Test func aFolderInTheWayCannotBeOpened() throws {
    let folder = TemporaryFolder()
    try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
    #expect(throws: PersistenceError.cannotOpen(path: folder.url.path, reason: "it is a folder")) {
      try ModelContainer(for: NoteV1.self, storage: .file(folder.url.path))
    }
  }
}
