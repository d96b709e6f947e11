import Loop
import TestSupport
import Testing

private struct Counter: Reducer {
  struct State: Equatable { var count = 0 }
  enum Action: Equatable { case increment, decrement }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .increment: state.count += 1
      case .decrement: state.count -= 1
      }
      return .none
    }
  }
}

/// Records the order in which the reducer saw actions, and returns effects on request.
private struct Recorder: Reducer {
  struct State: Equatable { var log: [String] = [] }
  enum Action: Equatable {
    case start
    case sendTwo
    case concatenated
    case step(String)
    case asyncStep(String)
  }

  let gate: Gate

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      state.log.append("start")
      return .merge(.send(.step("a")), .send(.sendTwo), .send(.step("b")))
    case .sendTwo:
      state.log.append("sendTwo")
      return .concatenate(.send(.step("c")), .send(.step("d")))
    case .concatenated:
      state.log.append("concatenated")
      let gate = self.gate
      return .concatenate(
        .send(.step("1")),
        .run { send in
          await gate.wait()
          await send(.asyncStep("2"))
        },
        .send(.step("3")),
        .run { send in await send(.asyncStep("4")) }
      )
    case .step(let name):
      state.log.append(name)
      return .none
    case .asyncStep(let name):
      state.log.append(name)
      return name == "2" ? .send(.step("2b")) : .none
    }
  }
}

@MainActor
@Suite struct StoreTests {
  @Test func readingReadsTheCurrentStateOfARootAndAScopedStore() {
    let store = Store(initialState: Counter.State()) { Counter() }
    store.send(.increment)
    store.send(.increment)
    #expect(store.reading { $0.count } == 2)
    let scoped = store.scope(state: \.count, action: CasePath(embed: { $0 }, extract: { $0 }))
    store.send(.decrement)
    #expect(scoped.reading { $0 } == 1)
  }

  @Test func sendRunsTheReducerSynchronously() {
    let store = Store(initialState: Counter.State()) { Counter() }
    store.send(.increment)
    store.send(.increment)
    store.send(.decrement)
    #expect(store.state.count == 1)
  }

  @Test func synchronousActionsAreQueuedInOrderBeforeSendReturns() {
    let store = Store(initialState: Recorder.State()) { Recorder(gate: Gate()) }
    store.send(.start)
    #expect(store.state.log == ["start", "a", "sendTwo", "b", "c", "d"])
  }

  @Test func concatenateRunsEachEffectAfterThePreviousFinished() async {
    let gate = Gate()
    let store = Store(initialState: Recorder.State()) { Recorder(gate: gate) }
    let task = store.send(.concatenated)
    #expect(store.state.log == ["concatenated", "1"])
    gate.open()
    await task.finish()
    #expect(store.state.log == ["concatenated", "1", "2", "2b", "3", "4"])
  }

  @Test func finishAwaitsEffectsOfActionsSentByEffects() async {
    let gate = Gate()
    let store = Store(initialState: [String]()) {
      Reduce<[String], String> { state, action in
        state.append(action)
        switch action {
        case "first":
          return .run { send in await send("second") }
        case "second":
          return .run { send in
            await gate.wait()
            await send("third")
          }
        default:
          return .none
        }
      }
    }
    let task = store.send("first")
    gate.open()
    await task.finish()
    #expect(store.state == ["first", "second", "third"])
  }

  @Test func mapEmbedsTheActionsOfAnEffect() async {
    let effect = Effect<Int>.run { send in await send(41) }.map { "\($0 + 1)" }
    let store = Store(initialState: [String]()) {
      Reduce<[String], String> { state, action in
        state.append(action)
        return action == "go" ? effect : .none
      }
    }
    await store.send("go").finish()
    #expect(store.state == ["go", "42"])
  }

  @Test func cancelInFlightCancelsTheRunningEffectWithTheSameID() async {
    let log = Log<String>()
    let store = Store(initialState: 0) {
      Reduce<Int, String> { state, action in
        state += 1
        guard action.hasPrefix("search") else { return .none }
        return .run { send in
          await waitForCancellation()
          log.append("\(action) ended, cancelled: \(Task.isCancelled)")
          await send("result of \(action)")
        }
        .cancellable(id: "search", cancelInFlight: true)
      }
    }
    let first = store.send("search 1")
    let second = store.send("search 2")
    await first.finish()
    #expect(log.values == ["search 1 ended, cancelled: true"])
    #expect(store.state == 2)
    second.cancel()
    await second.finish()
    #expect(store.state == 2, "a cancelled effect's actions are dropped")
  }

