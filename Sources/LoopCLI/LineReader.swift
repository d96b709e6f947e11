import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where the REPL's lines come from: a terminal with line editing, a pipe, a script, a test.
@MainActor
public protocol LineReader: AnyObject {
  /// Reads one line, without its line break.
  ///
  /// - Parameter prompt: What to show first (interactive readers only).
  /// - Returns: The line, or `nil` at the end of the input (Ctrl-D).
  func readLine(prompt: String) -> String?

  /// Keeps a command in the history, for the arrow keys and the next session.
  ///
  /// - Parameter line: The command as typed.
  func addToHistory(_ line: String)
}

/// Reads standard input line by line, showing the prompt (when not empty) on standard output.
///
/// Used for pipes and scripts on standard input, and for a terminal when libedit is missing.
public final class PlainLineReader: LineReader {
  /// Creates the reader.
  public init() {}

  /// Shows the prompt and reads a line from standard input.
  ///
  /// - Parameter prompt: The prompt; nothing is shown when it is empty.
  /// - Returns: The line, or `nil` at the end of standard input.
  public func readLine(prompt: String) -> String? {
    if !prompt.isEmpty {
      FileHandle.standardOutput.write(Data(prompt.utf8))
    }
    return Swift.readLine(strippingNewline: true)
  }

  /// Keeps nothing: there is no history without line editing.
  ///
  /// - Parameter line: The command.
  public func addToHistory(_ line: String) {}
}

/// Hands out lines given in advance: a script file's, or a test's.
public final class ScriptedLineReader: LineReader {
  private var lines: ArraySlice<String>

  /// The prompts shown so far, in order (a test checks confirmations with them).
  public private(set) var prompts: [String] = []

  /// Creates a reader of `lines`.
  ///
  /// - Parameter lines: The lines, without line breaks.
  public init(lines: [String]) {
    self.lines = lines[...]
  }

  /// Creates a reader of a text's lines; a last line break ends the last line.
  ///
  /// - Parameter text: The text, lines separated by `\n` (a `\r` before it is dropped).
  public convenience init(text: String) {
    // NB: split at the byte, not the `Character`: `\r\n` is one character, so a script saved
    // on Windows was read as one line; and bytes are split without grapheme breaking.
    var lines = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
      .map { line in
        String(Substring(line.last == UInt8(ascii: "\r") ? line.dropLast() : line))
      }
    if lines.last == "" { lines.removeLast() }
    self.init(lines: lines)
  }

  /// Returns the next line.
  ///
  /// - Parameter prompt: Recorded in ``prompts`` when not empty.
  /// - Returns: The next line, or `nil` when none is left.
  public func readLine(prompt: String) -> String? {
    if !prompt.isEmpty { prompts.append(prompt) }
    return lines.popFirst()
  }

  /// Keeps nothing.
  ///
  /// - Parameter line: The command.
  public func addToHistory(_ line: String) {}
}
