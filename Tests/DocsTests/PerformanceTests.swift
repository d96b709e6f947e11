import Foundation
import LoopTesting
import Testing

// The code of Sources/Loop/Loop.docc/Performance.md.

/// The playlist's rows with the explicit case path: the same routing as the one-line form.
struct Queue: Reducer {
  struct State: Equatable {
    var songs: IdentifiedArrayOf<Song.State> = []
  }

  enum Action: Equatable {
    case songs(IdentifiedActionOf<Song>)
  }

  var body: some ReducerOf<Self> {
    // snippet: explicit-case-path
    EmptyReducer()
      .forEach(
        \.songs,
        action: .case(Action.songs) { if case .songs(let action) = $0 { action } else { nil } }
      ) { Song() }
    // snippet: end
  }
}

@Suite struct PerformanceTests {
  @MainActor @Test func theExplicitCasePathRoutesAsTheOneLineFormDoes() async {
    let songs: IdentifiedArrayOf<Song.State> = [
      Song.State(id: 1, title: "Blue in Green"), Song.State(id: 2, title: "So What"),
    ]
    let store = TestStore(initialState: Queue.State(songs: songs)) { Queue() }
    await store.send(.songs(.element(id: 2, action: .starSubmitted))) {
      $0.songs[id: 2]?.isStarred = true
    }
  }
}
