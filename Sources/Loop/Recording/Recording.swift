/// What a store processed, in order, as text: the state it started from, the inputs that drove
/// it, the values its dependencies handed out, and each action with the change it made.
///
/// A ``Recorder`` makes one as a store runs; `replay` (in `LoopTesting`) runs the same inputs
/// again and checks every step against it. Nothing is decoded back into values: actions and
/// states are kept as Loop's structural dump (what a `TestStore` failure shows), so a feature's
/// `State` and `Action` need not be `Codable`.
///
/// ## The text form
/// Line-oriented, versioned and append-only, so that a file written as the store runs loses at
/// most the entry being written when the process dies, and reads well in a diff:
///
/// ```text
/// loop-recording 1
/// initial
/// | Counter.State(
/// |   count: 0
/// | )
/// input increment
/// value date 2025-03-15T01:00:00.000Z
/// send Counter.Action.incrementSubmitted
/// state
/// |   Counter.State(
/// | −   count: 0
/// | +   count: 1
/// |   )
/// ```
///
/// Each entry is a tag (`initial`, `input`, `value NAME`, `send`, `receive`, `state`) followed by
/// its text: on the same line when it is one line, else on the lines after it, each starting
/// `| `. A `send` is an action sent from outside, a `receive` one an effect (or `Effect.send`)
/// sent; a `state` entry after either is the change the action made, as a diff against the state
/// before it (`−` before, `+` after), and no `state` entry means the action changed nothing.
///
/// NB: storing each state as a change rather than in full keeps a file proportional to what
/// happened rather than to the size of the state times the number of steps. The replay still
/// checks whole states: it starts from the recorded `initial` state, checked in full, and
/// compares each step's change with the recorded one; a diff shows every value that differs
/// (it leaves out only values equal on both sides), so equal changes from equal states give equal
/// states, and the first step whose state differs is the first whose change differs. A replay
/// that diverges rebuilds the recorded state from the state before the step and the recorded
/// change, and shows it against its own.
public struct Recording: Equatable, Sendable {
  /// The first line of a recording's text: its format and version.
  public static let header = "loop-recording \(version)"

  /// The version of the text form this Loop writes and reads.
  public static let version = 1

  /// One thing a recording holds.
  public enum Entry: Equatable, Sendable {
    /// The state the store started from, in full.
    case initialState(String)
    /// Something given to the app from outside, which a replay re-issues: a command typed.
    case input(String)
    /// A value a dependency handed out (a date, a UUID, a file's contents), by name.
    case value(name: String, String)
    /// An action the store processed and the change it made to the state (`nil` for none).
    case step(action: String, isReceived: Bool, change: String?)
  }

  /// The entries, in the order they happened.
  public var entries: [Entry]

  /// Creates a recording of `entries`.
  public init(entries: [Entry] = []) {
    self.entries = entries
  }

  /// The recording's text form, starting with ``header``.
  public var text: String {
    Self.header + "\n" + entries.map(\.text).joined()
  }

  /// The values named `name`, in the order they were handed out.
  ///
  /// - Parameter name: The value's name, such as `date`.
  /// - Returns: The values' text.
  public func values(named name: String) -> [String] {
    entries.compactMap {
      guard case .value(name, let value) = $0 else { return nil }
      return value
    }
  }

  /// The inputs, in order.
  public var inputs: [String] {
    entries.compactMap {
      guard case .input(let input) = $0 else { return nil }
      return input
    }
  }

  /// The steps, in order.
  var steps: [(action: String, isReceived: Bool, change: String?)] {
    entries.compactMap {
      guard case .step(let action, let isReceived, let change) = $0 else { return nil }
      return (action, isReceived, change)
    }
  }

  /// The state the store started from, if the recording has it.
  var initialState: String? {
    for case .initialState(let state) in entries { return state }
    return nil
  }
}

