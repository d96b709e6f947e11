extension Diff {
  /// A child of two nodes being compared, matched between the old and the new node.
  enum Entry {
    /// The same value on both sides.
    case kept(label: String?, value: Any)
    /// The same slot on both sides, holding values that may differ.
    case paired(label: String?, old: Any, new: Any)
    /// A child of the old node only.
    case removed(label: String?, value: Any)
    /// A child of the new node only.
    case inserted(label: String?, value: Any)
  }
}

extension Diff.Printer {
  /// Returns the lines that show how `new` differs from `old`, or `nil` when they render alike.
  ///
  /// - Parameters:
  ///   - old: The old value.
  ///   - new: The new value.
  ///   - label: The field label or dictionary key written before the value, if any.
  ///   - depth: The nesting level of the first line.
  ///   - commas: Whether the value's last line takes a comma on each side.
  ///   - root: Whether the values are the root, whose enum cases are qualified by their type.
  /// - Returns: The lines, or `nil` when nothing visible changed.
  func diff(
    _ old: Any, _ new: Any, label: String?, depth: Int, commas: Diff.Commas, root: Bool
  ) -> [Diff.Line]? {
    // NB: Checking `==` first is what keeps 10,000 unchanged rows from being reflected.
    if Diff.areEqual(old, new) == true { return nil }
    isLeftSide = true
    let oldShape = shape(of: old, root: root)
    let oldInline = oldShape.node.flatMap(inlinePayload)
    isLeftSide = false
    let newShape = shape(of: new, root: root)
    let head = label.map { $0 + ": " } ?? ""
    switch (oldShape, newShape) {
    case (.text(let oldText), .text(let newText))
    where oldText.contains("\n") && newText.contains("\n"):
      return diffText(oldText, newText, head: head, depth: depth, commas: commas)
    case (.node(let oldNode), .node(let newNode))
    where Diff.kindsMatch(oldNode.kind, newNode.kind) && oldNode.open == newNode.open
      && oldInline == nil && inlinePayload(newNode) == nil:
      return diffNodes(oldNode, newNode, head: head, depth: depth, commas: commas)
    default:
      return replace(oldShape, newShape, label: label, depth: depth, commas: commas)
    }
  }

  /// Prints the old value whole, marked `−`, then the new value whole, marked `+`.
  private func replace(
    _ old: Diff.Shape, _ new: Diff.Shape, label: String?, depth: Int, commas: Diff.Commas
  ) -> [Diff.Line]? {
    var removed: [Diff.Line] = []
    var inserted: [Diff.Line] = []
    render(old, label: label, depth: depth, comma: false, marker: .removed, into: &removed)
    render(new, label: label, depth: depth, comma: false, marker: .inserted, into: &inserted)
    guard removed.map(\.text) != inserted.map(\.text) else { return nil }
    if commas.old, let last = removed.indices.last { removed[last].text += "," }
    if commas.new, let last = inserted.indices.last { inserted[last].text += "," }
    return removed + inserted
  }

  private func diffNodes(
    _ old: Diff.Node, _ new: Diff.Node, head: String, depth: Int, commas: Diff.Commas
  ) -> [Diff.Line]? {
    if let oldObject = old.object, let newObject = new.object {
      if oldObject == newObject { return nil }
      let pair = [oldObject, newObject]
      guard comparing.insert(pair).inserted else { return nil }
      defer { comparing.remove(pair) }
      return diffChildren(old, new, head: head, depth: depth, commas: commas)
    }
    return diffChildren(old, new, head: head, depth: depth, commas: commas)
  }

  private func diffChildren(
    _ old: Diff.Node, _ new: Diff.Node, head: String, depth: Int, commas: Diff.Commas
  ) -> [Diff.Line]? {
    let entries: [Diff.Entry] =
      switch (old.kind, new.kind) {
      case (.fields, _), (.payload, _): Diff.matchByPosition(old.children, new.children)
      case (.identified, .identified): Diff.matchByID(old, new)
      case (.elements, _), (.identified, _):
        matchElements(old.children.map(\.value), new.children.map(\.value))
      case (.dictionary, _): Diff.matchByKey(old, new, pairValues: true)
      case (.set, _): Diff.matchByKey(old, new, pairValues: false)
      }
    guard let body = renderEntries(entries, depth: depth + 1) else { return nil }
    let tail = commas.old || commas.new ? "," : ""
    return [Diff.Line(marker: .context, depth: depth, text: head + old.open)] + body + [
      Diff.Line(marker: .context, depth: depth, text: old.close + tail)
    ]
  }

