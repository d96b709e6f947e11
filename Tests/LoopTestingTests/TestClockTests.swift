import LoopTesting
import Synchronization
import Testing

@Suite struct TestClockTests {
  @Test func sleepersWakeInDeadlineOrderAsTimeAdvances() async {
    let clock = TestClock()
    let woke = Recorder()
    let late = Task {
      try await clock.sleep(for: .seconds(3))
      woke.append("3s")
    }
    let early = Task {
      try await clock.sleep(for: .seconds(1))
      woke.append("1s")
    }
    await clock.advance(by: .seconds(2))
    #expect(woke.values == ["1s"])
    #expect(clock.now == TestClock.Instant(offset: .seconds(2)))
    await clock.advance(by: .seconds(1))
    _ = try? await (early.value, late.value)
    #expect(woke.values == ["1s", "3s"])
  }

  @Test func runWakesEverySleeper() async throws {
    let clock = TestClock()
    let task = Task {
      try await clock.sleep(for: .seconds(60))
      try await clock.sleep(for: .seconds(60))
      return clock.now
    }
    await clock.run()
    let wokeAt = try await task.value
    #expect(wokeAt == TestClock.Instant(offset: .seconds(120)))
  }

  @Test func cancellingASleeperThrowsCancellationError() async {
    let clock = TestClock()
    let task = Task { try await clock.sleep(for: .seconds(1)) }
    task.cancel()
    await #expect(throws: CancellationError.self) { try await task.value }
  }

  @Test func theImmediateClockNeverWaitsButKeepsTime() async throws {
    let clock = ImmediateClock()
    try await clock.sleep(for: .seconds(3600))
    try await clock.sleep(for: .seconds(1))
    #expect(clock.now == TestClock.Instant(offset: .seconds(3601)))
  }
}

/// Records strings from any task, in order.
private final class Recorder: Sendable {
  private let storage = Mutex<[String]>([])

  func append(_ value: String) { storage.withLock { $0.append(value) } }
  var values: [String] { storage.withLock { $0 } }
}
