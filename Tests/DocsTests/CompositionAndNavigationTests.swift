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
    case lowerSubmitted
    case raiseSubmitted
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .lowerSubmitted: state.level = max(0, state.level - 1)
    case .raiseSubmitted: state.level = min(10, state.level + 1)
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
    case muteSubmitted
    case volume(Volume.Action)
  }

  var body: some ReducerOf<Self> {
    Scope(state: \.volume, action: .case(Action.volume)) { Volume() }
    Reduce { state, action in
      switch action {
      case .muteSubmitted:
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
    case starSubmitted
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
    case cancelSubmitted
    case delegate(Delegate)
    case saveSubmitted
    case titleChanged(String)

    enum Delegate: Equatable {
      case save(String)
    }
  }

  @Dependency(\.dismiss) var dismiss

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .cancelSubmitted:
      return .run { _ in await dismiss() }
    case .delegate:
      return .none
    case .saveSubmitted:
      let title = state.title
      return .run { send in
        await send(.delegate(.save(title)))
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
    case removeSubmitted(Song.State.ID)
    case renameSubmitted
    case songs(IdentifiedActionOf<Song>)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .editor(.presented(.delegate(.save(let name)))):
        state.name = name
        return .none
      case .editor:
        return .none
      case .removeSubmitted(let id):
        state.songs.remove(id: id)
        return .none
      case .renameSubmitted:
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
    case clearSubmitted
    case destination(PresentationAction<Destination.Action>)
    case newSubmitted
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
      case .clearSubmitted:
        state.destination = .confirmClear(Confirmation.State())
        return .none
      case .destination(.presented(.confirmClear(.delegate(.proceed)))):
        state.playlists = []
        return .none
      case .destination(.presented(.newPlaylist(.delegate(.save(let name))))):
        state.playlists.append(name)
        return .none
      case .destination:
        return .none
      case .newSubmitted:
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
    case cancelSubmitted
    case confirmSubmitted
    case delegate(Delegate)

    enum Delegate: Equatable { case proceed }
  }

  @Dependency(\.dismiss) var dismiss

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .cancelSubmitted:
      return .run { _ in await dismiss() }
    case .confirmSubmitted:
      return .run { send in
        await send(.delegate(.proceed))
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
    case signInSubmitted
    case signOutSubmitted
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .playlist:
        return .none
      case .signInSubmitted:
        state = .signedIn(Playlist.State())
        return .none
      case .signOutSubmitted:
        state = .signedOut
        return .none
      }
    }
    .ifCaseLet(.case(State.signedIn), action: .case(Action.playlist)) { Playlist() }
  }
}
// snippet: end

// snippet: song-page-feature
/// A song's page: it counts plays, and closes itself.
struct SongPage: Reducer {
  struct State: Equatable {
    var title: String
    var plays = 0
  }

  enum Action: Equatable {
    case closeSubmitted
    case playSubmitted
  }

  @Dependency(\.dismiss) var dismiss

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .closeSubmitted:
      return .run { _ in await dismiss() }
    case .playSubmitted:
      state.plays += 1
      return .none
    }
  }
}
// snippet: end

// snippet: browser-feature
struct Browser: Reducer {
  struct State: Equatable {
    var path = StackState<SongPage.State>()
    var played: [String] = []
  }

  enum Action: Equatable {
    case path(StackActionOf<SongPage>)
    case songSelected(String)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .path(.element(let id, .playSubmitted)):
        if let title = state.path[id: id]?.title { state.played.append(title) }
        return .none
      case .path:
        return .none
      case .songSelected(let title):
        state.path.append(SongPage.State(title: title))
        return .none
      }
    }
    .forEach(\.path, action: .case(Action.path)) { SongPage() }
  }
}
// snippet: end

// snippet: up-next-feature
struct UpNext: Reducer {
  struct State: Equatable {
    var songs = ["So What", "Blue in Green"]
    @Presents var alert: AlertState<Action.Alert>? = nil
  }

  enum Action: Equatable {
    case alert(PresentationAction<Alert>)
    case clearSubmitted

    enum Alert: Equatable {
      case confirmClear
    }
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .alert(.presented(.confirmClear)):
        state.songs = []
        return .none
      case .alert:
        return .none
      case .clearSubmitted:
        state.alert = .clear(count: state.songs.count)
        return .none
      }
    }
    .ifLet(\.$alert, action: .case(Action.alert))
  }
}

extension AlertState where Action == UpNext.Action.Alert {
  static func clear(count: Int) -> Self {
    AlertState {
      TextState("Clear what plays next?")
    } actions: {
      ButtonState(role: .destructive, action: .confirmClear) { TextState("Clear") }
      ButtonState(role: .cancel) { TextState("Keep") }
    } message: {
      TextState("\(count) songs will be removed.")
    }
  }
}
// snippet: end

