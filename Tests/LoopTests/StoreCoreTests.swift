import Loop
import TestSupport
import Testing

/// A log of actions whose effects send through `.send`, at once, and after waiting for a gate.
private struct Relay: Reducer {
  let gate: Gate

  func reduce(into state: inout [String], action: String) -> Effect<String> {
    state.append(action)
    guard action == "start" else { return .none }
    return .merge(
      .run { send in await send("from the effect") },
      .send("from .send"),
      .run { [gate] send in
        await gate.wait()
        await send("later")
      })
  }
}

/// A core running `reducer` whose `didProcess` writes down each action it processed.
@MainActor
private func recordingCore<R: Reducer<[String], String>>(
  _ reducer: R
) -> (StoreCore<[String], String>, () -> [String]) {
  let core = StoreCore(
    initialState: [String](), reducer: reducer, dependencies: DependencyValues(context: .test))
  var seen: [String] = []
  core.didProcess = { processed, state in
    let source = processed.isReceived ? "received" : "sent"
    seen.append("\(source) \(processed.action) from \(processed.origin): \(state)")
  }
  return (core, { seen })
}

/// The engine a `Store` and a `TestStore` share, seen through its observation hook.
@MainActor
@Suite struct StoreCoreTests {
  @Test func didProcessSeesEachActionSentOrReceivedWithTheStateRightAfterIt() async {
    let gate = Gate()
    let (core, seen) = recordingCore(Relay(gate: gate))
    let task = core.send("start", origin: 7).task
    gate.open()
    await task?.value
    #expect(
      seen() == [
        "sent start from 7: [\"start\"]",
        "received from .send from 7: [\"start\", \"from .send\"]",
        "received from the effect from 7: [\"start\", \"from .send\", \"from the effect\"]",
        "received later from 7: [\"start\", \"from .send\", \"from the effect\", \"later\"]",
      ])
  }

  @Test func theEffectsOfAReceivedActionCarryTheOriginOfTheSendThatLedToIt() async {
    let gate = Gate()
    let (core, seen) = recordingCore(SaveThenReload(gate: gate))
    let task = core.send("save", origin: 3).task
    #expect(core.runtime.inFlight.map { "\($0.action) from \($0.origin)" } == ["saved from 3"])
    gate.open()
    await task?.value
    #expect(core.runtime.inFlight.isEmpty)
    #expect(seen().last == "received reloaded from 3: [\"save\", \"saved\", \"reloaded\"]")
  }
}
