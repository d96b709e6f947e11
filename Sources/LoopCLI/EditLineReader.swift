import Foundation
import Loop
import Persistence
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads lines on a terminal with the system's libedit, loaded at run time: line editing, a
/// history kept in a file, and tab completion of commands.
///
/// There is no build-time dependency on libedit: ``load(historyPath:completions:)`` opens
/// `libedit.so.2` with `dlopen` and returns `nil` when it (or one of its functions) is
/// missing, and the REPL falls back to ``PlainLineReader``.
///
/// Ctrl-C at the prompt abandons the line being typed and shows a fresh prompt; while a command
/// runs, it cancels the command (see ``Interrupts``).
public final class EditLineReader: LineReader {
  private typealias ReadLineFunction =
    @convention(c) (UnsafePointer<CChar>?) -> UnsafeMutablePointer<CChar>?
  private typealias PathFunction = @convention(c) (UnsafePointer<CChar>?) -> Int32
  private typealias StifleFunction = @convention(c) (Int32) -> Void

  private let readLineFunction: ReadLineFunction
  private let addHistoryFunction: PathFunction
  private let writeHistoryFunction: PathFunction
  private let historyPath: String?

  private init(
    readLine: ReadLineFunction, addHistory: PathFunction, writeHistory: PathFunction,
    historyPath: String?
  ) {
    self.readLineFunction = readLine
    self.addHistoryFunction = addHistory
    self.writeHistoryFunction = writeHistory
    self.historyPath = historyPath
  }

  /// Loads libedit, reads the history file and installs tab completion and the Ctrl-C handler.
  ///
  /// - Parameters:
  ///   - historyPath: The history file, read now and written after each command (its folder is
  ///     created); `nil` keeps no history across sessions.
  ///   - completions: The candidates for the word being typed, given the words before it and
  ///     what is typed of it.
  /// - Returns: The reader, or `nil` when libedit cannot be loaded.
  public static func load(
    historyPath: String?,
    completions: @escaping @Sendable (_ previous: [String], _ prefix: String) -> [String]
  ) -> EditLineReader? {
    guard let library = dlopen("libedit.so.2", RTLD_NOW | RTLD_LOCAL) else { return nil }
    func symbol<T>(_ name: String, as type: T.Type) -> T? {
      dlsym(library, name).map { unsafeBitCast($0, to: type) }
    }
    guard
      let readLine = symbol("readline", as: ReadLineFunction.self),
      let addHistory = symbol("add_history", as: PathFunction.self),
      let readHistory = symbol("read_history", as: PathFunction.self),
      let writeHistory = symbol("write_history", as: PathFunction.self),
      let stifleHistory = symbol("stifle_history", as: StifleFunction.self)
    else { return nil }

    // NB: libedit would otherwise catch SIGINT itself and re-send it to the whole process
    // group; our handler below makes `readline` return NULL with the line abandoned.
    if let catchSignals = dlsym(library, "rl_catch_signals") {
      catchSignals.assumingMemoryBound(to: Int32.self).pointee = 0
    }
    if let name = dlsym(library, "rl_readline_name") {
      name.assumingMemoryBound(to: UnsafePointer<CChar>?.self).pointee = UnsafePointer(
        strdup("loop"))
    }
    Completion.install(library: library, completions: completions)
    _ = Interrupts.installed

    stifleHistory(1000)
    if let historyPath {
      let folder = PrivateFile.folder(of: historyPath)
      do {
        try PrivateFile.createFolder(atPath: folder)
      } catch {
        // NB: without its folder the history is not kept across sessions; the REPL works on,
        // and writing the history later fails as quietly.
      }
      // NB: a missing history file is the normal first run; read_history then reports ENOENT.
      _ = readHistory(historyPath)
    }
    return EditLineReader(
      readLine: readLine, addHistory: addHistory, writeHistory: writeHistory,
      historyPath: historyPath)
  }