extension Recording.Entry {
  /// The entry's lines in the text form, each ending with a newline.
  public var text: String {
    switch self {
    case .initialState(let state): Self.lines("initial", state)
    case .input(let input): Self.lines("input", input)
    case .value(let name, let value): Self.lines("value \(name)", value)
    case .step(let action, let isReceived, let change):
      Self.lines(isReceived ? "receive" : "send", action)
        + (change.map { Self.lines("state", $0, alwaysBelow: true) } ?? "")
    }
  }

  /// `tag text` when the text is one line, else `tag` and a `| ` line per line of text.
  private static func lines(_ tag: String, _ text: String, alwaysBelow: Bool = false) -> String {
    if !alwaysBelow, !text.contains("\n"), !text.isEmpty { return "\(tag) \(text)\n" }
    return "\(tag)\n"
      + text.split(separator: "\n", omittingEmptySubsequences: false).map { "| \($0)\n" }.joined()
  }
}

// MARK: - Reading

extension Recording {
  /// Reads a recording from its text form.
  ///
  /// - Parameter text: The text, as ``text`` writes it.
  /// - Throws: ``RecordingError`` when the text is not a recording, is of a newer version, was
  ///   cut off in the middle of a line, or has a line no entry starts with.
  public init(text: String) throws(RecordingError) {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    guard let first = lines.first, first.hasPrefix("loop-recording ") else {
      throw .notARecording
    }
    guard let version = Int(first.dropFirst("loop-recording ".count)) else {
      throw .notARecording
    }
    guard version <= Self.version else { throw .newerVersion(version) }
    guard lines.last == "" else { throw .truncated(line: lines.count) }
    lines.removeLast()

    var entries: [Entry] = []
    var index = 1
    /// The text of the entry whose tag line is at `index - 1`: after the tag, or below it.
    func payload(after tag: Substring) -> String {
      var text: [Substring] = []
      let inline = tag.isEmpty ? nil : tag
      while index < lines.count, lines[index].hasPrefix("|") {
        text.append(lines[index].dropFirst(lines[index].hasPrefix("| ") ? 2 : 1))
        index += 1
      }
      if let inline, text.isEmpty { return String(inline) }
      return text.joined(separator: "\n")
    }
    while index < lines.count {
      let line = lines[index]
      let lineNumber = index + 1
      index += 1
      let tag = line.prefix { $0 != " " }
      let rest = line.dropFirst(tag.count).drop { $0 == " " }
      switch tag {
      case "initial": entries.append(.initialState(payload(after: rest)))
      case "input": entries.append(.input(payload(after: rest)))
      case "value":
        let name = rest.prefix { $0 != " " }
        guard !name.isEmpty else { throw .malformed(line: lineNumber, String(line)) }
        let value = rest.dropFirst(name.count).drop { $0 == " " }
        entries.append(.value(name: String(name), payload(after: value)))
      case "send", "receive":
        let action = payload(after: rest)
        var change: String?
        if index < lines.count, lines[index] == "state" {
          index += 1
          change = payload(after: "")
        }
        entries.append(.step(action: action, isReceived: tag == "receive", change: change))
      default:
        throw .malformed(line: lineNumber, String(line))
      }
    }
    self.init(entries: entries)
  }
}

/// Why a text is not a recording Loop can replay.
public enum RecordingError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The text does not start with a recording's header.
  case notARecording
  /// The recording was written by a newer Loop, in this version of the format.
  case newerVersion(Int)
  /// The text ends in the middle of this line: it was cut off while being written.
  case truncated(line: Int)
  /// This line starts no entry.
  case malformed(line: Int, String)

  /// One sentence, to follow the recording's name.
  public var description: String {
    switch self {
    case .notARecording:
      "is not a Loop recording: it does not start with '\(Recording.header)'"
    case .newerVersion(let version):
      "was recorded by a newer Loop (format \(version); this one reads up to \(Recording.version))"
    case .truncated(let line):
      "ends in the middle of line \(line): it was cut off while being written"
    case .malformed(let line, let text):
      "has a line that starts no entry, line \(line): '\(text)'"
    }
  }
}