  /// Diffs two multi-line strings line by line, inside a `"""` block.
  private func diffText(
    _ old: String, _ new: String, head: String, depth: Int, commas: Diff.Commas
  ) -> [Diff.Line]? {
    let oldLines = old.split(separator: "\n", omittingEmptySubsequences: false)
    let newLines = new.split(separator: "\n", omittingEmptySubsequences: false)
    var numbers: [Substring: Int] = [:]
    let alignment = Diff.align(
      oldCount: oldLines.count, newCount: newLines.count,
      isSame: { oldLines[$0] == newLines[$1] },
      keys: { oldRange, newRange in
        func number(_ line: Substring) -> Int {
          if let number = numbers[line] { return number }
          numbers[line] = numbers.count
          return numbers.count - 1
        }
        return (oldRange.map { number(oldLines[$0]) }, newRange.map { number(newLines[$0]) })
      })
    var changes: [[Diff.Line]?] = []
    var context: [Int: String] = [:]
    for segment in Diff.segments(
      alignment.pairs, oldCount: oldLines.count, newCount: newLines.count)
    {
      switch segment {
      case .match(_, let newOffset):
        context[changes.count] = Diff.blockLine(newLines[newOffset])
        changes.append(nil)
      case .gap(let oldRange, let newRange):
        for offset in oldRange {
          let text = Diff.blockLine(oldLines[offset])
          changes.append([Diff.Line(marker: .removed, depth: depth + 1, text: text)])
        }
        for offset in newRange {
          let text = Diff.blockLine(newLines[offset])
          changes.append([Diff.Line(marker: .inserted, depth: depth + 1, text: text)])
        }
      }
    }
    guard let body = collapse(changes, depth: depth + 1, context: { context[$0] }) else {
      return nil
    }
    let tail = commas.old || commas.new ? "," : ""
    return [Diff.Line(marker: .context, depth: depth, text: head + "\"\"\"")] + body + [
      Diff.Line(marker: .context, depth: depth + 1, text: "\"\"\"" + tail)
    ]
  }

  /// Renders matched children: the changes, unchanged one-line neighbours as context, and
  /// `… (N unchanged)` for the rest; `nil` when nothing changed.
  private func renderEntries(_ entries: [Diff.Entry], depth: Int) -> [Diff.Line]? {
    // NB: A child takes a comma on a side when a later sibling exists on that side; a line
    // shared by both sides takes one when either does (Swift allows a trailing comma).
    var commas = Array(repeating: Diff.Commas(old: false, new: false), count: entries.count)
    var later = Diff.Commas(old: false, new: false)
    for offset in entries.indices.reversed() {
      commas[offset] = later
      switch entries[offset] {
      case .kept, .paired: later = Diff.Commas(old: true, new: true)
      case .removed: later.old = true
      case .inserted: later.new = true
      }
    }
    let changes: [[Diff.Line]?] = entries.indices.map { offset in
      switch entries[offset] {
      case .kept:
        return nil
      case .paired(let label, let old, let new):
        return diff(old, new, label: label, depth: depth, commas: commas[offset], root: false)
      case .removed(let label, let value):
        var lines: [Diff.Line] = []
        render(
          value, label: label, depth: depth, comma: commas[offset].old, root: false,
          marker: .removed, into: &lines)
        return lines
      case .inserted(let label, let value):
        var lines: [Diff.Line] = []
        render(
          value, label: label, depth: depth, comma: commas[offset].new, root: false,
          marker: .inserted, into: &lines)
        return lines
      }
    }
    return collapse(changes, depth: depth) { offset in
      let label: String?
      let value: Any
      switch entries[offset] {
      case .kept(let keptLabel, let keptValue): (label, value) = (keptLabel, keptValue)
      case .paired(let pairedLabel, _, let new): (label, value) = (pairedLabel, new)
      case .removed, .inserted: return nil
      }
      guard let text = oneLine(value), text.count <= Diff.contextWidth else { return nil }
      let comma = commas[offset].old || commas[offset].new ? "," : ""
      return (label.map { $0 + ": " } ?? "") + text + comma
    }
  }

