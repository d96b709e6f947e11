import Foundation
import LoopTesting
import Testing

/// A log of actions whose effects send at every point of their life, on a test clock.
private struct Journey: Reducer {
  @Dependency(\.continuousClock) var clock

  func reduce(into state: inout [String], action: String) -> Effect<String> {
    state.append(action)
    switch action {
    case "start":
      return .run { send in
        await send("before")
        try await clock.sleep(for: .seconds(1))
        await send("between")
        try await clock.sleep(for: .seconds(1))
        await send("after")
      }
    case "quick":
      return .run { send in await send("done") }
    case "both":
      return .merge(.run { send in await send("from the effect") }, .send("from .send"))
    case "save":
      return .run { send in await send("saved") }.cancellable(id: "save")
    case "save later":
      return .run { send in
        try await clock.sleep(for: .seconds(1))
        await send("saved")
      }
    case "saved":
      return .run { send in
        try await clock.sleep(for: .seconds(1))
        await send("reloaded")
      }
    case "cancel save":
      return .cancel(id: "save")
    case let search where search.hasPrefix("search "):
      let query = search.dropFirst("search ".count)
      return .run { send in
        await send("searching \(query)")
        try await clock.sleep(for: .seconds(1))
        await send("results \(query)")
      }
      .cancellable(id: "search", cancelInFlight: true)
    default:
      return .none
    }
  }
}

/// A test store of `Journey`, its clock `clock`.
@MainActor
private func journeyStore(clock: TestClock = TestClock()) -> TestStore<[String], String> {
  TestStore(initialState: [], clock: clock) { Journey() }
}

/// The `TestStore` starts effects as a `Store` does: at once, inside `send`.
@MainActor
@Suite struct TestStoreEffectStartTests {
  @Test func actionsSentBeforeBetweenAndAfterSuspensionsAreReceivedInOrder() async {
    let clock = TestClock()
    let issues = await capturingIssues {
      let store = journeyStore(clock: clock)
      await store.send("start") { $0 = ["start"] }
      await store.receive("before") { $0.append("before") }
      await clock.advance(by: .seconds(1))
      await store.receive("between") { $0.append("between") }
      await clock.advance(by: .seconds(1))
      await store.receive("after") { $0.append("after") }
      await store.finish()
    }
    #expect(issues.messages.isEmpty)
  }

  @Test func aSendWhoseEffectsNeverSuspendHasFinishedWhenItReturns() async {
    var isCompleted = false
    let issues = await capturingIssues {
      let store = journeyStore()
      let task = await store.send("quick") { $0 = ["quick"] }
      isCompleted = task.isCompleted
      await store.receive("done") { $0.append("done") }
      await store.finish(timeout: .zero)
    }
    #expect(isCompleted)
    #expect(issues.messages.isEmpty)
  }

  @Test func actionsAnEffectSendsWhileStartingAreReceivedAfterTheSynchronousOnes() async {
    let issues = await capturingIssues {
      let store = journeyStore()
      await store.send("both") { $0 = ["both"] }
      await store.receive("from .send") { $0.append("from .send") }
      await store.receive("from the effect") { $0.append("from the effect") }
      await store.finish(timeout: .zero)
    }
    #expect(issues.messages.isEmpty)
  }

  @Test func cancellingAnEffectThatFinishedWhileStartingLeavesWhatItStartedRunning() async {
    let clock = TestClock()
    let issues = await capturingIssues {
      let store = journeyStore(clock: clock)
      await store.send("save") { $0 = ["save"] }
      await store.receive("saved") { $0.append("saved") }
      await store.send("cancel save") { $0.append("cancel save") }
      await clock.advance(by: .seconds(1))
      await store.receive("reloaded") { $0.append("reloaded") }
      await store.finish()
    }
    #expect(issues.messages.isEmpty)
  }

  @Test func anEffectOfAReceivedActionStillRunningIsReportedAtTheSendThatLedToIt() async {
    let clock = TestClock()
    var line = 0
    let issues = await capturingIssues {
      let store = journeyStore(clock: clock)
      await store.send("hello") { $0 = ["hello"] }
      line = #line + 1
      await store.send("save later") { $0.append("save later") }
      await clock.advance(by: .seconds(1))
      await store.receive("saved") { $0.append("saved") }
      await store.finish(timeout: .milliseconds(10))
    }
    #expect(
      issues.messages == [
        """
        An effect returned for this action is still running. It must complete before the end \
        of the test.

            "saved"

        To fix, make the effect finish (advance a 'TestClock', finish a stream), cancel it with \
        an action that returns '.cancel(id:)', or call 'skipInFlightEffects()'.
        """
      ])
    #expect(issues.locations.map(\.line) == [line])
  }

  @Test func cancelInFlightCancelsAnEffectSuspendedAfterItSent() async {
    let clock = TestClock()
    let issues = await capturingIssues {
      let store = journeyStore(clock: clock)
      await store.send("search 1") { $0 = ["search 1"] }
      await store.receive("searching 1") { $0.append("searching 1") }
      await store.send("search 2") { $0.append("search 2") }
      await store.receive("searching 2") { $0.append("searching 2") }
      await clock.advance(by: .seconds(1))
      await store.receive("results 2") { $0.append("results 2") }
      await store.finish()
    }
    #expect(issues.messages.isEmpty)
  }
}
