import Loop
import Persistence
import Testing

@Suite struct StorageFailingTests {
  @Test func aDomainErrorPassesThrough() {
    #expect(NoteError.captured(NoteError.duplicate, notFound: .missing) == .duplicate)
  }

  @Test func aPersistenceErrorWithADomainErrorBecomesIt() {
    let duplicate = PersistenceError.duplicateID(model: "Note", id: "1")
    let missing = PersistenceError.notFound(model: "Note", id: "1")
    let clash = PersistenceError.uniqueViolation(model: "Note", columns: ["name"], id: "1")
    #expect(NoteError.captured(duplicate, duplicateID: .duplicate) == .duplicate)
    #expect(NoteError.captured(missing, notFound: .missing) == .missing)
    #expect(NoteError.captured(clash, uniqueViolation: .duplicate) == .duplicate)
  }

  @Test func anyOtherErrorIsAStorageFailureWithItsDescription() {
    let missing = PersistenceError.notFound(model: "Note", id: "1")
    #expect(NoteError.captured(missing, duplicateID: .duplicate) == .storage(missing.description))
    #expect(NoteError.captured(Broken(), duplicateID: .duplicate) == .storage("It broke."))
  }

  @Test func capturingThrowsTheDomainErrorAndReturnsWhatTheWorkReturns() throws {
    #expect(try NoteError.capturing { 1 } == 1)
    #expect(throws: NoteError.missing) {
      try NoteError.capturing(notFound: .missing) {
        throw PersistenceError.notFound(model: "Note", id: "1")
      }
    }
  }

  @Test func resultCatchingCapturesAPersistenceErrorAsAStorageFailureWithItsDescription() async {
    let result: Result<Int, NoteError> = await Result { () async throws -> Int in
      throw PersistenceError.notFound(model: "Note", id: "1")
    }
    #expect(result == .failure(.storage("No Note with id '1' exists.")))
  }
}

/// A domain's error.
private enum NoteError: StorageFailing, Equatable {
  case duplicate
  case missing
  case storage(String)

  static func storageFailed(_ reason: String) -> NoteError { .storage(reason) }
}

/// An error that is neither the domain's nor the storage's.
private struct Broken: Error, CustomStringConvertible {
  var description: String { "It broke." }
}