  /// Reads a line with editing; Ctrl-C abandons what was typed and prompts again.
  ///
  /// - Parameter prompt: The prompt.
  /// - Returns: The line, or `nil` at Ctrl-D on an empty line.
  public func readLine(prompt: String) -> String? {
    // NB: the main actor may run on a libdispatch worker, which blocks signals: Ctrl-C must be
    // able to interrupt this thread's read.
    var interrupt = sigset_t()
    var previous = sigset_t()
    sigemptyset(&interrupt)
    sigaddset(&interrupt, SIGINT)
    pthread_sigmask(SIG_UNBLOCK, &interrupt, &previous)
    defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
    while true {
      Signal.readingStarted()
      let pointer = readLineFunction(prompt)
      Signal.readingEnded()
      guard let pointer else {
        if Signal.happened {
          FileHandle.standardOutput.write(Data("\n".utf8))
          continue
        }
        return nil
      }
      defer { free(pointer) }
      return String(cString: pointer)
    }
  }

  /// Adds a line to the history and saves the history file.
  ///
  /// - Parameter line: The command as typed.
  public func addToHistory(_ line: String) {
    _ = addHistoryFunction(line)
    if let historyPath {
      // NB: a history that cannot be saved must not stop the REPL; the commands' data is in
      // the database, not here.
      _ = writeHistoryFunction(historyPath)
    }
  }
}

/// libedit's completion hooks, which are C function pointers and so reach their Swift
/// context through this global.
private enum Completion {
  typealias Generator =
    @convention(c) (UnsafePointer<CChar>?, Int32) -> UnsafeMutablePointer<CChar>?
  typealias Matches =
    @convention(c) (UnsafePointer<CChar>?, Generator) -> UnsafeMutablePointer<
      UnsafeMutablePointer<CChar>?
    >?
  typealias Attempt =
    @convention(c) (UnsafePointer<CChar>?, Int32, Int32) -> UnsafeMutablePointer<
      UnsafeMutablePointer<CChar>?
    >?

  /// What the hooks need: set once by `install`, then read by libedit's calls on the thread
  /// that runs `readline`.
  struct Context: @unchecked Sendable {
    // NB: raw pointers into libedit's globals, only touched from `readline`'s thread.
    var lineBuffer: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
    var attemptedCompletionOver: UnsafeMutablePointer<Int32>?
    var matches: Matches
    var completions: @Sendable ([String], String) -> [String]
    var candidates: [String] = []
    var next = 0
  }

  static let context = Mutex<Context?>(nil)

  static func install(
    library: UnsafeMutableRawPointer,
    completions: @escaping @Sendable ([String], String) -> [String]
  ) {
    guard
      let lineBuffer = dlsym(library, "rl_line_buffer"),
      let matches = dlsym(library, "rl_completion_matches"),
      let attempt = dlsym(library, "rl_attempted_completion_function")
    else { return }
    context.withLock {
      $0 = Context(
        lineBuffer: lineBuffer.assumingMemoryBound(to: UnsafeMutablePointer<CChar>?.self),
        attemptedCompletionOver: dlsym(library, "rl_attempted_completion_over")?
          .assumingMemoryBound(to: Int32.self),
        matches: unsafeBitCast(matches, to: Matches.self),
        completions: completions)
    }
    attempt.assumingMemoryBound(to: Attempt?.self).pointee = { text, start, _ in
      Completion.attempt(text: text, start: Int(start))
    }
  }

  static func attempt(
    text: UnsafePointer<CChar>?, start: Int
  ) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
    let matches: Matches? = context.withLock { context in
      guard var current = context else { return nil }
      current.attemptedCompletionOver?.pointee = 1
      let line = current.lineBuffer.pointee.map { String(cString: $0) } ?? ""
      let before = String(line.utf8.prefix(start)) ?? ""
      let previous: [String]
      do {
        previous = try Tokenizer.words(in: before)
      } catch {
        // NB: an open quote before the cursor: there is nothing sensible to complete.
        previous = ["\u{0}"]
      }
      let prefix = text.map { String(cString: $0) } ?? ""
      current.candidates = current.completions(previous, prefix)
      current.next = 0
      context = current
      return current.matches
    }
    guard let matches else { return nil }
    return matches(text) { _, state in
      Completion.context.withLock { context -> UnsafeMutablePointer<CChar>? in
        guard var current = context else { return nil }
        if state == 0 { current.next = 0 }
        guard current.next < current.candidates.count else { return nil }
        let candidate = current.candidates[current.next]
        current.next += 1
        context = current
        return strdup(candidate)
      }
    }
  }
}
