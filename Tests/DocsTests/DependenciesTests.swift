import Foundation
import LoopTesting
import Synchronization
import Testing

// The code of Sources/Loop/Loop.docc/Dependencies.md.

// snippet: notes-client
/// Keeps the user's notes.
struct NotesClient: Sendable {
  var all: nonisolated(nonsending) @Sendable () async throws -> [Note]
  var delete: nonisolated(nonsending) @Sendable (_ id: Note.ID) async throws -> Void
  var save: nonisolated(nonsending) @Sendable (_ note: Note) async throws -> Void
}

struct Note: Equatable, Identifiable, Sendable {
  var id: UUID
  var text: String
  var createdAt: Date
}
// snippet: end

// snippet: notes-client-in-memory
extension NotesClient {
  /// Notes kept in memory: for previews, and for tests that want a working client.
  static func inMemory(_ notes: [Note] = []) -> NotesClient {
    let storage = Mutex(notes)
    return NotesClient(
      all: { storage.withLock { $0 } },
      delete: { id in storage.withLock { $0.removeAll { $0.id == id } } },
      save: { note in
        storage.withLock { notes in
          notes.removeAll { $0.id == note.id }
          notes.append(note)
        }
      })
  }
}
// snippet: end

// snippet: notes-client-key
extension NotesClient: DependencyKey {
  static let liveValue = NotesClient.inMemory()

  static let testValue = NotesClient(
    all: unimplemented("NotesClient.all"),
    delete: unimplemented("NotesClient.delete"),
    save: unimplemented("NotesClient.save"))

  static let previewValue = NotesClient.inMemory([
    Note(id: UUID(counting: 1), text: "Try Loop", createdAt: Date(timeIntervalSince1970: 0))
  ])
}

extension DependencyValues {
  var notes: NotesClient {
    get { self[NotesClient.self] }
    set { self[NotesClient.self] = newValue }
  }
}
// snippet: end

// snippet: note-list-feature
struct NoteList: Reducer {
  struct State: Equatable {
    var notes: [Note] = []
  }

  enum Action: Equatable {
    case addSubmitted(String)
    case notesResponse([Note])
    case onAppear
  }

  @Dependency(\.date) var date
  @Dependency(\.notes) var notesClient
  @Dependency(\.uuid) var uuid

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .addSubmitted(let text):
      let note = Note(id: uuid(), text: text, createdAt: date.now)
      state.notes.append(note)
      return .run { _ in try await notesClient.save(note) }
    case .notesResponse(let notes):
      state.notes = notes
      return .none
    case .onAppear:
      return .run { send in await send(.notesResponse(try await notesClient.all())) }
    }
  }
}
// snippet: end

// snippet: clipboard-client
/// The system clipboard.
struct Clipboard: Sendable {
  var copy: @Sendable (_ text: String) async -> Void
  var paste: @Sendable () async -> String?
}

extension Clipboard: TestPlaceholder {
  static func placeholder(dependency: String) -> Clipboard {
    Clipboard(
      copy: unimplemented("\(dependency).copy", placeholder: ()),
      paste: unimplemented("\(dependency).paste", placeholder: nil))
  }
}

extension Clipboard: DependencyKey {
  static let liveValue = Clipboard(copy: { _ in }, paste: { nil })
}

extension DependencyValues {
  var clipboard: Clipboard {
    get { self[Clipboard.self] }
    set { self[Clipboard.self] = newValue }
  }
}
// snippet: end

@Suite struct DependenciesTests {
  // snippet: note-list-test
  @MainActor @Test func addingANoteSavesIt() async {
    let store = TestStore(initialState: NoteList.State()) {
      NoteList()
    } withDependencies: {
      $0.date = .constant(Date(timeIntervalSince1970: 0))
      $0.notes = .inMemory()
      $0.uuid = .incrementing
    }
    let note = Note(
      id: UUID(counting: 0), text: "Buy milk", createdAt: Date(timeIntervalSince1970: 0))

    await store.send(.addSubmitted("Buy milk")) { $0.notes = [note] }
    await store.send(.onAppear)
    await store.receive(.notesResponse([note]))
    await store.finish()
  }
  // snippet: end

  @MainActor @Test func aForgottenOverrideFailsTheTestNamingTheEndpoint() async {
    let issues = await reportedIssues {
      // snippet: note-list-forgotten-override
      let store = TestStore(initialState: NoteList.State()) { NoteList() }
      await store.send(.onAppear)
      // snippet: end
      await store.finish()
    }
    let unimplemented =
      // snippet: notes-client-unimplemented
      """
      Unimplemented: 'NotesClient.all' was called.

      To fix, override this endpoint in the test's dependencies, e.g. 'withDependencies: { $0.… = … }', with the behaviour the test expects.
      """
    // snippet: end
    #expect(issues.messages.first == unimplemented)
    // NB: the endpoint threw, and the effect had no `catch`: that is reported too.
    #expect(issues.messages.count == 2)
    #expect(
      issues.messages.last?.hasPrefix(
        "An 'Effect.run' returned from 'DocsTests/DependenciesTests.swift:") == true)
    #expect(issues.messages.last?.contains("threw an unhandled error") == true)
  }

  @MainActor @Test func aPlaceholderReportsTheDependencyItStandsFor() async {
    let issues = IssueCollector()
    let pasted = await withIssueReporter(issues) {
      await withDependencies {
        $0.context = .test
      } operation: {
        // snippet: clipboard-placeholder
        @Dependency(\.clipboard) var clipboard
        let pasted = await clipboard.paste()  // reports, and returns nil
        // snippet: end
        return pasted
      }
    }
    #expect(pasted == nil)
    #expect(
      issues.messages == [
        """
        Unimplemented: 'Clipboard.paste' was called.

        To fix, override this endpoint in the test's dependencies, e.g. 'withDependencies: { $0.… = … }', with the behaviour the test expects.
        """
      ])
  }

  @MainActor @Test func aPreviewGetsThePreviewValues() async {
    // snippet: note-list-preview
    let store = withDependencies {
      $0.context = .preview
    } operation: {
      Store(initialState: NoteList.State()) { NoteList() }
    }
    await store.send(.onAppear).finish()
    // store.state.notes holds the preview's sample note
    // snippet: end
    #expect(store.state.notes.map(\.text) == ["Try Loop"])
  }

  @MainActor @Test func aReducerCanChangeADependencyForItself() async {
    // snippet: note-list-dependency-modifier
    let store = TestStore(initialState: NoteList.State()) {
      NoteList()
        .dependency(\.uuid, .constant(UUID(counting: 7)))
    } withDependencies: {
      $0.date = .constant(Date(timeIntervalSince1970: 0))
      $0.notes.save = { _ in }
    }
    await store.send(.addSubmitted("Call Ada")) {
      $0.notes = [
        Note(id: UUID(counting: 7), text: "Call Ada", createdAt: Date(timeIntervalSince1970: 0))
      ]
    }
    await store.finish()
    // snippet: end
  }

  @MainActor @Test func escapedDependenciesFollowACallback() async {
    let seen = await withDependencies {
      $0.date = .constant(Date(timeIntervalSince1970: 60))
    } operation: {
      await withCheckedContinuation { continuation in
        // snippet: escaped-dependencies
        withEscapedDependencies { dependencies in
          DispatchQueue.global().async {
            dependencies.yield {
              @Dependency(\.date) var date
              continuation.resume(returning: date.now)  // the test's date, not the system's
            }
          }
        }
        // snippet: end
      }
    }
    #expect(seen == Date(timeIntervalSince1970: 60))
  }
}
