import Foundation
import Loop
import TestSupport
import Testing

/// A save whose effect never suspends, and the reload it leads to, which waits for `gate`.
struct SaveThenReload: Reducer {
  let gate: Gate

  func reduce(into state: inout [String], action: String) -> Effect<String> {
    state.append(action)
    switch action {
    case "save":
      return .run { send in await send("saved") }.cancellable(id: "save")
    case "saved":
      return .run { [gate] send in
        await gate.wait()
        await send("reloaded")
      }
    case "save again":
      return .run { _ in }.cancellable(id: "save", cancelInFlight: true)
    case "cancel":
      return .cancel(id: "save")
    default:
      return .none
    }
  }
}

/// How a store starts effects: at once, inside the `send` that returned them, until they first
/// suspend.
@MainActor
@Suite struct EffectRuntimeTests {
  @Test func anEffectThatNeverSuspendsHasFinishedWhenSendReturns() {
    let answer: nonisolated(nonsending) @Sendable () async -> Int = { 42 }
    let store = Store(initialState: [String]()) {
      Reduce<[String], String> { state, action in
        state.append(action)
        return action == "load" ? .run { send in await send("loaded \(await answer())") } : .none
      }
    }
    store.send("load")
    #expect(store.state == ["load", "loaded 42"])
  }

