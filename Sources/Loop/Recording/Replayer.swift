/// Checks a store, step by step, against a recording of the same inputs: each action it
/// processes and the change each made to the state, from the recorded initial state on.
///
/// `replay` in `LoopTesting` reports the first divergence as a test failure; `loop replay`
/// prints it. See ``Recording`` for why comparing changes from an equal start compares whole
/// states.
@MainActor
package final class Replayer<State, Action> {
  private let recording: Recording
  private let steps: [(action: String, isReceived: Bool, change: String?)]
  /// For each step, the input before it (its offset and text), if any.
  private let inputOfStep: [(Int, String)?]
  private let store: Store<State, Action>
  private let values: RecordedValues?
  private var previous: State
  private let sharedChanges: SharedChangeTracker

  /// The steps the store processed so far.
  package private(set) var stepsReplayed = 0
  /// The first divergence found, as a message: a headline, the details, how to fix.
  package private(set) var divergence: String?

  /// Starts checking `store` against `recording`: its state now must be the recorded initial
  /// state, and every action it processes from now on the next recorded step.
  ///
  /// - Parameters:
  ///   - recording: The recording.
  ///   - store: A root store made with the recorded values, not yet sent anything.
  ///   - values: The recorded values the store's dependencies hand out, to check that the
  ///     replay asks for no more than were recorded.
  package init(_ recording: Recording, store: Store<State, Action>, values: RecordedValues?) {
    guard let core = store.rootCore else {
      preconditionFailure("Replay on a root store, not one made by 'scope(state:action:)'.")
    }
    self.recording = recording
    self.steps = recording.steps
    var inputs: [(Int, String)?] = []
    var input: (Int, String)?
    for entry in recording.entries {
      switch entry {
      case .input(let text): input = ((input?.0 ?? 0) + 1, text)
      case .step: inputs.append(input)
      case .initialState, .value: break
      }
    }
    self.inputOfStep = inputs
    self.store = store
    self.values = values
    self.previous = core.state
    self.sharedChanges = core.trackingSharedChanges()
    if let initial = recording.initialState, initial != Diff.dump(core.state) {
      diverge(
        "The replay starts from another state than the recording.",
        details: Self.difference(
          recorded: initial, replayed: Diff.dump(core.state), collapsing: true)
          + "\n\n(Recorded: −, Replayed: +)")
    }
    core.didProcess = { [unowned self] processed, state in
      check(Diff.dump(processed.action), isReceived: processed.isReceived, state: state)
    }
  }

  /// Stops checking, and checks that the store processed every recorded step.
  ///
  /// - Returns: The first divergence, or `nil` when the replay matched the recording.
  package func finish() -> String? {
    store.rootCore?.didProcess = nil
    store.rootCore?.stopTrackingSharedChanges()
    if divergence == nil, stepsReplayed < steps.count {
      let next = steps[stepsReplayed]
      diverge(
        "The replay stopped at step \(stepsReplayed + 1) of \(steps.count)\(during(stepsReplayed)): "
          + "the recording goes on, the replay processed no more actions.",
        details: "Next recorded action:\n\n\(Self.prefixed(next.action, "    "))")
    }
    if divergence == nil, let name = values?.overdrawn.first {
      diverge(
        "The replay asked for more '\(name)' values than the recording has, after its last step.",
        details: nil)
    }
    return divergence
  }

  private func check(_ action: String, isReceived: Bool, state: State) {
    let step = sharedChanges.step(from: previous, to: state)
    defer {
      previous = state
      stepsReplayed += 1
    }
    guard divergence == nil else { return }
    let number = stepsReplayed + 1
    guard stepsReplayed < steps.count else {
      diverge(
        "The replay went past the recording's last step (\(steps.count)): it processed "
          + "another action.",
        details: Self.prefixed(action, "    "))
      return
    }
    let recorded = steps[stepsReplayed]
    let place = "at step \(number)\(during(stepsReplayed))"
    if recorded.action != action || recorded.isReceived != isReceived {
      func line(_ action: String, _ isReceived: Bool) -> String {
        (isReceived ? "receive " : "send ") + action
      }
      diverge(
        "The replay diverged from the recording \(place): it processed another action.",
        details: Self.difference(
          recorded: line(recorded.action, recorded.isReceived), replayed: line(action, isReceived))
          + "\n\n(Recorded: −, Replayed: +)")
      return
    }
    let change = step.change
    if change != recorded.change {
      // NB: each state dumped with its shared values as they were at its step.
      let dumpBefore = SharedAssertion.run(step.before, against: step.before) {
        Diff.dump(previous)
      }
      let dumpAfter = SharedAssertion.run(step.after, against: step.after) { Diff.dump(state) }
      diverge(
        "The replay diverged from the recording \(place), after \(Self.headline(action)): "
          + "the state does not match.",
        details: Self.stateDifference(
          before: dumpBefore, recorded: recorded.change, replayed: dumpAfter,
          replayedChange: change)
          + "\n\n(Recorded: −, Replayed: +)")
      return
    }
    if let name = values?.overdrawn.first {
      diverge(
        "The replay diverged from the recording \(place), after \(Self.headline(action)): it "
          + "asked for more '\(name)' values than the recording has.",
        details: nil)
    }
  }

  /// `, during input 3 ('link add …')` for the step at `offset`, or nothing.
  private func during(_ offset: Int) -> String {
    guard offset < inputOfStep.count, let (number, text) = inputOfStep[offset] else { return "" }
    return ", during input \(number) ('\(text)')"
  }

  private func diverge(_ headline: String, details: String?) {
    divergence =
      headline + (details.map { "\n\n" + $0 } ?? "")
      + "\n\nTo fix, find what changed since the recording was made; if the change is meant, "
      + "record the session again."
  }

  // MARK: - Rendering

  /// An action's first line, for a headline.
  private static func headline(_ action: String) -> String {
    let first = action.prefix { $0 != "\n" }
    return first.count == action.count ? action : first + "…"
  }

  /// Each line of `text` after `prefix`.
  private static func prefixed(_ text: String, _ prefix: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).map { prefix + $0 }
      .joined(separator: "\n")
  }

  /// The recorded state after a step against the replayed one, in full, showing the lines that
  /// differ with a few around them.
  ///
  /// The recorded state is rebuilt from the dump of the state before the step (the same on both
  /// sides, or an earlier step would have diverged) and the recorded change. When that fails
  /// (a recording edited by hand), the two changes' views of the state after are compared.
  private static func stateDifference(
    before dumpBefore: String, recorded: String?, replayed: String, replayedChange: String?
  ) -> String {
    if let expected = recorded.map({ applying($0, to: dumpBefore) }) ?? dumpBefore {
      return difference(recorded: expected, replayed: replayed, collapsing: true)
    }
    return partialDifference(recorded: recorded, replayed: replayedChange)
  }

  /// The dump of the state after a change, from the dump of the state before it, or `nil` when
  /// the change does not fit it.
  ///
  /// A change's context and `−` lines are the state before, with runs of unchanged siblings
  /// collapsed into `… (N unchanged)`; its context and `+` lines, the state after. So walking
  /// the dump before along the change, expanding each collapsed run from it, gives the dump
  /// after.
  static func applying(_ change: String, to before: String) -> String? {
    let full = before.split(separator: "\n", omittingEmptySubsequences: false)
    var cursor = 0
    var after: [Substring] = []
    func indentation(_ line: Substring) -> Int { line.prefix { $0 == " " }.count / 2 }
    /// The end of the value whose first line is at `start`: its nested lines, and its closing
    /// bracket.
    func end(ofValueAt start: Int) -> Int {
      let depth = indentation(full[start])
      var next = start + 1
      while next < full.count, full[next].isEmpty || indentation(full[next]) > depth { next += 1 }
      if next < full.count, indentation(full[next]) == depth,
        let last = full[start].last, last == "(" || last == "[",
        let first = full[next].drop(while: { $0 == " " }).first, first == ")" || first == "]"
      {
        next += 1
      }
      return next
    }
    for line in change.split(separator: "\n", omittingEmptySubsequences: false) {
      let body = line.count < 2 ? line.dropFirst(line.count) : line.dropFirst(2)
      switch line.first {
      case "+": after.append(body)
      case "\u{2212}":
        guard cursor < full.count, full[cursor] == body else { return nil }
        cursor += 1
      default:
        let text = body.drop { $0 == " " }
        if text.hasPrefix("… ("), text.hasSuffix(" unchanged)"),
          let count = Int(text.dropFirst(3).dropLast(11).filter { $0 != "," })
        {
          for _ in 0..<count {
            guard cursor < full.count else { return nil }
            let next = end(ofValueAt: cursor)
            after += full[cursor..<next]
            cursor = next
          }
        } else {
          guard cursor < full.count, full[cursor] == body else { return nil }
          after.append(body)
          cursor += 1
        }
      }
    }
    guard cursor == full.count else { return nil }
    return after.joined(separator: "\n")
  }

  /// The state after a step as each change shows it, one against the other.
  ///
  /// A change shows the part of the state it touched, before (`−`) and after (`+`); the state
  /// after a step, over the part either change touched, is its context and `+` lines (or, when
  /// a side changed nothing, the other side's context and `−` lines: the state before, which
  /// both share).
  private static func partialDifference(recorded: String?, replayed: String?) -> String {
    func side(_ change: String?, keeping marker: Character) -> [Substring]? {
      change.map { change in
        change.split(separator: "\n", omittingEmptySubsequences: false).filter {
          $0.first == marker || $0.first == " " || $0.isEmpty
        }.map { $0.dropFirst(2) }
      }
    }
    let recordedAfter =
      side(recorded, keeping: "+") ?? side(replayed, keeping: "\u{2212}") ?? []
    let replayedAfter =
      side(replayed, keeping: "+") ?? side(recorded, keeping: "\u{2212}") ?? []
    return difference(
      recorded: recordedAfter.joined(separator: "\n"),
      replayed: replayedAfter.joined(separator: "\n"))
  }

  /// A line diff of two texts, indented under a headline: `−` for the recorded lines, `+` for
  /// the replayed ones.
  private static func difference(
    recorded: String, replayed: String, collapsing: Bool = false
  ) -> String {
    let old = recorded.split(separator: "\n", omittingEmptySubsequences: false)
    let new = replayed.split(separator: "\n", omittingEmptySubsequences: false)
    var numbers: [Substring: Int] = [:]
    func number(_ line: Substring) -> Int {
      if let number = numbers[line] { return number }
      numbers[line] = numbers.count
      return numbers.count - 1
    }
    let alignment = Diff.align(
      oldCount: old.count, newCount: new.count, isSame: { old[$0] == new[$1] },
      keys: { ($0.map { number(old[$0]) }, $1.map { number(new[$0]) }) })
    // Each line, and whether it is a change.
    var lines: [(text: String, isChange: Bool)] = []
    for segment in Diff.segments(alignment.pairs, oldCount: old.count, newCount: new.count) {
      switch segment {
      case .match(let offset, _): lines.append(("    " + old[offset], false))
      case .gap(let oldRange, let newRange):
        lines += oldRange.map { ("  \u{2212} " + old[$0], true) }
        lines += newRange.map { ("  + " + new[$0], true) }
      }
    }
    // The distance from each line to the nearest change, in two passes.
    var distances = [Int](repeating: Int.max, count: lines.count)
    var last: Int?
    for offset in lines.indices {
      if lines[offset].isChange { last = offset }
      if let last { distances[offset] = offset - last }
    }
    last = nil
    for offset in lines.indices.reversed() {
      if lines[offset].isChange { last = offset }
      if let last { distances[offset] = min(distances[offset], last - offset) }
    }
    // The lines that open the values a change is in, so that a change shows where it is.
    var isAncestor = [Bool](repeating: false, count: lines.count)
    func indentation(_ text: String) -> Int { text.dropFirst(4).prefix { $0 == " " }.count }
    for change in lines.indices.filter({ lines[$0].isChange }).prefix(100) {
      var depth = indentation(lines[change].text)
      var offset = change
      while depth > 0, offset > 0 {
        offset -= 1
        let text = lines[offset].text
        guard !text.dropFirst(4).isEmpty, indentation(text) < depth else { continue }
        isAncestor[offset] = true
        depth = indentation(text)
      }
    }
    var shown: [String] = []
    var hidden = 0
    for (offset, line) in lines.enumerated() {
      if collapsing, distances[offset] > Diff.contextRadius, !isAncestor[offset] {
        hidden += 1
        continue
      }
      if hidden > 0 { shown.append("    … (\(hidden) lines)") }
      hidden = 0
      shown.append(line.text.allSatisfy { $0 == " " } ? "" : line.text)
    }
    if hidden > 0 { shown.append("    … (\(hidden) lines)") }
    return shown.joined(separator: "\n")
  }
}
