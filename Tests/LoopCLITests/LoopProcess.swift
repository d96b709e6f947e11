import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A running `loop` binary driven a line at a time: a command written to its standard input,
/// its answer read from standard output, and `SIGKILL` whenever a test chooses.
final class LoopProcess {
  private let process = Process()
  private let input = Pipe()
  let output = Lines()
  let errors = Lines()

  /// Starts `loop` with `arguments`, its data home in `dataHome`; with `umask` (`"022"`), under
  /// that umask.
  init(_ arguments: [String], dataHome: URL, umask: String? = nil) throws {
    // NB: a process that stopped reading (it exited) makes a write to its standard input raise
    // SIGPIPE, which would end the whole test run; ignored, the write throws instead.
    signal(SIGPIPE, SIG_IGN)
    try process.runLoop(arguments, umask: umask)
    var environment = ProcessInfo.processInfo.environment
    environment["XDG_DATA_HOME"] = dataHome.path
    process.environment = environment
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardInput = input
    process.standardOutput = stdout
    process.standardError = stderr
    try process.run()
    output.read(stdout.fileHandleForReading)
    errors.read(stderr.fileHandleForReading)
  }

  /// Writes one line to the process's standard input.
  func send(_ line: String) throws {
    try input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
  }

  /// Closes standard input (the end of the script) and waits for the process to exit.
  ///
  /// - Returns: The exit status.
  func finish() throws -> Int32 {
    try input.fileHandleForWriting.close()
    process.waitUntilExit()
    return process.terminationStatus
  }

  /// Kills the process with `SIGKILL`, whatever it is doing, and waits until it is gone.
  func kill() {
    if process.isRunning { sendKill(process.processIdentifier) }
    process.waitUntilExit()
    try? input.fileHandleForWriting.close()
  }

  /// Text a process writes, split into lines as they arrive.
  ///
  /// NB: `@unchecked Sendable`: every property is read and written under `condition`'s lock.
  final class Lines: @unchecked Sendable {
    private let condition = NSCondition()
    private var pending = Data()
    private var lines: [String] = []
    private var isClosed = false

    /// Reads `handle` on a thread of its own until it closes.
    fileprivate func read(_ handle: FileHandle) {
      Thread {
        while true {
          let data = handle.availableData
          self.append(data)
          if data.isEmpty { return }
        }
      }.start()
    }

    private func append(_ data: Data) {
      condition.lock()
      defer { condition.unlock() }
      if data.isEmpty { isClosed = true }
      pending.append(data)
      while let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
        lines.append(String(decoding: pending[pending.startIndex..<end], as: UTF8.self))
        pending = Data(pending[(end + 1)...])
      }
      condition.broadcast()
    }

    /// The next whole line, waiting for it until `deadline`; `nil` when the deadline passes or
    /// the stream closes first.
    func next(before deadline: Date) -> String? {
      condition.lock()
      defer { condition.unlock() }
      while lines.isEmpty, !isClosed {
        guard condition.wait(until: deadline) else { break }
      }
      return lines.isEmpty ? nil : lines.removeFirst()
    }

    /// Every line not taken yet, once the stream has closed (waiting at most `timeout`).
    func rest(timeout: TimeInterval = 10) -> [String] {
      let deadline = Date(timeIntervalSinceNow: timeout)
      condition.lock()
      defer { condition.unlock() }
      while !isClosed, condition.wait(until: deadline) {}
      defer { lines.removeAll() }
      return lines
    }
  }
}

/// `kill(2)` with `SIGKILL` (a free function: inside ``LoopProcess`` the name is its method's).
private func sendKill(_ process: pid_t) {
  _ = kill(process, SIGKILL)
}