// snippet: title-editor-alone-test
@MainActor @Test func theEditorAloneSavesAndAsksToClose() async {
  let store = TestStore(initialState: TitleEditor.State(title: "Mix")) { TitleEditor() }
  await store.send(.titleChanged("Road trip")) { $0.title = "Road trip" }
  await store.send(.saveSubmitted)
  await store.receive(.delegate(.save("Road trip")))
  #expect(store.isDismissed)
}
// snippet: end

@Suite struct CompositionAndNavigationTests {
  @MainActor @Test func aScopedChildRunsOnItsPartOfTheState() async {
    // snippet: player-test
    let store = TestStore(initialState: Player.State(isMuted: true)) { Player() }
    await store.send(.volume(.raiseSubmitted)) {
      $0.volume.level = 6
      $0.isMuted = false
    }
    // snippet: end
  }

  @MainActor @Test func aStoreScopedToAChildSendsThroughItsParent() {
    let store = Store(initialState: Player.State()) { Player() }
    // snippet: player-scope
    let volumeStore = store.scope(state: \.volume, action: .case(Player.Action.volume))
    volumeStore.send(.raiseSubmitted)
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
    await store.send(.songs(.element(id: 2, action: .starSubmitted))) {
      $0.songs[id: 2]?.isStarred = true
      $0.starred = 1
    }
    await store.send(.removeSubmitted(2)) {
      $0.songs.remove(id: 2)
      $0.starred = 0
    }
    // snippet: end
  }

  @MainActor @Test func aPresentedEditorSavesAndClosesItself() async {
    // snippet: playlist-rename-test
    let store = TestStore(initialState: Playlist.State()) { Playlist() }
    await store.send(.renameSubmitted) { $0.editor = TitleEditor.State(title: "Mix") }
    await store.send(.editor(.presented(.titleChanged("Road trip")))) {
      $0.editor?.title = "Road trip"
    }
    await store.send(.editor(.presented(.saveSubmitted)))
    await store.receive(.editor(.presented(.delegate(.save("Road trip"))))) {
      $0.name = "Road trip"
    }
    await store.receive(.editor(.dismiss)) { $0.editor = nil }
    // snippet: end
  }

  @MainActor @Test func aChildAloneWithADismissEffectOfItsOwnRunsItAndIsDismissed() async {
    var calls = 0
    let store = TestStore(initialState: TitleEditor.State(title: "Mix")) {
      TitleEditor()
    } withDependencies: {
      $0.dismiss = DismissEffect { calls += 1 }
    }
    await store.send(.cancelSubmitted)
    #expect(calls == 1)
    #expect(store.isDismissed)
  }

  @MainActor @Test func aChildAloneInAPlainStoreReportsWhereDismissWasCalled() async throws {
    let issues = await reportedIssues {
      let store = Store(initialState: TitleEditor.State(title: "Mix")) { TitleEditor() }
      await store.send(.cancelSubmitted).finish()
    }
    // NB: the line of `await dismiss()` in the editor's `.cancelSubmitted`, above.
    let lines = try String(contentsOfFile: #filePath, encoding: .utf8).components(separatedBy: "\n")
    let line = try #require(lines.firstIndex { $0.contains("case .cancelSubmitted:") }) + 2
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
    await store.send(.clearSubmitted) { $0.destination = .confirmClear(Confirmation.State()) }
    await store.send(.destination(.presented(.confirmClear(.confirmSubmitted))))
    await store.receive(.destination(.presented(.confirmClear(.delegate(.proceed))))) {
      $0.playlists = []
    }
    await store.receive(.destination(.dismiss)) { $0.destination = nil }
    // snippet: end
  }

  @Test func oneCaseOfADestinationChangesInPlace() {
    // snippet: destination-case-modify
    var state = Library.State(destination: .newPlaylist(TitleEditor.State(title: "")))
    state.$destination[case: .case(Library.Destination.State.newPlaylist)]?.title = "Road trip"
    state.destination?.modify(.case(Library.Destination.State.newPlaylist)) { $0.title += "s" }
    #expect(state.destination == .newPlaylist(TitleEditor.State(title: "Road trips")))
    // snippet: end
  }

  @Test func aCaseAccessorChangesOnlyTheCasePresented() {
    // snippet: destination-case-accessor
    enum LibraryDestination: Equatable, CasePathable {
      case confirmClear(Confirmation.State)
      case newPlaylist(TitleEditor.State)

      var newPlaylist: TitleEditor.State? {
        get { self[case: .case(LibraryDestination.newPlaylist)] }
        set { self[case: .case(LibraryDestination.newPlaylist)] = newValue }
      }
    }

    var presented = LibraryDestination.confirmClear(Confirmation.State())
    presented.newPlaylist?.title = "Road trip"
    #expect(presented == .confirmClear(Confirmation.State()))
    // snippet: end
  }

  @MainActor @Test func dismissingFromTheParentClosesTheChild() async {
    let store = TestStore(initialState: Library.State()) { Library() }
    await store.send(.newSubmitted) { $0.destination = .newPlaylist(TitleEditor.State(title: "")) }
    await store.send(.destination(.dismiss)) { $0.destination = nil }
  }

  @MainActor @Test func anActionForAnAbsentChildIsReported() async {
    let issues = await reportedIssues {
      let store = TestStore(initialState: Playlist.State()) { Playlist() }
      await store.send(.editor(.presented(.saveSubmitted)))
    }
    #expect(issues.messages.count == 1)
    #expect(
      issues.messages.first?.contains(
        "received a presentation action when nothing was presented") == true)
  }

