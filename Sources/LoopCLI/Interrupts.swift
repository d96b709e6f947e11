import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Ctrl-C in an interactive session: at the prompt it abandons the line being typed
/// (``EditLineReader``); while a command runs it cancels the command.
///
/// ```swift
/// let outcome = await interrupts.cancellingOnInterrupt { await session.execute(line) }
/// ```
///
/// The process's SIGINT handler (``installed``) only notes the key and writes a byte to a pipe;
/// a thread of its own reads the pipe and calls ``interrupt()``, which cancels the task of the
/// command running, if any. Cancelling a task is safe from any thread, so the key reaches the
/// command even while the main actor is busy; the command's effects are cancelled through the
/// store tasks it awaits (``Session/send(_:)``).
///
/// Tests make their own value and call ``interrupt()`` as the key would.
final class Interrupts: Sendable {
  /// What an interrupt finds.
  private enum Command {
    /// No command runs: the prompt's reader handles the key.
    case none
    /// A command has started and runs, on the main actor, up to its first suspension, before
    /// its task exists; `interrupted` when the key came meanwhile.
    case starting(interrupted: Bool)
    /// A command runs in a task, which this cancels.
    case running(@Sendable () -> Void)
  }

  private let command = Mutex<Command>(.none)

  /// Creates interrupts that only ``interrupt()`` triggers.
  init() {}

  /// The process's interrupts, with the SIGINT handler and its thread installed (once).
  static let installed: Interrupts = {
    let interrupts = Interrupts()
    Signal.install(on: interrupts)
    return interrupts
  }()

  /// Runs a command in a task of its own, which an interrupt meanwhile cancels.
  ///
  /// A key pressed before the command's first suspension (a large import's file is read and
  /// checked before its effect starts) cancels the task as soon as it exists.
  ///
  /// - Parameter command: The command; it runs on the main actor.
  /// - Returns: What it returned.
  @MainActor
  func cancellingOnInterrupt<T: Sendable>(
    _ command: @escaping @MainActor () async -> T
  ) async -> T {
    self.command.withLock { $0 = .starting(interrupted: false) }
    defer { self.command.withLock { $0 = .none } }
    // NB: started immediately, so a command that never suspends runs exactly as it would
    // without this; the task exists only so that an interrupt has something to cancel.
    let task = Task.immediate { @MainActor in await command() }
    let interrupted = self.command.withLock { state in
      defer { state = .running { task.cancel() } }
      guard case .starting(interrupted: true) = state else { return false }
      return true
    }
    if interrupted { task.cancel() }
    return await task.value
  }

  /// Cancels the running command, if one is running (or notes the key for the command
  /// starting); at the prompt it does nothing.
  func interrupt() {
    let cancel = command.withLock { state -> (@Sendable () -> Void)? in
      switch state {
      case .none: return nil
      case .starting:
        state = .starting(interrupted: true)
        return nil
      case .running(let cancel): return cancel
      }
    }
    cancel?()
  }
}

/// The SIGINT handler, and what it shares with the thread reading a line and the thread that
/// turns the key into ``Interrupts/interrupt()``.
///
/// NB: a signal handler may only do async-signal-safe work: it sets a flag, writes one byte to
/// a pipe, and forwards the signal to the thread in `readline` (the kernel delivers it to any
/// thread that does not block it, and the main actor does not always run on the process's first
/// thread); `readline`'s `read` must be the one interrupted. The pipe's reader, a thread that
/// does not block SIGINT either (so a key pressed while a command runs is delivered at once, not
/// left pending until the next prompt), calls ``Interrupts/interrupt()``.
enum Signal {
  /// Whether Ctrl-C was pressed since ``readingStarted()``.
  static let flag = Atomic<Bool>(false)
  /// The thread reading a line, or 0 when none is.
  static let readingThread = Atomic<UInt>(0)
  /// The pipe's write end, or -1 before ``install(on:)``.
  static let pipeInput = Atomic<Int32>(-1)
  /// Whether ``install(on:)`` ran.
  private static let isInstalled = Atomic<Bool>(false)

  /// Whether Ctrl-C was pressed since ``readingStarted()``.
  static var happened: Bool { flag.load(ordering: .sequentiallyConsistent) }

  /// Clears the flag and notes that this thread is about to read a line.
  static func readingStarted() {
    flag.store(false, ordering: .sequentiallyConsistent)
    #if canImport(Glibc)
      readingThread.store(UInt(pthread_self()), ordering: .sequentiallyConsistent)
    #endif
  }

  /// Notes that no thread reads a line: a key pressed now is for the running command.
  static func readingEnded() {
    readingThread.store(0, ordering: .sequentiallyConsistent)
  }

  /// Installs the handler, once per process, and starts the thread that hands each key to
  /// `interrupts`.
  static func install(on interrupts: Interrupts) {
    guard
      isInstalled.compareExchange(
        expected: false, desired: true, ordering: .sequentiallyConsistent
      ).exchanged
    else { return }
    var ends: [Int32] = [-1, -1]
    if pipe(&ends) == 0 {
      pipeInput.store(ends[1], ordering: .sequentiallyConsistent)
      let output = ends[0]
      Thread {
        var interrupt = sigset_t()
        sigemptyset(&interrupt)
        sigaddset(&interrupt, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &interrupt, nil)
        var byte: UInt8 = 0
        while true {
          let count = read(output, &byte, 1)
          if count == 1 {
            interrupts.interrupt()
          } else if count < 0, errno == EINTR {
            continue
          } else {
            return
          }
        }
      }.start()
    }
    var action = sigaction()
    #if canImport(Glibc)
      action.__sigaction_handler.sa_handler = { signal in
        Signal.flag.store(true, ordering: .sequentiallyConsistent)
        var byte: UInt8 = 1
        let input = Signal.pipeInput.load(ordering: .sequentiallyConsistent)
        if input >= 0 { _ = write(input, &byte, 1) }
        let reader = Signal.readingThread.load(ordering: .sequentiallyConsistent)
        if reader != 0, pthread_self() != pthread_t(reader) {
          pthread_kill(pthread_t(reader), signal)
        }
      }
    #else
      action.__sigaction_u.__sa_handler = { _ in
        Signal.flag.store(true, ordering: .sequentiallyConsistent)
        var byte: UInt8 = 1
        let input = Signal.pipeInput.load(ordering: .sequentiallyConsistent)
        if input >= 0 { _ = write(input, &byte, 1) }
      }
    #endif
    sigemptyset(&action.sa_mask)
    // NB: no SA_RESTART, so that the read in `readline` is interrupted and returns.
    action.sa_flags = 0
    sigaction(SIGINT, &action, nil)
  }
}
