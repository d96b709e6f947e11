import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The `loop` binary run at a pseudo-terminal, as a person runs it: its standard input, output
/// and error are the terminal, which is its controlling terminal, so the keys a test types go
/// through the terminal's line discipline (Ctrl-C becomes SIGINT for `loop`).
///
/// NB: `@unchecked Sendable`: the output is read and written under `condition`'s lock (and its
/// own mutex); the rest is set once, before the reading thread starts.
final class TerminalProcess: @unchecked Sendable {
  private let master: Int32
  let pid: pid_t
  private let output = Mutex("")
  private let condition = NSCondition()
  private var isClosed = false

  /// A failure to start the process, with the call that failed.
  struct StartFailed: Error, CustomStringConvertible {
    var call: String
    var description: String { "could not start loop at a pseudo-terminal: \(call) failed" }
  }

  /// Starts `loop` with `arguments` at a new pseudo-terminal, in a session of its own; its
  /// data home is `dataHome`, and `environment` is added to the test's.
  init(_ arguments: [String], dataHome: URL, environment extra: [String: String] = [:]) throws {
    let master = try Self.openTerminal()
    self.master = master.descriptor
    let terminal = master.name

    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    // NB: opened after the child's `setsid`, the terminal becomes its controlling terminal.
    posix_spawn_file_actions_addopen(&actions, 0, terminal, O_RDWR, 0)
    posix_spawn_file_actions_adddup2(&actions, 0, 1)
    posix_spawn_file_actions_adddup2(&actions, 0, 2)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    // NB: glibc's POSIX_SPAWN_SETSID, which Swift's Glibc module does not import.
    posix_spawnattr_setflags(&attributes, 0x80)

    var environment = ProcessInfo.processInfo.environment
    environment["XDG_DATA_HOME"] = dataHome.path
    environment["TERM"] = "xterm"
    environment.removeValue(forKey: "NO_COLOR")
    environment.merge(extra) { $1 }
    let path = try loopBinary().path
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      for pointer in argv { free(pointer) }
      for pointer in envp { free(pointer) }
    }
    var pid: pid_t = 0
    guard posix_spawn(&pid, path, &actions, &attributes, argv, envp) == 0 else {
      close(master.descriptor)
      throw StartFailed(call: "posix_spawn")
    }
    self.pid = pid
    Thread { [self] in readUntilClosed() }.start()
  }

  deinit {
    close(master)
  }

  /// Opens a new pseudo-terminal: its master's descriptor, and the path of its terminal.
  ///
  /// NB: through `dlsym`: Swift's Glibc module does not import `posix_openpt` and its kin
  /// (they need `_XOPEN_SOURCE`), though libc has them.
  private static func openTerminal() throws -> (descriptor: Int32, name: String) {
    typealias Open = @convention(c) (Int32) -> Int32
    typealias Prepare = @convention(c) (Int32) -> Int32
    typealias Name = @convention(c) (Int32, UnsafeMutablePointer<CChar>?, Int) -> Int32
    func function<T>(_ name: String, as type: T.Type) throws -> T {
      guard let symbol = dlsym(nil, name) else { throw StartFailed(call: name) }
      return unsafeBitCast(symbol, to: type)
    }
    let open = try function("posix_openpt", as: Open.self)
    let grant = try function("grantpt", as: Prepare.self)
    let unlock = try function("unlockpt", as: Prepare.self)
    let name = try function("ptsname_r", as: Name.self)
    let master = open(O_RDWR | O_NOCTTY)
    guard master >= 0 else { throw StartFailed(call: "posix_openpt") }
    _ = fcntl(master, F_SETFD, FD_CLOEXEC)
    var buffer = [CChar](repeating: 0, count: 128)
    guard grant(master) == 0, unlock(master) == 0, name(master, &buffer, buffer.count) == 0
    else {
      close(master)
      throw StartFailed(call: "grantpt, unlockpt or ptsname_r")
    }
    let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    return (master, String(decoding: bytes, as: UTF8.self))
  }

  private func readUntilClosed() {
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = read(master, &buffer, buffer.count)
      if count < 0, errno == EINTR { continue }
      condition.lock()
      if count <= 0 {
        isClosed = true
      } else {
        output.withLock { $0 += String(decoding: buffer[0..<count], as: UTF8.self) }
      }
      condition.broadcast()
      condition.unlock()
      if count <= 0 { return }
    }
  }

  /// Types `text` at the terminal (a line ends with `\r`, as the return key sends).
  func type(_ text: String) {
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
  }

  /// Everything the terminal showed so far, its line breaks as `\n`.
  var shown: String {
    output.withLock { $0 }.replacingOccurrences(of: "\r\n", with: "\n")
  }

  /// Waits until the terminal shows `text` more often than `count` times (or the process ends),
  /// at most `timeout` seconds.
  ///
  /// - Returns: Whether it did.
  @discardableResult
  func waitFor(_ text: String, moreThan count: Int = 0, timeout: TimeInterval = 120) -> Bool {
    let deadline = Date(timeIntervalSinceNow: timeout)
    condition.lock()
    defer { condition.unlock() }
    while true {
      if shown.components(separatedBy: text).count - 1 > count { return true }
      if isClosed || !condition.wait(until: deadline) { return false }
    }
  }

  /// Ends the session with `exit` and waits for the process to exit.
  ///
  /// - Returns: Its exit status, or `nil` when a signal ended it.
  func finish() -> Int32? {
    // NB: `exit`, not Ctrl-D: libedit may still be setting up the terminal when the prompt shows,
    // and a Ctrl-D typed then is lost (ordinary keys are kept).
    type("exit\r")
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    // NB: WIFEXITED and WEXITSTATUS, which are macros.
    return status & 0x7F == 0 ? (status >> 8) & 0xFF : nil
  }
}