  @MainActor @Test func aCaseChildRunsWhileTheStateIsItsCase() async {
    // snippet: session-test
    let store = TestStore(initialState: Session.State.signedOut) { Session() }
    await store.send(.signInSubmitted) { $0 = .signedIn(Playlist.State()) }
    await store.send(.playlist(.renameSubmitted)) {
      $0 = .signedIn(Playlist.State(editor: TitleEditor.State(title: "Mix")))
    }
    await store.send(.signOutSubmitted) { $0 = .signedOut }
    // snippet: end
  }

  @Test func aCasePathEmbedsAndExtracts() {
    // snippet: case-path-forms
    let oneLine: CasePath<Player.Action, Volume.Action> = .case(Player.Action.volume)
    let explicit: CasePath<Player.Action, Volume.Action> = .case(Player.Action.volume) {
      if case .volume(let action) = $0 { action } else { nil }
    }
    #expect(oneLine.extract(.volume(.raiseSubmitted)) == .raiseSubmitted)
    #expect(explicit.extract(.muteSubmitted) == nil)
    #expect(oneLine.embed(.lowerSubmitted) == .volume(.lowerSubmitted))
    // snippet: end
  }

  @Test func casePathsAppend() {
    // snippet: case-path-appending
    let editor: CasePath<Playlist.Action, PresentationAction<TitleEditor.Action>> =
      .case(Playlist.Action.editor)
    let presented = editor.appending(path: .case(PresentationAction.presented))
    let saved = presented.appending(path: .case(TitleEditor.Action.delegate))
    #expect(saved.extract(.editor(.presented(.delegate(.save("Mix"))))) == .save("Mix"))
    // snippet: end
  }

  @MainActor @Test func aStackPushesRunsAndPopsItsScreens() async {
    // snippet: browser-test
    let store = TestStore(initialState: Browser.State()) { Browser() }
    await store.send(.songSelected("So What")) { $0.path.append(SongPage.State(title: "So What")) }
    await store.send(.songSelected("Blue in Green")) {
      $0.path.append(SongPage.State(title: "Blue in Green"))
    }
    await store.send(.path(.element(id: 1, action: .playSubmitted))) {
      $0.path[id: 1]?.plays = 1
      $0.played = ["Blue in Green"]
    }
    await store.send(.path(.element(id: 0, action: .closeSubmitted)))
    await store.receive(.path(.popFrom(id: 0))) { $0.path = StackState() }
    // snippet: end
  }

  @MainActor @Test func aStackActionForAMissingScreenIsReported() async {
    let issues = await reportedIssues {
      let store = TestStore(initialState: Browser.State()) { Browser() }
      await store.send(.path(.element(id: 0, action: .playSubmitted)))
    }
    #expect(issues.messages.count == 1)
    #expect(
      issues.messages.first?.contains(
        "received an action for a missing stack element (id: #0)") == true)
  }

  @MainActor @Test func anAlertsAnswerRunsTheParentAndClosesIt() async {
    // snippet: up-next-test
    let store = TestStore(initialState: UpNext.State()) { UpNext() }
    await store.send(.clearSubmitted) { $0.alert = .clear(count: 2) }
    await store.send(.alert(.presented(.confirmClear))) {
      $0.alert = nil
      $0.songs = []
    }
    // snippet: end
  }

  @MainActor @Test func anAlertDismissedChangesNothingElse() async {
    // snippet: up-next-dismiss-test
    let store = TestStore(initialState: UpNext.State()) { UpNext() }
    await store.send(.clearSubmitted) { $0.alert = .clear(count: 2) }
    await store.send(.alert(.dismiss)) { $0.alert = nil }
    // snippet: end
  }
}
