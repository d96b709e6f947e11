import Foundation
import Loop
import Testing

/// A child whose effect reports the UUID it was given, after giving up the main actor once.
private struct Stamper: Reducer {
  struct State: Equatable { var stamps: [String] = [] }
  enum Action: Equatable {
    case stamped(String)
    case stampTapped
  }

  @Dependency(\.uuid) var uuid

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .stamped(let stamp):
      state.stamps.append(stamp)
      return .none
    case .stampTapped:
      state.stamps.append("now \(uuid().uuidString.suffix(2))")
      return .run { send in
        // NB: the effect starts inside the store's `send`, so this runs before it returns.
        let starting = uuid().uuidString.suffix(2)
        await Task.yield()
        await send(.stamped("started \(starting), later \(uuid().uuidString.suffix(2))"))
      }
    }
  }
}

/// A parent that gives its child other UUIDs than its own.
private struct Desk: Reducer {
  struct State: Equatable {
    var child = Stamper.State()
    var own = Stamper.State()
  }
  enum Action: Equatable {
    case child(Stamper.Action)
    case own(Stamper.Action)
  }

  var body: some ReducerOf<Self> {
    Scope(state: \.child, action: .case(Action.child)) {
      Stamper()
        .dependency(\.uuid, .constant(UUID(counting: 0xC1)))
    }
    Scope(state: \.own, action: .case(Action.own)) { Stamper() }
  }
}

/// A reducer whose effect is created inside `withDependencies`.
private struct Clock: Reducer {
  enum Action: Equatable {
    case read
    case time(Double)
  }

  @Dependency(\.date) var date

  func reduce(into state: inout [Double], action: Action) -> Effect<Action> {
    switch action {
    case .read:
      return withDependencies {
        $0.date = .constant(Date(timeIntervalSince1970: 7))
      } operation: {
        .run { send in
          let starting = date.now.timeIntervalSince1970
          await Task.yield()
          await send(.time(starting))
          await send(.time(date.now.timeIntervalSince1970))
        }
      }
    case .time(let time):
      state.append(time)
      return .none
    }
  }
}

/// A reducer whose effect hands its work to a callback on another thread.
private struct Callback: Reducer {
  enum Action: Equatable {
    case start
    case finished(String)
  }

  func reduce(into state: inout [String], action: Action) -> Effect<Action> {
    switch action {
    case .start:
      return .run { send in
        let stamp = await withCheckedContinuation { continuation in
          withEscapedDependencies { dependencies in
            Thread.detachNewThread {
              dependencies.yield {
                @Dependency(\.uuid) var uuid
                continuation.resume(returning: String(uuid().uuidString.suffix(2)))
              }
            }
          }
        }
        await send(.finished(stamp))
      }
    case .finished(let stamp):
      state.append(stamp)
      return .none
    }
  }
}

@MainActor
@Suite struct ScopedDependencyTests {
  @Test func aScopedDependencyReachesTheChildAndItsEffects() async {
    let store = Store(initialState: Desk.State()) {
      Desk()
    } withDependencies: {
      $0.uuid = .constant(UUID(counting: 0xA0))
    }
    await store.send(.child(.stampTapped)).finish()
    await store.send(.own(.stampTapped)).finish()
    #expect(store.state.child.stamps == ["now C1", "started C1, later C1"])
    #expect(store.state.own.stamps == ["now A0", "started A0, later A0"])
  }

  @Test func anEffectKeepsTheDependenciesItWasCreatedWith() async {
    let store = Store(initialState: [Double]()) {
      Clock()
    } withDependencies: {
      $0.date = .constant(Date(timeIntervalSince1970: 1))
    }
    await store.send(.read).finish()
    #expect(store.state == [7, 7])
  }

  @Test func withEscapedDependenciesCarriesThemIntoACallback() async {
    let issues = IssueCollector()
    let store = Store(initialState: [String]()) {
      Callback()
    } withDependencies: {
      $0.uuid = .constant(UUID(counting: 0x2A))
    }
    await withIssueReporter(issues) { await store.send(.start).finish() }
    #expect(store.state == ["2A"])
    #expect(issues.messages.isEmpty)
  }

  @Test func overridingTheSystemsValuesOnAReducerIsNotAUseOfTheirTestValues() {
    let issues = IssueCollector()
    let store = Store(initialState: [String]()) {
      Reduce<[String], String> { state, _ in
        @Dependency(\.calendar) var calendar
        @Dependency(\.locale) var locale
        @Dependency(\.timeZone) var timeZone
        state.append("\(calendar.identifier) \(locale.identifier) \(timeZone.identifier)")
        return .none
      }
      .dependency(\.calendar, Calendar(identifier: .iso8601))
      .dependency(\.locale, Locale(identifier: "fr_FR"))
      .dependency(\.timeZone, TimeZone(identifier: "Europe/Paris") ?? .current)
    }
    withIssueReporter(issues) { store.send("read") }
    #expect(issues.messages.isEmpty)
    #expect(store.state == ["iso8601 fr_FR Europe/Paris"])
  }

  @Test func transformDependencyChangesTheCurrentValueForTheReducer() {
    let store = Store(initialState: [String]()) {
      Reduce<[String], String> { state, _ in
        @Dependency(\.date.now) var now: Date
        state.append("\(now.timeIntervalSince1970)")
        return .none
      }
      .transformDependency(\.date) { date in
        date.now = date.now.addingTimeInterval(60)
      }
    } withDependencies: {
      $0.date.now = Date(timeIntervalSince1970: 1_000)
    }
    store.send("read")
    #expect(store.state == ["1060.0"])
  }
}
