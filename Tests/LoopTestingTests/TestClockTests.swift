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

  @Test func aZeroLengthSleepWaitsForTheNextAdvance() async throws {
    let clock = TestClock()
    let woke = Recorder()
    let task = Task {
      try await clock.sleep(for: .zero)
      woke.append("woke")
    }
    // NB: moving to a time already past lets the sleeper run until it waits, and wakes no one.
    await clock.advance(to: TestClock.Instant(offset: .seconds(-1)))
    #expect(woke.values == [])
    await clock.advance()
    try await task.value
    #expect(woke.values == ["woke"])
  }

  @Test func aTimerTicksAsTheClockAdvances() async {
    let clock = TestClock()
    let ticks = Recorder()
    let task = Task {
      for await tick in clock.timer(interval: .seconds(2)) {
        ticks.append("\(tick)")
      }
      ticks.append("ended")
    }
    await clock.advance(by: .seconds(1))
    #expect(ticks.values == [])
    await clock.advance(by: .seconds(1))
    #expect(ticks.values == ["2.0 seconds"])
    await clock.advance(by: .seconds(5))
    #expect(ticks.values == ["2.0 seconds", "4.0 seconds", "6.0 seconds"])
    task.cancel()
    await task.value
    #expect(ticks.values == ["2.0 seconds", "4.0 seconds", "6.0 seconds", "ended"])
  }

  @Test func aTimerRunsOnTheClockOfTheContinuousClockDependency() async {
    let clock: any Clock<Duration> = ImmediateClock()
    var ticks = 0
    for await _ in clock.timer(interval: .seconds(1)) {
      ticks += 1
      if ticks == 3 { break }
    }
    #expect(ticks == 3)
    #expect((clock as? ImmediateClock)?.now == TestClock.Instant(offset: .seconds(3)))
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
