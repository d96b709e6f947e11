import Foundation
import LoopTesting
import Testing

// The code of Sources/Loop/Loop.docc/CompositionAndNavigation.md.

// snippet: volume-feature
struct Volume: Reducer {
  struct State: Equatable {
    var level = 5
  }

  enum Action: Equatable {
    case downTapped
    case upTapped
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .downTapped: state.level = max(0, state.level - 1)
    case .upTapped: state.level = min(10, state.level + 1)
    }
    return .none
  }
}
// snippet: end

// snippet: player-feature
struct Player: Reducer {
  struct State: Equatable {
    var isMuted = false
    var volume = Volume.State()
  }

  enum Action: Equatable {
    case muteTapped
    case volume(Volume.Action)
  }

  var body: some ReducerOf<Self> {
    Scope(state: \.volume, action: .case(Action.volume)) { Volume() }
    Reduce { state, action in
      switch action {
      case .muteTapped:
        state.isMuted.toggle()
      case .volume:
        state.isMuted = false
      }
      return .none
    }
  }
}
// snippet: end

// snippet: song-feature
struct Song: Reducer {
  struct State: Equatable, Identifiable {
    let id: Int
    var title: String
    var isStarred = false
  }

  enum Action: Equatable {
    case starTapped
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.isStarred.toggle()
    return .none
  }
}
// snippet: end

// snippet: title-editor-feature
/// Edits a title, and closes itself when the edit is saved or cancelled.
struct TitleEditor: Reducer {
  struct State: Equatable {
    var title: String
  }

  enum Action: Equatable {
    case cancelTapped
    case delegate(Delegate)
    case saveTapped
    case titleChanged(String)

    enum Delegate: Equatable {
      case saved(String)
    }
  }

  @Dependency(\.dismiss) var dismiss

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .cancelTapped:
      return .run { _ in await dismiss() }
    case .delegate:
      return .none
    case .saveTapped:
      let title = state.title
      return .run { send in
        await send(.delegate(.saved(title)))
        await dismiss()
      }
    case .titleChanged(let title):
      state.title = title
      return .none
    }
  }
}
// snippet: end

// snippet: playlist-feature
struct Playlist: Reducer {
  struct State: Equatable {
    var name = "Mix"
    var songs: IdentifiedArrayOf<Song.State> = []
    var starred = 0
    @Presents var editor: TitleEditor.State? = nil
  }

  enum Action: Equatable {
    case editor(PresentationAction<TitleEditor.Action>)
    case removeTapped(Song.State.ID)
    case renameTapped
    case songs(IdentifiedActionOf<Song>)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .editor(.presented(.delegate(.saved(let name)))):
        state.name = name
        return .none
      case .editor:
        return .none
      case .removeTapped(let id):
        state.songs.remove(id: id)
        return .none
      case .renameTapped:
        state.editor = TitleEditor.State(title: state.name)
        return .none
      case .songs:
        return .none
      }
    }
    .forEach(\.songs, action: .case(Action.songs)) { Song() }
    .ifLet(\.$editor, action: .case(Action.editor)) { TitleEditor() }
    .onChange(of: \.songs) { _, songs in
      Reduce { state, _ in
        state.starred = songs.filter(\.isStarred).count
        return .none
      }
    }
  }
}
// snippet: end

// snippet: library-destination
struct Library: Reducer {
  struct State: Equatable {
    var playlists: [String] = []
    @Presents var destination: Destination.State? = nil
  }

  enum Action: Equatable {
    case clearTapped
    case destination(PresentationAction<Destination.Action>)
    case newTapped
  }

  struct Destination: Reducer {
    enum State: Equatable {
      case confirmClear(Confirmation.State)
      case newPlaylist(TitleEditor.State)
    }

    enum Action: Equatable {
      case confirmClear(Confirmation.Action)
      case newPlaylist(TitleEditor.Action)
    }

