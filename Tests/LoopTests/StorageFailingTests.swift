import Loop
import Testing

@Suite struct StorageFailingTests {
  @Test func aDomainErrorPassesThrough() {
    #expect(NoteError.captured(NoteError.missing) == .missing)
  }

  @Test func anyOtherErrorIsAStorageFailureWithItsDescription() {
    #expect(NoteError.captured(Broken()) == .storage("It broke."))
  }

  @Test func checkingCancellationInACancelledTaskThrowsAStorageFailure() async {
    let thrown = await Task { () -> NoteError? in
      withUnsafeCurrentTask { $0?.cancel() }
      do throws(NoteError) {
        try NoteError.checkCancellation()
        return nil
      } catch {
        return error
      }
    }.value
    #expect(thrown == .storage("the work was cancelled"))
  }

  @Test func resultCatchingCapturesWhatTheCallReturns() async {
    let result: Result<Int, NoteError> = await Result { () async throws -> Int in 1 }
    #expect(result == .success(1))
  }

  @Test func resultCatchingCapturesTheDomainsErrorAsItIs() async {
    let result: Result<Int, NoteError> = await Result { () async throws -> Int in
      throw NoteError.missing
    }
    #expect(result == .failure(.missing))
  }

  @Test func resultCatchingCapturesAnyOtherErrorAsAStorageFailure() async {
    let result: Result<Int, NoteError> = await Result { () async throws -> Int in
      throw Broken()
    }
    #expect(result == .failure(.storage("It broke.")))
  }

  @Test func resultCatchingWithoutADomainCapturesTheErrorAsItIs() async {
    let result: Result<Int, any Error> = await Result { () async throws -> Int in
      throw NoteError.missing
    }
    #expect(throws: NoteError.missing) { try result.get() }
  }
}

/// A domain's error.
private enum NoteError: StorageFailing, Equatable {
  case missing
  case storage(String)

  static func storageFailed(_ reason: String) -> NoteError { .storage(reason) }
}

/// An error that is neither the domain's nor its storage's.
private struct Broken: Error, CustomStringConvertible {
  var description: String { "It broke." }
}