  /// Joins the lines of changed children (non-`nil` in `changes`) with context lines for the
  /// unchanged children within ``Diff/contextRadius`` of a change, and counts the rest.
  ///
  /// - Parameters:
  ///   - changes: For each child, its lines when it changed, or `nil`.
  ///   - depth: The children's nesting level.
  ///   - context: An unchanged child's one line, or `nil` to hide it.
  /// - Returns: The lines, or `nil` when no child changed.
  private func collapse(
    _ changes: [[Diff.Line]?], depth: Int, context: (Int) -> String?
  ) -> [Diff.Line]? {
    var distances = Array(repeating: Int.max, count: changes.count)
    var lastChange: Int?
    for offset in changes.indices {
      if changes[offset] != nil { lastChange = offset }
      if let lastChange { distances[offset] = offset - lastChange }
    }
    guard lastChange != nil else { return nil }
    var nextChange: Int?
    for offset in changes.indices.reversed() {
      if changes[offset] != nil { nextChange = offset }
      if let nextChange { distances[offset] = min(distances[offset], nextChange - offset) }
    }
    var lines: [Diff.Line] = []
    var hidden = 0
    func flush() {
      guard hidden > 0 else { return }
      let text = "… (\(Diff.grouped(hidden)) unchanged)"
      lines.append(Diff.Line(marker: .context, depth: depth, text: text))
      hidden = 0
    }
    for offset in changes.indices {
      if let changed = changes[offset] {
        flush()
        lines += changed
      } else if distances[offset] <= Diff.contextRadius, let text = context(offset) {
        flush()
        lines.append(Diff.Line(marker: .context, depth: depth, text: text))
      } else {
        hidden += 1
      }
    }
    flush()
    return lines
  }

  /// Matches array elements: equal prefix and suffix, then an LCS of the middle's dumps when it
  /// is small, else by position.
  private func matchElements(_ old: [Any], _ new: [Any]) -> [Diff.Entry] {
    var dumps: [String: Int] = [:]
    var multiline: Set<Int> = []
    func number(_ value: Any) -> Int {
      let text = dumpText(value)
      if let number = dumps[text] { return number }
      let number = dumps.count
      dumps[text] = number
      if text.contains("\n") { multiline.insert(number) }
      return number
    }
    var oldKeys: [Int: Int] = [:]
    var newKeys: [Int: Int] = [:]
    let alignment = Diff.align(
      oldCount: old.count, newCount: new.count,
      isSame: { Diff.areEqual(old[$0], new[$1]) ?? (dumpText(old[$0]) == dumpText(new[$1])) },
      keys: { oldRange, newRange in
        for offset in oldRange { oldKeys[offset] = number(old[offset]) }
        for offset in newRange { newKeys[offset] = number(new[offset]) }
        return (oldRange.map { oldKeys[$0, default: 0] }, newRange.map { newKeys[$0, default: 0] })
      })
    var entries: [Diff.Entry] = []
    for segment in Diff.segments(alignment.pairs, oldCount: old.count, newCount: new.count) {
      switch segment {
      case .match(_, let newOffset):
        entries.append(.kept(label: nil, value: new[newOffset]))
      case .gap(let oldRange, let newRange):
        // NB: Within an exact alignment, only multi-line values pair up, so that a changed
        // struct shows the field that changed while changed numbers read as − then +.
        var paired = 0
        while paired < min(oldRange.count, newRange.count) {
          let oldOffset = oldRange.lowerBound + paired
          let newOffset = newRange.lowerBound + paired
          let pairs =
            !alignment.exact
            || (multiline.contains(oldKeys[oldOffset, default: -1])
              && multiline.contains(newKeys[newOffset, default: -1]))
          guard pairs else { break }
          entries.append(.paired(label: nil, old: old[oldOffset], new: new[newOffset]))
          paired += 1
        }
        for offset in oldRange.dropFirst(paired) {
          entries.append(.removed(label: nil, value: old[offset]))
        }
        for offset in newRange.dropFirst(paired) {
          entries.append(.inserted(label: nil, value: new[offset]))
        }
      }
    }
    return entries
  }
}