    var body: some ReducerOf<Self> {
      Scope(state: .case(State.confirmClear), action: .case(Action.confirmClear)) {
        Confirmation()
      }
      Scope(state: .case(State.newPlaylist), action: .case(Action.newPlaylist)) {
        TitleEditor()
      }
    }
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .clearTapped:
        state.destination = .confirmClear(Confirmation.State())
        return .none
      case .destination(.presented(.confirmClear(.delegate(.confirmed)))):
        state.playlists = []
        return .none
      case .destination(.presented(.newPlaylist(.delegate(.saved(let name))))):
        state.playlists.append(name)
        return .none
      case .destination:
        return .none
      case .newTapped:
        state.destination = .newPlaylist(TitleEditor.State(title: ""))
        return .none
      }
    }
    .ifLet(\.$destination, action: .case(Action.destination)) { Destination() }
  }
}
// snippet: end

/// Asks before something is done; answers its parent with a delegate action.
struct Confirmation: Reducer {
  struct State: Equatable {}

  enum Action: Equatable {
    case cancelTapped
    case confirmTapped
    case delegate(Delegate)

    enum Delegate: Equatable { case confirmed }
  }

  @Dependency(\.dismiss) var dismiss

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .cancelTapped:
      return .run { _ in await dismiss() }
    case .confirmTapped:
      return .run { send in
        await send(.delegate(.confirmed))
        await dismiss()
      }
    case .delegate:
      return .none
    }
  }
}

// snippet: session-feature
struct Session: Reducer {
  enum State: Equatable {
    case signedIn(Playlist.State)
    case signedOut
  }

  enum Action: Equatable {
    case playlist(Playlist.Action)
    case signInTapped
    case signOutTapped
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .playlist:
        return .none
      case .signInTapped:
        state = .signedIn(Playlist.State())
        return .none
      case .signOutTapped:
        state = .signedOut
        return .none
      }
    }
    .ifCaseLet(.case(State.signedIn), action: .case(Action.playlist)) { Playlist() }
  }
}
// snippet: end

// snippet: title-editor-alone-test
/// How often the child under test asked to close.
@MainActor final class Dismissals {
  var count = 0
}

@MainActor @Test func theEditorAloneSavesAndAsksToClose() async {
  let dismissals = Dismissals()
  let store = TestStore(initialState: TitleEditor.State(title: "Mix")) {
    TitleEditor()
  } withDependencies: {
    $0.dismiss = DismissEffect { dismissals.count += 1 }
  }
  await store.send(.titleChanged("Road trip")) { $0.title = "Road trip" }
  await store.send(.saveTapped)
  await store.receive(.delegate(.saved("Road trip")))
  await store.finish()
  #expect(dismissals.count == 1)
}
// snippet: end

@Suite struct CompositionAndNavigationTests {
  @MainActor @Test func aScopedChildRunsOnItsPartOfTheState() async {
    // snippet: player-test
    let store = TestStore(initialState: Player.State(isMuted: true)) { Player() }
    await store.send(.volume(.upTapped)) {
      $0.volume.level = 6
      $0.isMuted = false
    }
    // snippet: end
  }

  @MainActor @Test func aStoreScopedToAChildSendsThroughItsParent() {
    let store = Store(initialState: Player.State()) { Player() }
    // snippet: player-scope
    let volumeStore = store.scope(state: \.volume, action: .case(Player.Action.volume))
    volumeStore.send(.upTapped)
    #expect(store.state.volume.level == 6)
    // snippet: end
  }

  @MainActor @Test func eachRowRunsItsOwnReducer() async {
    // snippet: playlist-rows-test
    let store = TestStore(
      initialState: Playlist.State(songs: [
        Song.State(id: 1, title: "Blue in Green"),
        Song.State(id: 2, title: "So What"),
      ])
    ) {
      Playlist()
    }
    await store.send(.songs(.element(id: 2, action: .starTapped))) {
      $0.songs[id: 2]?.isStarred = true
      $0.starred = 1
    }
    await store.send(.removeTapped(2)) {
      $0.songs.remove(id: 2)
      $0.starred = 0
    }
    // snippet: end
  }

  @MainActor @Test func aPresentedEditorSavesAndClosesItself() async {
    // snippet: playlist-rename-test
    let store = TestStore(initialState: Playlist.State()) { Playlist() }
    await store.send(.renameTapped) { $0.editor = TitleEditor.State(title: "Mix") }
    await store.send(.editor(.presented(.titleChanged("Road trip")))) {
      $0.editor?.title = "Road trip"
    }
    await store.send(.editor(.presented(.saveTapped)))
    await store.receive(.editor(.presented(.delegate(.saved("Road trip"))))) {
      $0.name = "Road trip"
    }
    await store.receive(.editor(.dismiss)) { $0.editor = nil }
    // snippet: end
  }

