import Foundation
import LinkClient
import TestSupport
import Testing

import struct LinkClient.Comment

/// The contracts of ``LinkStorage`` itself, on the in-memory value's storage and on a context's:
/// a row is inserted (failing on an existing id) or updated (failing on a missing one), never
/// upserted, and a failed call changes nothing.
@Suite struct LinkStorageTests {
  let now = Harness.start

  func link(_ number: UInt64, _ title: String) throws -> Link {
    Link(
      id: id(number), title: title, url: try #require(URL(string: "https://example.com/\(number)")),
      createdAt: now)
  }

  /// Runs `body` on a fresh, empty storage of `kind`, keeping its harness (which owns the
  /// storage's files and PostgreSQL schema) alive until `body` returns.
  func withStorage(_ kind: ClientStorage, _ body: (any LinkStorage) throws -> Void) throws {
    let harness = try Harness(kind)
    try withExtendedLifetime(harness) { try body(harness.storage) }
  }

  @Test(arguments: ClientStorage.allCases)
  func updatingAMissingLinkFailsAndCreatesNothing(storage kind: ClientStorage) throws {
    try withStorage(kind) { storage throws in
      let ghost = try link(1, "Ghost")
      #expect(throws: LinkError.notFound(ghost.id)) { try storage.update(ghost) }
      #expect(try storage.fetchEveryLink() == [])
    }
  }

  @Test(arguments: ClientStorage.allCases)
  func insertingAnExistingLinkIDFailsAndKeepsTheStoredLink(storage kind: ClientStorage) throws {
    try withStorage(kind) { storage throws in
      let swift = try link(1, "Swift")
      try storage.insert(swift)
      // NB: the in-memory storage words it as Persistence does, so every storage reads alike.
      #expect(
        throws: LinkError.storageFailed(
          "Cannot insert Link with id '\(swift.id)': a Link with that id already exists.")
      ) { try storage.insert(try link(1, "Other")) }
      #expect(try storage.fetchEveryLink() == [swift])
    }
  }

  @Test(arguments: ClientStorage.allCases)
  func deletingAMissingLinkFails(storage kind: ClientStorage) throws {
    try withStorage(kind) { storage throws in
      let swift = try link(1, "Swift")
      try storage.insert(swift)
      #expect(throws: LinkError.notFound(id(2))) { try storage.deleteLink(id: id(2)) }
      #expect(try storage.fetchEveryLink() == [swift])
    }
  }

  @Test(arguments: ClientStorage.allCases)
  func updatingAMissingCommentFailsAndCreatesNothing(storage kind: ClientStorage) throws {
    try withStorage(kind) { storage throws in
      let swift = try link(1, "Swift")
      try storage.insert(swift)
      let ghost = Comment(id: id(2), linkID: swift.id, text: "Ghost", createdAt: now)
      #expect(throws: LinkError.commentNotFound(ghost.id)) { try storage.update(ghost) }
      #expect(throws: LinkError.commentNotFound(ghost.id)) {
        try storage.deleteComment(id: ghost.id)
      }
      #expect(try storage.fetchComments(on: swift.id) == [])
    }
  }

  @Test(arguments: ClientStorage.allCases)
  func updatingAMissingCategoryFailsAndCreatesNothing(storage kind: ClientStorage) throws {
    try withStorage(kind) { storage throws in
      let ghost = Category(id: id(1), name: "Ghost", createdAt: now)
      #expect(throws: LinkError.categoryNotFound(ghost.id)) { try storage.update(ghost) }
      #expect(throws: LinkError.categoryNotFound(ghost.id)) {
        try storage.deleteCategory(id: ghost.id)
      }
      #expect(try storage.fetchCategories() == [])
    }
  }

  @Test(arguments: ClientStorage.allCases)
  func categoryNamesAreUniqueIgnoringCase(storage kind: ClientStorage) throws {
    try withStorage(kind) { storage throws in
      let work = Category(id: id(1), name: "Work", createdAt: now)
      let reading = Category(id: id(2), name: "Reading", createdAt: now)
      try storage.insert(work)
      try storage.insert(reading)
      #expect(throws: LinkError.duplicateCategoryName("WORK")) {
        try storage.insert(Category(id: id(3), name: "WORK", createdAt: now))
      }
      #expect(throws: LinkError.duplicateCategoryName("work")) {
        try storage.update(Category(id: reading.id, name: "work", createdAt: now))
      }
      #expect(try storage.fetchCategories() == [reading, work])
    }
  }
}
