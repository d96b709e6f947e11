import Foundation
import LoopTesting
import Testing

// The code of Sources/Loop/Loop.docc/EffectsAndOrdering.md.

// snippet: relay-feature
/// Logs every action it receives; `.tapped` starts an effect and sends an action.
struct Relay: Reducer {
  struct State: Equatable {
    var log: [String] = []
  }

  enum Action: Equatable {
    case fromRun
    case fromSend
    case later
    case tapped
  }

  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.log.append("\(action)")
    guard action == .tapped else { return .none }
    return .merge(
      .run { send in
        await send(.fromRun)
        try await clock.sleep(for: .seconds(1))
        await send(.later)
      },
      .send(.fromSend)
    )
  }
}
// snippet: end

// snippet: metronome-feature
/// Ticks every second between start and stop.
struct Metronome: Reducer {
  struct State: Equatable {
    var ticks = 0
  }

  enum Action: Equatable {
    case startSubmitted
    case stopSubmitted
    case ticked
  }

  enum CancelID { case ticking }

  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .startSubmitted:
      return .run { send in
        while true {
          try await clock.sleep(for: .seconds(1))
          await send(.ticked)
        }
      }
      .cancellable(id: CancelID.ticking, cancelInFlight: true)
    case .stopSubmitted:
      return .cancel(id: CancelID.ticking)
    case .ticked:
      state.ticks += 1
      return .none
    }
  }
}
// snippet: end

/// Counts the titles on the shelf, or says why it could not.
struct TitleCount: Reducer {
  struct State: Equatable {
    var count: Int?
    var failure: String?
  }

  enum Action: Equatable {
    case countSubmitted
    case counted(Int)
    case failed(String)
  }

  @Dependency(\.bookshelf) var bookshelf

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    // snippet: title-count-catch
    case .countSubmitted:
      return .run { send in
        await send(.counted(try await bookshelf.titles().count))
      } catch: { error, send in
        await send(.failed("\(error)"))
      }
    // snippet: end
    case .counted(let count):
      state.count = count
      return .none
    case .failed(let failure):
      state.failure = failure
      return .none
    }
  }
}

/// The shelf's error when it cannot be read.
struct ShelfUnreadable: Error, CustomStringConvertible {
  var description: String { "the shelf cannot be read" }
}

@Suite struct EffectsAndOrderingTests {
  @MainActor @Test func actionsRunInTheDocumentedOrder() async {
    // snippet: relay-order
    let clock = TestClock()
    let store = Store(initialState: Relay.State()) {
      Relay()
    } withDependencies: {
      $0.continuousClock = clock
    }
    let task = store.send(.tapped)
    #expect(store.state.log == ["tapped", "fromSend", "fromRun"])

    await clock.advance(by: .seconds(1))
    await task.finish()
    #expect(store.state.log == ["tapped", "fromSend", "fromRun", "later"])
    // snippet: end
  }

  @MainActor @Test func theTestStoreSeesTheSameOrder() async {
    // snippet: relay-test
    let clock = TestClock()
    let store = TestStore(initialState: Relay.State()) {
      Relay()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.tapped) { $0.log = ["tapped"] }
    await store.receive(.fromSend) { $0.log.append("fromSend") }
    await store.receive(.fromRun) { $0.log.append("fromRun") }
    await clock.advance(by: .seconds(1))
    await store.receive(.later) { $0.log.append("later") }
    await store.finish()
    // snippet: end
  }

  @MainActor @Test func finishWaitsForTheEffectsAndTheActionsTheySend() async {
    await withDependencies {
      $0.bookshelf.titles = { ["Dune", "Emma"] }
    } operation: {
      // snippet: reading-list-finish
      let store = Store(initialState: ReadingList.State()) { ReadingList() }
      let task = store.send(.onAppear)
      #expect(store.state.isLoading)  // the shelf answers later, off the main actor
      await task.finish()
      #expect(store.state.titles == ["Dune", "Emma"])
      // snippet: end
    }
  }

  @MainActor @Test func stopCancelsTheTicking() async {
    // snippet: metronome-test
    let clock = TestClock()
    let store = TestStore(initialState: Metronome.State()) {
      Metronome()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.startSubmitted)
    await clock.advance(by: .seconds(1))
    await store.receive(.ticked) { $0.ticks = 1 }
    await clock.advance(by: .seconds(1))
    await store.receive(.ticked) { $0.ticks = 2 }
    await store.send(.stopSubmitted)
    await clock.advance(by: .seconds(5))
    await store.finish()
    // snippet: end
  }

  @MainActor @Test func aSecondStartReplacesTheFirst() async {
    let clock = TestClock()
    let store = TestStore(initialState: Metronome.State()) { Metronome() }
    store.dependencies.continuousClock = clock
    await store.send(.startSubmitted)
    await clock.advance(by: .milliseconds(500))
    await store.send(.startSubmitted)
    await clock.advance(by: .milliseconds(500))
    await clock.advance(by: .milliseconds(500))
    await store.receive(.ticked) { $0.ticks = 1 }
    await store.send(.stopSubmitted)
    await store.finish()
  }

  @MainActor @Test func cancellingTheTaskOfStartStopsTheTicking() async {
    let clock = TestClock()
    let store = Store(initialState: Metronome.State()) {
      Metronome()
    } withDependencies: {
      $0.continuousClock = clock
    }
    // snippet: metronome-task-cancel
    let task = store.send(.startSubmitted)
    await clock.advance(by: .seconds(1))
    task.cancel()
    await clock.advance(by: .seconds(1))
    #expect(store.state.ticks == 1)
    // snippet: end
    await task.finish()
    #expect(task.isCancelled)
  }

  @MainActor @Test func anErrorBecomesAnAction() async {
    let store = TestStore(initialState: TitleCount.State()) {
      TitleCount()
    } withDependencies: {
      $0.bookshelf.titles = { throw ShelfUnreadable() }
    }
    await store.send(.countSubmitted)
    await store.receive(.failed("the shelf cannot be read")) {
      $0.failure = "the shelf cannot be read"
    }
    await store.finish()
  }

  @MainActor @Test func anUnhandledErrorIsReportedWhereTheEffectWasMade() async {
    let issues = await reportedIssues {
      let store = TestStore(initialState: ReadingList.State()) {
        ReadingList()
      } withDependencies: {
        $0.bookshelf.titles = { throw ShelfUnreadable() }
      }
      await store.send(.onAppear) { $0.isLoading = true }
      await store.finish()
    }
    #expect(issues.messages.count == 1)
    #expect(
      issues.messages.first?.hasPrefix(
        "An 'Effect.run' returned from 'DocsTests/GettingStartedTests.swift:") == true)
    #expect(
      issues.messages.first?.hasSuffix(
        """
        threw an unhandled error:

            the shelf cannot be read

        To fix, handle the error with the 'catch' parameter of 'Effect.run', or catch it inside \
        the operation.
        """) == true)
  }
}
