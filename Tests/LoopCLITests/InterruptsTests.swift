import Testing

@testable import LoopCLI

/// How a key reaches the running command (InterruptTests press it through a terminal).
@MainActor
@Suite struct InterruptsTests {
  @Test func aKeyPressedBeforeTheCommandsFirstSuspensionCancelsItOnceItWaits() async {
    let interrupts = Interrupts()
    let cancelled = await interrupts.cancellingOnInterrupt {
      // NB: the key comes while the command still runs without suspending, before its task
      // exists (as while a large import's file is read and checked).
      interrupts.interrupt()
      try? await Task.sleep(for: .seconds(10))
      return Task.isCancelled
    }
    #expect(cancelled)
  }

  @Test func aKeyPressedAtThePromptDoesNotCancelTheNextCommand() async {
    let interrupts = Interrupts()
    interrupts.interrupt()
    let cancelled = await interrupts.cancellingOnInterrupt {
      await Task.yield()
      return Task.isCancelled
    }
    #expect(!cancelled)
  }

  @Test func aKeyPressedAfterACommandEndedDoesNotCancelTheNextOne() async {
    let interrupts = Interrupts()
    _ = await interrupts.cancellingOnInterrupt { await Task.yield() }
    interrupts.interrupt()
    let cancelled = await interrupts.cancellingOnInterrupt {
      await Task.yield()
      return Task.isCancelled
    }
    #expect(!cancelled)
  }
}