  @MainActor @Test func aChildAloneWithoutADismissEffectOfItsOwnReportsWhereItWasCalled()
    async
    throws
  {
    let issues = await reportedIssues {
      let store = TestStore(initialState: TitleEditor.State(title: "Mix")) { TitleEditor() }
      await store.send(.cancelTapped)
      await store.finish()
    }
    // NB: the line of `await dismiss()` in the editor's `.cancelTapped`, above.
    let lines = try String(contentsOfFile: #filePath, encoding: .utf8).components(separatedBy: "\n")
    let line = try #require(lines.firstIndex { $0.contains("case .cancelTapped:") }) + 2
    #expect(lines[line - 1].contains("await dismiss()"))
    #expect(issues.messages.count == 1)
    #expect(
      issues.messages.first?.components(separatedBy: "\n").first
        == "'dismiss' was called at 'DocsTests/CompositionAndNavigationTests.swift:\(line)' "
        + "outside a presented child.")
  }

  @MainActor @Test func anEnumDestinationPresentsOneCaseAtATime() async {
    // snippet: library-test
    let store = TestStore(initialState: Library.State(playlists: ["Mix"])) { Library() }
    await store.send(.clearTapped) { $0.destination = .confirmClear(Confirmation.State()) }
    await store.send(.destination(.presented(.confirmClear(.confirmTapped))))
    await store.receive(.destination(.presented(.confirmClear(.delegate(.confirmed))))) {
      $0.playlists = []
    }
    await store.receive(.destination(.dismiss)) { $0.destination = nil }
    // snippet: end
  }

  @MainActor @Test func dismissingFromTheParentClosesTheChild() async {
    let store = TestStore(initialState: Library.State()) { Library() }
    await store.send(.newTapped) { $0.destination = .newPlaylist(TitleEditor.State(title: "")) }
    await store.send(.destination(.dismiss)) { $0.destination = nil }
  }

  @MainActor @Test func anActionForAnAbsentChildIsReported() async {
    let issues = await reportedIssues {
      let store = TestStore(initialState: Playlist.State()) { Playlist() }
      await store.send(.editor(.presented(.saveTapped)))
    }
    #expect(issues.messages.count == 1)
    #expect(
      issues.messages.first?.contains(
        "received a presentation action when nothing was presented") == true)
  }

  @MainActor @Test func aCaseChildRunsWhileTheStateIsItsCase() async {
    // snippet: session-test
    let store = TestStore(initialState: Session.State.signedOut) { Session() }
    await store.send(.signInTapped) { $0 = .signedIn(Playlist.State()) }
    await store.send(.playlist(.renameTapped)) {
      $0 = .signedIn(Playlist.State(editor: TitleEditor.State(title: "Mix")))
    }
    await store.send(.signOutTapped) { $0 = .signedOut }
    // snippet: end
  }

  @Test func aCasePathEmbedsAndExtracts() {
    // snippet: case-path-forms
    let oneLine: CasePath<Player.Action, Volume.Action> = .case(Player.Action.volume)
    let explicit: CasePath<Player.Action, Volume.Action> = .case(Player.Action.volume) {
      if case .volume(let action) = $0 { action } else { nil }
    }
    #expect(oneLine.extract(.volume(.upTapped)) == .upTapped)
    #expect(explicit.extract(.muteTapped) == nil)
    #expect(oneLine.embed(.downTapped) == .volume(.downTapped))
    // snippet: end
  }

  @Test func casePathsAppend() {
    // snippet: case-path-appending
    let editor: CasePath<Playlist.Action, PresentationAction<TitleEditor.Action>> =
      .case(Playlist.Action.editor)
    let presented = editor.appending(path: .case(PresentationAction.presented))
    let saved = presented.appending(path: .case(TitleEditor.Action.delegate))
    #expect(saved.extract(.editor(.presented(.delegate(.saved("Mix"))))) == .saved("Mix"))
    // snippet: end
  }
}
