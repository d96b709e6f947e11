import Loop
import Testing

/// `Task.cancel(id:)` inside the effect that carries the id, and `withTaskCancellation(id:)`
/// (TCA's `EffectRunTests` and `TaskCancellationTests`, ported).
@MainActor
@Suite struct TaskCancellationTests {
  private enum CancelID { case response, work }

  @Test func anEffectCancellingItsOwnIdIsCancelledAtOnce() async {
    let store = Store(initialState: [String]()) {
      Reduce<[String], String> { state, action in
        state.append(action)
        guard action == "tapped" else { return .none }
        return .run { send in
          Task.cancel(id: CancelID.response)
          try Task.checkCancellation()
          await send("response")
        }
        .cancellable(id: CancelID.response)
      }
    }
    await store.send("tapped").finish()
    #expect(store.state == ["tapped"])
  }

  @Test func anEffectCancellingItsOwnIdSendsNothingFromItsCatch() async {
    let store = Store(initialState: [String]()) {
      Reduce<[String], String> { state, action in
        state.append(action)
        guard action == "tapped" else { return .none }
        return .run { send in
          Task.cancel(id: CancelID.response)
          try Task.checkCancellation()
          await send("responseA")
        } catch: { _, send in
          await send("responseB")
        }
        .cancellable(id: CancelID.response)
      }
    }
    await store.send("tapped").finish()
    #expect(store.state == ["tapped"])
  }

  @Test func withTaskCancellationOutsideAStoreIsCancelledByTaskCancelID() async {
    let task = Task.immediate { @MainActor in
      try await withTaskCancellation(id: CancelID.work) {
        try await Task.sleep(for: .seconds(3600))
        return "finished"
      }
    }
    Task.cancel(id: CancelID.work)
    let result = await task.result
    #expect(throws: CancellationError.self) { try result.get() }
  }

  @Test func withTaskCancellationCancelsTheOperationInFlightWithItsId() async {
    let first = Task.immediate { @MainActor in
      try await withTaskCancellation(id: CancelID.work) {
        try await Task.sleep(for: .seconds(3600))
        return "first"
      }
    }
    let second = await withTaskCancellation(id: CancelID.work, cancelInFlight: true) {
      "second"
    }
    #expect(second == "second")
    let result = await first.result
    #expect(throws: CancellationError.self) { try result.get() }
  }

  @Test func withTaskCancellationInAnEffectIsCancelledByItsFeature() async {
    let store = Store(initialState: [String]()) {
      Reduce<[String], String> { state, action in
        state.append(action)
        switch action {
        case "start":
          return .run { send in
            do {
              try await withTaskCancellation(id: CancelID.work) {
                try await Task.sleep(for: .seconds(3600))
              }
            } catch {
              await send("stopped")
            }
          }
        case "cancel":
          return .cancel(id: CancelID.work)
        default:
          return .none
        }
      }
    }
    let task = store.send("start")
    store.send("cancel")
    await task.finish()
    #expect(store.state == ["start", "cancel", "stopped"])
  }
}
