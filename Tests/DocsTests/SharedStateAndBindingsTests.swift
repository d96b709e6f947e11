import Foundation
import LoopTesting
import Testing

// The shared state and bindings sections of Sources/Loop/Loop.docc/CompositionAndNavigation.md.

// snippet: volume-settings-feature
extension SharedKey where Self == InMemoryKey<Int>.Default {
  static var volumeLimit: Self { Self[.inMemory("volumeLimit"), default: 10] }
}

struct VolumeSettings: Reducer {
  struct State: Equatable {
    @Shared(.volumeLimit) var volumeLimit
  }

  enum Action: Equatable {
    case limitLowered
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.$volumeLimit.withLock { $0 = max(0, $0 - 1) }
    return .none
  }
}
// snippet: end

// snippet: library-feature
struct Track: Equatable, Identifiable {
  let id: Int
  var title: String
}

struct TrackEditor: Reducer {
  struct State: Equatable {
    @Shared var track: Track
  }

  enum Action: Equatable {
    case titleChanged(String)
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .titleChanged(let title):
      state.$track.withLock { $0.title = title }
      return .none
    }
  }
}

struct TrackList: Reducer {
  struct State: Equatable {
    @Shared(.inMemory("tracks")) var tracks: IdentifiedArrayOf<Track> = []
    @Presents var editor: TrackEditor.State?
  }

  enum Action: Equatable {
    case editor(PresentationAction<TrackEditor.Action>)
    case trackSelected(Track.ID)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .editor:
        return .none
      case .trackSelected(let id):
        guard let track = Shared(state.$tracks[id: id]) else { return .none }
        state.editor = TrackEditor.State(track: track)
        return .none
      }
    }
    .ifLet(\.$editor, action: .case(Action.editor)) { TrackEditor() }
  }
}
// snippet: end

// snippet: profile-feature
struct Profile: Reducer {
  struct State: Equatable {
    var name = ""
    var isSubscribed = false
    var message: String?
  }

  enum Action: Equatable, BindableAction {
    case binding(BindingAction<State>)
  }

  var body: some ReducerOf<Self> {
    BindingReducer()
    Reduce { state, action in
      switch action {
      case .binding(\.name):
        state.message = state.name.isEmpty ? "A name is required." : nil
        return .none
      case .binding:
        return .none
      }
    }
  }
}
// snippet: end

@MainActor
@Suite struct SharedStateAndBindingsTests {
  @Test func aSharedSettingIsAssertedAndSeenByTheTest() async {
    let issues = IssueCollector()
    await withIssueReporter(issues) {
      // snippet: volume-settings-test
      let store = TestStore(initialState: VolumeSettings.State()) { VolumeSettings() }
      await store.send(.limitLowered) { $0.$volumeLimit.withLock { $0 = 9 } }
      @Shared(.volumeLimit) var volumeLimit
      #expect(volumeLimit == 9)
      // snippet: end
    }
    #expect(issues.messages.isEmpty)
  }

  @Test func aChildChangesTheElementItWasHanded() async {
    let issues = IssueCollector()
    await withIssueReporter(issues) {
      // snippet: library-test
      let intro = Track(id: 1, title: "Intro")
      @Shared(.inMemory("tracks")) var tracks: IdentifiedArrayOf<Track> = [intro]
      let store = TestStore(initialState: TrackList.State()) { TrackList() }
      await store.send(.trackSelected(1)) {
        $0.editor = TrackEditor.State(track: Shared(value: intro))
      }
      await store.send(.editor(.presented(.titleChanged("Overture")))) {
        $0.$tracks.withLock { $0[id: 1]?.title = "Overture" }
      }
      #expect(tracks[id: 1]?.title == "Overture")
      // snippet: end
    }
    #expect(issues.messages.isEmpty)
  }

  @Test func aFormSetsItsFieldsWithBindings() async {
    let issues = IssueCollector()
    await withIssueReporter(issues) {
      // snippet: profile-test
      let store = TestStore(initialState: Profile.State()) { Profile() }
      await store.send(.binding(.set(\.name, "Blob"))) { $0.name = "Blob" }
      await store.send(.binding(.set(\.isSubscribed, true))) { $0.isSubscribed = true }
      await store.send(.set(\.name, "")) {
        $0.name = ""
        $0.message = "A name is required."
      }
      // snippet: end
    }
    #expect(issues.messages.isEmpty)
  }
}