  @Test func actionsSentBeforeBetweenAndAfterSuspensionsArriveInOrder() async {
    let first = Gate()
    let second = Gate()
    let store = Store(initialState: [String]()) {
      Reduce<[String], String> { state, action in
        state.append(action)
        switch action {
        case "start":
          return .run { send in
            await send("before")
            await first.wait()
            await send("between")
            await second.wait()
            await send("after")
          }
        case "between":
          // Started at once too: its action is processed within the effect's `send`.
          return .run { send in await send("between's effect") }
        default:
          return .none
        }
      }
    }
    var states: [[String]] = []
    let observation = store.observe { states.append($0) }
    let task = store.send("start")
    #expect(store.state == ["start", "before"])
    first.open()
    second.open()
    await task.finish()
    observation.cancel()
    #expect(
      states == [
        ["start", "before"],
        ["start", "before", "between", "between's effect"],
        ["start", "before", "between", "between's effect", "after"],
      ])
  }

  @Test func actionsAnEffectSendsWhileStartingWaitBehindTheCurrentOnes() {
    let log = Log<String>()
    let store = Store(initialState: [String]()) {
      Reduce<[String], String> { state, action in
        state.append(action)
        log.append("reduce \(action)")
        guard action == "start" else { return .none }
        return .merge(
          .run { send in
            await send("from the effect")
            log.append("the effect goes on")
          },
          .send("from .send"))
      }
    }
    store.send("start")
    #expect(
      log.values == [
        "reduce start", "the effect goes on", "reduce from .send", "reduce from the effect",
      ])
    #expect(store.state == ["start", "from .send", "from the effect"])
  }

  @Test func cancellingAnEffectThatFinishedWhileStartingLeavesWhatItStartedRunning() async {
    let gate = Gate()
    let store = Store(initialState: [String]()) { SaveThenReload(gate: gate) }
    let task = store.send("save")
    store.send("cancel")
    store.send("save again")
    #expect(!task.isCancelled)
    gate.open()
    await task.finish()
    #expect(store.state == ["save", "saved", "cancel", "save again", "reloaded"])
  }

  @Test func cancellingTheStoreTaskCancelsTheEffectsOfActionsItsEffectsSent() async {
    let gate = Gate()
    let store = Store(initialState: [String]()) { SaveThenReload(gate: gate) }
    let task = store.send("save")
    task.cancel()
    // NB: the reload waits for the gate, which ignores cancellation: `finish` does not wait.
    await task.finish()
    gate.open()
    // NB: the woken reload runs on the main actor, queued before these turns: once cancelled,
    // what it sends is dropped.
    for _ in 0..<10 { await Task.yield() }
    #expect(store.state == ["save", "saved"])
  }

  @Test func cancelInFlightCancelsAnEffectSuspendedAfterItSent() async {
    let gate = Gate()
    let store = Store(initialState: [String]()) {
      Reduce<[String], String> { state, action in
        state.append(action)
        guard action.hasPrefix("search ") else { return .none }
        let query = action.dropFirst("search ".count)
        return .run { send in
          await send("searching \(query)")
          await gate.wait()
          await send("results \(query)")
        }
        .cancellable(id: "search", cancelInFlight: true)
      }
    }
    let first = store.send("search 1")
    let second = store.send("search 2")
    #expect(first.isCancelled)
    gate.open()
    await first.finish()
    await second.finish()
    #expect(store.state == ["search 1", "searching 1", "search 2", "searching 2", "results 2"])
  }

  @Test func deallocatingTheStoreCancelsAnEffectSuspendedAfterItSent() async {
    let log = Log<String>()
    var store: Store<[String], String>? = Store(initialState: []) {
      Reduce<[String], String> { state, action in
        state.append(action)
        guard action == "start" else { return .none }
        return .run { send in
          await send("started")
          await waitForCancellation()
          log.append("cancelled: \(Task.isCancelled)")
        }
      }
    }
    let task = store?.send("start")
    #expect(store?.state == ["start", "started"])
    store = nil
    await task?.finish()
    #expect(log.values == ["cancelled: true"])
  }

  @Test func anEffectStartingAtOnceSeesTheStoresDependenciesAndItsOwnOverrides() async {
    let store = Store(initialState: [String]()) {
      Reduce<[String], String> { state, action in
        state.append(action)
        guard action == "start" else { return .none }
        return .run { send in
          @Dependency(\.date) var date
          await send("store \(date.now.timeIntervalSince1970)")
          await withDependencies {
            $0.date = .constant(Date(timeIntervalSince1970: 2))
          } operation: {
            await send("override \(date.now.timeIntervalSince1970)")
          }
        }
      }
    } withDependencies: {
      $0.date = .constant(Date(timeIntervalSince1970: 1))
    }
    // NB: an override around `send` must not leak into the effect; the store's values win.
    let task = withDependencies {
      $0.date = .constant(Date(timeIntervalSince1970: 3))
    } operation: {
      store.send("start")
    }
    // NB: the operation is isolated to the main actor, and so is its `withDependencies`: with
    // nothing to wait for elsewhere, the effect has finished when `send` returns.
    #expect(store.state == ["start", "store 1.0", "override 2.0"])
    await task.finish()
  }

  @Test func anEffectCancelsByIdInsideWithDependencies() async {
    let gate = Gate()
    let store = Store(initialState: [String]()) {
      Reduce<[String], String> { state, action in
        state.append(action)
        switch action {
        case "start":
          return .run { [gate] send in
            await gate.wait()
            await send("finished")
          }
          .cancellable(id: "timer")
        case "stop":
          // NB: the override binds other dependencies in the effect's task; the effect it runs
          // in, which `Task.cancel(id:)` reaches from, stays the same.
          return .run { _ in
            withDependencies {
              $0.date = .constant(Date(timeIntervalSince1970: 0))
            } operation: {
              Task.cancel(id: "timer")
            }
          }
        default:
          return .none
        }
      }
    }
    let started = store.send("start")
    await store.send("stop").finish()
    gate.open()
    await started.finish()
    #expect(store.state == ["start", "stop"])
  }

  @Test func anActionSentFromACompletedEffectIsReportedAndDelivered() async {
    let gate = Gate()
    let issues = IssueCollector()
    let runLine = #line + 6
    let store = Store(initialState: [String]()) {
      Reduce<[String], String> { state, action in
        state.append(action)
        guard action == "start" else { return .none }
        // NB: the task escapes the operation, which returns without waiting for it.
        return .run { send in
          Task {
            await gate.wait()
            await send("late")
          }
        }
      }
    }
    let states = store.states
    await withIssueReporter(issues) {
      await store.send("start").finish()
      gate.open()
      for await state in states where state.last == "late" { break }
    }
    #expect(store.state == ["start", "late"])
    #expect(
      issues.messages == [
        """
        An action was sent from a completed effect:

            "late"

        The 'Effect.run' returned from 'LoopTests/EffectRuntimeTests.swift:\(runLine)' had \
        finished: its 'send' was called from a task the operation started and did not wait for.

        To fix, make the operation wait for everything that sends (await the task, or use a \
        task group), so that it returns only when it is done sending.
        """
      ])
  }
}
