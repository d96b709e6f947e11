import Loop
import Testing

/// A search whose query's changes are logged, and a counter beside it.
private struct Search: Reducer {
  struct State: Equatable {
    var query = ""
    var changes: [String] = []
    var count = 0
  }
  enum Action: Equatable {
    case countTapped
    case queryChanged(String)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .countTapped: state.count += 1
      case .queryChanged(let query): state.query = query
      }
      return .none
    }
    .onChange(of: \.query) { oldValue, newValue in
      Reduce { state, _ in
        state.changes.append("'\(oldValue)' → '\(newValue)'")
        return newValue.isEmpty ? .send(.countTapped) : .none
      }
    }
  }
}

/// A draft whose text is saved when it changes; a change of its cursor alone saves nothing.
private struct Draft: Reducer {
  /// Not `Equatable`: what counts as a change is the reducer's to say.
  struct Text {
    var text: String
    var cursor: Int
  }
  struct State {
    var draft = Text(text: "", cursor: 0)
    var saved: [String] = []
  }
  enum Action {
    case edited(Text)
  }

  static func haveTheSameText(_ old: Text, _ new: Text) -> Bool { old.text == new.text }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .edited(let draft): state.draft = draft
      }
      return .none
    }
    .onChange(of: \.draft, removeDuplicates: Self.haveTheSameText) { _, draft in
      Reduce { state, _ in
        state.saved.append(draft.text)
        return .none
      }
    }
  }
}

@MainActor
@Suite struct OnChangeTests {
  @Test func removeDuplicatesDecidesWhatCountsAsAChange() {
    let store = Store(initialState: Draft.State()) { Draft() }
    store.send(.edited(Draft.Text(text: "a", cursor: 1)))
    store.send(.edited(Draft.Text(text: "a", cursor: 0)))
    store.send(.edited(Draft.Text(text: "ab", cursor: 2)))
    #expect(store.state.saved == ["a", "ab"])
  }

  @Test func runsWithTheOldAndNewValueWhenTheValueChanged() {
    let store = Store(initialState: Search.State()) { Search() }
    store.send(.queryChanged("sw"))
    store.send(.queryChanged("swift"))
    #expect(store.state.changes == ["'' → 'sw'", "'sw' → 'swift'"])
  }

  @Test func doesNotRunWhenTheValueStayedTheSame() {
    let store = Store(initialState: Search.State(query: "swift")) { Search() }
    store.send(.queryChanged("swift"))
    store.send(.countTapped)
    #expect(store.state.changes == [])
    #expect(store.state.count == 1)
  }

  @Test func itsEffectsRunWithTheBaseReducers() {
    let store = Store(initialState: Search.State(query: "swift")) { Search() }
    store.send(.queryChanged(""))
    #expect(store.state.changes == ["'swift' → ''"])
    #expect(store.state.count == 1)
  }
}