extension Diff {
  /// Whether nodes of two kinds compare child by child.
  ///
  /// An array whose ids can't match rows (it is empty, or has a duplicate id) still compares
  /// with one whose ids can, as plain elements.
  static func kindsMatch(_ old: Node.Kind, _ new: Node.Kind) -> Bool {
    switch (old, new) {
    case (.elements, .identified), (.identified, .elements): true
    default: old == new
    }
  }

  /// Matches children slot by slot, as struct fields and enum payloads are.
  static func matchByPosition(
    _ old: [(label: String?, value: Any)], _ new: [(label: String?, value: Any)]
  ) -> [Entry] {
    (0..<max(old.count, new.count)).map { offset in
      if offset < old.count, offset < new.count {
        .paired(label: old[offset].label, old: old[offset].value, new: new[offset].value)
      } else if offset < old.count {
        .removed(label: old[offset].label, value: old[offset].value)
      } else {
        .inserted(label: new[offset].label, value: new[offset].value)
      }
    }
  }

  /// Matches rows by id.
  ///
  /// Rows whose relative order is kept (a longest increasing subsequence) pair up; moved rows
  /// print as removed at their old place and inserted at their new one.
  static func matchByID(_ old: Node, _ new: Node) -> [Entry] {
    // NB: Rows rarely move, so the ids that line up at both ends skip the hashing.
    let (oldCount, newCount) = (old.ids.count, new.ids.count)
    var prefix = 0
    while prefix < min(oldCount, newCount), old.ids[prefix] == new.ids[prefix] { prefix += 1 }
    var suffix = 0
    while suffix < min(oldCount, newCount) - prefix,
      old.ids[oldCount - 1 - suffix] == new.ids[newCount - 1 - suffix]
    {
      suffix += 1
    }
    var newOffsets: [AnyHashable: Int] = [:]
    for offset in prefix..<(newCount - suffix) { newOffsets[new.ids[offset]] = offset }
    var common: [(old: Int, new: Int)] = []
    for offset in prefix..<(oldCount - suffix) {
      if let newOffset = newOffsets[old.ids[offset]] { common.append((offset, newOffset)) }
    }
    let kept =
      (0..<prefix).map { ($0, $0) }
      + longestIncreasingSubsequence(common.map(\.new)).map { common[$0] }
      + (0..<suffix).map { (oldCount - suffix + $0, newCount - suffix + $0) }
    var entries: [Entry] = []
    for segment in segments(kept, oldCount: oldCount, newCount: newCount) {
      switch segment {
      case .match(let oldOffset, let newOffset):
        entries.append(
          .paired(
            label: nil, old: old.children[oldOffset].value, new: new.children[newOffset].value))
      case .gap(let oldRange, let newRange):
        entries += oldRange.map { .removed(label: nil, value: old.children[$0].value) }
        entries += newRange.map { .inserted(label: nil, value: new.children[$0].value) }
      }
    }
    return entries
  }

  /// Matches dictionary values by key, or set elements by dump, in sorted order.
  static func matchByKey(_ old: Node, _ new: Node, pairValues: Bool) -> [Entry] {
    var oldOffsets: [String: Int] = [:]
    for (offset, key) in old.keys.enumerated() { oldOffsets[key] = offset }
    var newOffsets: [String: Int] = [:]
    for (offset, key) in new.keys.enumerated() { newOffsets[key] = offset }
    var keys = old.keys
    var sortValues = old.sortValues
    for (offset, key) in new.keys.enumerated() where oldOffsets[key] == nil {
      keys.append(key)
      sortValues.append(new.sortValues[offset])
    }
    return sortedOrder(of: sortValues, dumps: keys).compactMap { union -> Entry? in
      switch (oldOffsets[keys[union]], newOffsets[keys[union]]) {
      case (let oldOffset?, let newOffset?):
        let (label, oldValue) = old.children[oldOffset]
        let newValue = new.children[newOffset].value
        return pairValues
          ? .paired(label: label, old: oldValue, new: newValue)
          : .kept(label: label, value: newValue)
      case (let oldOffset?, nil):
        return .removed(label: old.children[oldOffset].label, value: old.children[oldOffset].value)
      case (nil, let newOffset?):
        return .inserted(label: new.children[newOffset].label, value: new.children[newOffset].value)
      case (nil, nil):
        return nil
      }
    }
  }
}
