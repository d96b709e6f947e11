import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where the REPL writes: standard output for results, standard error for errors and hints.
///
/// Tests give it closures that collect the text; the app writes to the process's streams.
public struct Console: Sendable {
  /// Writes text to standard output as is.
  public var writeOutput: @Sendable (String) -> Void

  /// Writes text to standard error as is.
  public var writeError: @Sendable (String) -> Void

  /// A console writing standard output and standard error through these two writers.
  public init(
    writeOutput: @escaping @Sendable (String) -> Void,
    writeError: @escaping @Sendable (String) -> Void
  ) {
    self.writeOutput = writeOutput
    self.writeError = writeError
  }

  /// The process's standard output and standard error, written through at once.
  public static let standard = Console(
    writeOutput: { write($0, to: .standardOutput) },
    writeError: { write($0, to: .standardError) })

  /// Writes the bytes of `text` to `handle` in place.
  ///
  /// NB: not copied into a `Data` first: `link list` writes its 200,000 lines a page at a time.
  private static func write(_ text: String, to handle: FileHandle) {
    var text = text
    text.withUTF8 { bytes in
      guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
      handle.write(
        Data(
          bytesNoCopy: UnsafeMutableRawPointer(mutating: base), count: bytes.count,
          deallocator: .none))
    }
  }

  /// Prints a line to standard output.
  func print(_ line: String = "") {
    writeOutput(line + "\n")
  }

  /// Prints a line to standard error.
  func printError(_ line: String) {
    writeError(line + "\n")
  }
}

/// What the REPL knows of the terminal it runs in.
public enum Terminal {
  /// Whether a file descriptor is a terminal.
  ///
  /// - Parameter descriptor: The file descriptor, such as `STDIN_FILENO`.
  /// - Returns: `true` for a terminal, `false` for a pipe or a file.
  public static func isTerminal(_ descriptor: Int32) -> Bool {
    isatty(descriptor) == 1
  }

  /// How many columns a terminal at a descriptor has, for tables: its window's width (or
  /// `COLUMNS`, or 80 when it says nothing); `nil` when the descriptor is no terminal.
  ///
  /// - Parameters:
  ///   - descriptor: Where the output goes.
  ///   - environment: The process's environment.
  /// - Returns: The width, or `nil` off a terminal.
  public static func width(
    _ descriptor: Int32, environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> Int? {
    guard isTerminal(descriptor) else { return nil }
    var size = winsize()
    if ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
    return environment["COLUMNS"].flatMap(Int.init).flatMap { $0 > 0 ? $0 : nil } ?? 80
  }

  /// Whether output to a descriptor may have colours: only on a terminal, and never when
  /// `NO_COLOR` is set (to anything, even the empty string).
  ///
  /// - Parameters:
  ///   - descriptor: Where the output goes.
  ///   - environment: The process's environment.
  /// - Returns: `true` when colours may be used.
  public static func usesColor(
    _ descriptor: Int32, environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> Bool {
    environment["NO_COLOR"] == nil && isTerminal(descriptor)
  }
}

/// ANSI text styles, or plain text when colours are off.
struct Style: Sendable {
  /// Whether styles are written at all.
  var isEnabled: Bool
  /// How many columns a line of a table may take: the terminal's width; `nil` off a terminal,
  /// where tables are never cut.
  var width: Int? = nil

  /// Bold text.
  func bold(_ text: String) -> String { wrap(text, "1") }
  /// Dim text.
  func dim(_ text: String) -> String { wrap(text, "2") }
  /// Red text.
  func red(_ text: String) -> String { wrap(text, "31") }
  /// Green text.
  func green(_ text: String) -> String { wrap(text, "32") }
  /// Yellow text.
  func yellow(_ text: String) -> String { wrap(text, "33") }
  /// Cyan text.
  func cyan(_ text: String) -> String { wrap(text, "36") }

  private func wrap(_ text: String, _ code: String) -> String {
    guard isEnabled, !text.isEmpty else { return text }
    return "\u{1B}[\(code)m\(text)\u{1B}[0m"
  }
}
