import Foundation
import LoopTesting

/// A counter with a fact fetched from a dependency: the feature most TestStore tests drive.
struct Counter: Reducer {
  struct State: Equatable {
    var count = 0
    var fact: String?
    var isLoading = false
  }

  enum Action: Equatable {
    case decrementTapped
    case factButtonTapped
    case factResponse(String)
    case incrementTapped
    case noop
    case sendSeveral
    case step(Int)
    case timerStarted
    case timerStopped
    case timerTicked
  }

  enum CancelID { case timer }

  @Dependency(\.numberFact) var numberFact
  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .decrementTapped:
      state.count -= 1
      return .none
    case .factButtonTapped:
      state.isLoading = true
      let count = state.count
      return .run { send in
        await send(.factResponse(try await numberFact.fetch(count)))
      }
    case .factResponse(let fact):
      state.isLoading = false
      state.fact = fact
      return .none
    case .incrementTapped:
      state.count += 1
      return .none
    case .noop:
      return .none
    case .sendSeveral:
      return .run { send in
        for step in 1...3 { await send(.step(step)) }
      }
    case .step(let step):
      state.count += step
      return .none
    case .timerStarted:
      return .run { send in
        while true {
          try await clock.sleep(for: .seconds(1))
          await send(.timerTicked)
        }
      }
      .cancellable(id: CancelID.timer)
    case .timerStopped:
      return .cancel(id: CancelID.timer)
    case .timerTicked:
      state.count += 1
      return .none
    }
  }
}

/// Fetches a fact about a number.
struct NumberFactClient: Sendable {
  var fetch: @Sendable (Int) async throws -> String
}

extension NumberFactClient: DependencyKey {
  static let liveValue = NumberFactClient { "\($0) is a number, live" }
  static let testValue = NumberFactClient(fetch: unimplemented("NumberFactClient.fetch"))
}

extension DependencyValues {
  var numberFact: NumberFactClient {
    get { self[NumberFactClient.self] }
    set { self[NumberFactClient.self] = newValue }
  }
}

/// A search field whose query is debounced on the injected clock; a newer query cancels the
/// search in flight.
struct Search: Reducer {
  struct State: Equatable {
    var query = ""
    var results: [String] = []
  }

  enum Action: Equatable {
    case queryChanged(String)
    case searchResponse([String])
  }

  enum CancelID { case search }

  @Dependency(\.continuousClock) var clock

  let catalog = ["swift", "swiftly", "sqlite", "loop"]

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .queryChanged(let query):
      state.query = query
      let catalog = self.catalog
      return .debounce(id: CancelID.search, for: .milliseconds(300), clock: clock) { send in
        await send(.searchResponse(catalog.filter { $0.hasPrefix(query) }))
      }
    case .searchResponse(let results):
      state.results = results
      return .none
    }
  }
}

/// A list of 10,000 rows, for the diff's scale.
struct Table: Reducer {
  struct Row: Equatable, Identifiable {
    let id: Int
    var title: String
    var isFavorite = false
    var views = 0
  }

  struct State: Equatable {
    var rows: IdentifiedArrayOf<Row>
  }

  enum Action: Equatable { case favoriteTapped(Int) }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .favoriteTapped(let id):
      state.rows[id: id]?.isFavorite.toggle()
      return .none
    }
  }
}

/// An action that is not `Equatable`, for predicate and case-path receives.
struct Loader: Reducer {
  struct Failure: Error, Equatable {}

  struct State: Equatable { var value: Int? }

  enum Action {
    case load
    case loaded(Result<Int, Failure>)
    case fail
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .load:
      return .run { send in await send(.loaded(.success(42))) }
    case .loaded(let result):
      state.value = try? result.get()
      return .none
    case .fail:
      return .run { _ in throw Failure() }
    }
  }
}
