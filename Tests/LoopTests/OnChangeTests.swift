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

@MainActor
@Suite struct OnChangeTests {
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