  @Test func cancelByIDStopsEffectsAndTheirActions() async {
    let started = Gate()
    let store = Store(initialState: [String]()) {
      Reduce<[String], String> { state, action in
        state.append(action)
        switch action {
        case "timer":
          return .run { send in
            started.open()
            await waitForCancellation()
            await send("tick after cancel")
          }
          .cancellable(id: 7)
        case "stop":
          return .cancel(id: 7)
        default:
          return .none
        }
      }
    }
    let timer = store.send("timer")
    await started.wait()
    store.send("stop")
    await timer.finish()
    #expect(store.state == ["timer", "stop"])
  }

  @Test func deallocatingTheStoreCancelsItsEffects() async {
    let log = Log<String>()
    var store: Store<Int, Int>? = Store(initialState: 0) {
      Reduce<Int, Int> { _, _ in
        .run { _ in
          await waitForCancellation()
          log.append("cancelled: \(Task.isCancelled)")
        }
      }
    }
    let task = store?.send(1)
    store = nil
    await task?.finish()
    #expect(log.values == ["cancelled: true"])
  }

  @Test func cancellingAnEffectLeavesTheEffectsOfActionsItSentRunning() async {
    let gate = Gate()
    let store = Store(initialState: [String]()) {
      Reduce<[String], String> { state, action in
        state.append(action)
        switch action {
        case "save":
          return .run { send in await send("saved") }.cancellable(id: "child")
        case "saved":
          // The parent reacts: dismisses the child (cancelling its effects) and reloads.
          return .merge(
            .cancel(id: "child"),
            .run { send in
              await gate.wait()
              await send("reloaded")
            })
        default:
          return .none
        }
      }
    }
    let task = store.send("save")
    gate.open()
    await task.finish()
    #expect(store.state == ["save", "saved", "reloaded"])
  }

  @Test func storeTaskCancelCancelsTheActionsEffects() async {
    let store = Store(initialState: 0) {
      Reduce<Int, Int> { state, action in
        state = action
        return action == 1
          ? .run { send in
            await waitForCancellation()
            await send(2)
          } : .none
      }
    }
    let task = store.send(1)
    task.cancel()
    await task.finish()
    #expect(task.isCancelled)
    #expect(store.state == 1)
  }

  @Test func scopedStoreReadsAndWritesThroughTheParent() {
    let store = Store(initialState: Parent.State()) { Parent() }
    let child = store.scope(state: \.counter, action: .case(Parent.Action.counter))
    child.send(.increment)
    #expect(child.state.count == 1)
    #expect(store.state.counter.count == 1)
    store.send(.counter(.increment))
    #expect(child.state.count == 2)
  }

  @Test func observersAreToldOncePerSendWithTheNewState() {
    let store = Store(initialState: Recorder.State()) { Recorder(gate: Gate()) }
    var seen: [Int] = []
    let observation = store.observe { seen.append($0.log.count) }
    store.send(.start)
    store.send(.step("x"))
    observation.cancel()
    store.send(.step("y"))
    #expect(seen == [6, 7])
  }

  @Test func statesStreamYieldsEachNewState() async {
    let store = Store(initialState: Counter.State()) { Counter() }
    var iterator = store.states.makeAsyncIterator()
    store.send(.increment)
    store.send(.increment)
    #expect(await iterator.next()?.count == 1)
    #expect(await iterator.next()?.count == 2)
  }

  @Test func anUnhandledEffectErrorIsReported() async {
    struct Failure: Error {}
    let issues = IssueCollector()
    let store = Store(initialState: 0) {
      Reduce<Int, Int> { _, _ in .run { _ in throw Failure() } }
    }
    await withIssueReporter(issues) { await store.send(1).finish() }
    #expect(issues.messages.count == 1)
    #expect(issues.messages.first?.contains("threw an unhandled error:\n\n    Failure()") == true)
  }

  @Test func anUnhandledEffectErrorIsReportedAtTheFilePathLineAndColumnOfItsRun() async {
    struct Failure: Error {}
    let issues = IssueCollector()
    let runLine = #line + 2
    let store = Store(initialState: 0) {
      Reduce<Int, Int> { _, _ in .run { _ in throw Failure() } }
    }
    await withIssueReporter(issues) { await store.send(1).finish() }
    #expect(
      issues.locations == [
        IssueLocation(fileID: #fileID, filePath: #filePath, line: runLine, column: 39)
      ])
  }

  @Test func catchTurnsAnEffectErrorIntoAnAction() async {
    struct Failure: Error {}
    let store = Store(initialState: [String]()) {
      Reduce<[String], String> { state, action in
        state.append(action)
        return action == "load"
          ? .run { _ in
            throw Failure()
          } catch: { _, send in
            await send("failed")
          } : .none
      }
    }
    await store.send("load").finish()
    #expect(store.state == ["load", "failed"])
  }
}

private struct Parent: Reducer {
  struct State: Equatable { var counter = Counter.State() }
  enum Action: Equatable { case counter(Counter.Action) }

  var body: some ReducerOf<Self> {
    Scope(state: \.counter, action: .case(Action.counter)) { Counter() }
  }
}
