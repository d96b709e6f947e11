extension Diff {
  /// Renders values and diffs, with the caches and cycle guards of one call.
  final class Printer {
    /// Type names already stripped of their modules.
    var typeNames: [ObjectIdentifier: String] = [:]
    /// Class instances being rendered, so that a reference cycle prints once.
    var rendering: Set<ObjectIdentifier> = []
    /// Pairs of class instances being compared, so that reference cycles end.
    var comparing: Set<[ObjectIdentifier]> = []
    /// Whether values being reflected are on the old side, which shared values read as the
    /// test store's assertion running has them on its left (see `SharedAssertion`).
    var isLeftSide = false
  }
}

extension Diff.Printer {
  /// Renders a value in full.
  ///
  /// - Parameters:
  ///   - value: The value.
  ///   - label: The field label or dictionary key written before the value, if any.
  ///   - depth: The nesting level of the first line.
  ///   - comma: Whether the last line ends with a comma.
  ///   - root: Whether the value is the root, whose enum cases are qualified by their type.
  ///   - marker: The marker of every line.
  ///   - lines: The lines to append to.
  func render(
    _ value: Any, label: String?, depth: Int, comma: Bool, root: Bool, marker: Diff.Line.Marker,
    into lines: inout [Diff.Line]
  ) {
    let wasLeftSide = isLeftSide
    isLeftSide = marker == .removed
    defer { isLeftSide = wasLeftSide }
    render(
      shape(of: value, root: root), label: label, depth: depth, comma: comma, marker: marker,
      into: &lines)
  }

  /// Renders a value already reflected.
  func render(
    _ shape: Diff.Shape, label: String?, depth: Int, comma: Bool, marker: Diff.Line.Marker,
    into lines: inout [Diff.Line]
  ) {
    let head = label.map { $0 + ": " } ?? ""
    let tail = comma ? "," : ""
    switch shape {
    case .line(let text):
      lines.append(Diff.Line(marker: marker, depth: depth, text: head + text + tail))
    case .text(let string) where !string.contains("\n"):
      lines.append(Diff.Line(marker: marker, depth: depth, text: head + Diff.quoted(string) + tail))
    case .text(let string):
      lines.append(Diff.Line(marker: marker, depth: depth, text: head + "\"\"\""))
      for line in string.split(separator: "\n", omittingEmptySubsequences: false) {
        lines.append(Diff.Line(marker: marker, depth: depth + 1, text: Diff.blockLine(line)))
      }
      lines.append(Diff.Line(marker: marker, depth: depth + 1, text: "\"\"\"" + tail))
    case .node(let node):
      if node.children.isEmpty {
        lines.append(Diff.Line(marker: marker, depth: depth, text: head + node.empty + tail))
      } else if let inline = inlinePayload(node) {
        lines.append(Diff.Line(marker: marker, depth: depth, text: head + inline + tail))
      } else if let object = node.object, rendering.contains(object) {
        let text = head + node.open + "↩" + node.close + tail
        lines.append(Diff.Line(marker: marker, depth: depth, text: text))
      } else {
        if let object = node.object { rendering.insert(object) }
        lines.append(Diff.Line(marker: marker, depth: depth, text: head + node.open))
        for (offset, child) in node.children.enumerated() {
          render(
            child.value, label: child.label, depth: depth + 1,
            comma: offset < node.children.count - 1, root: false, marker: marker, into: &lines)
        }
        lines.append(Diff.Line(marker: marker, depth: depth, text: node.close + tail))
        if let object = node.object { rendering.remove(object) }
      }
    }
  }

  /// The value's dump when it fits on one line, or `nil`.
  func oneLine(_ value: Any) -> String? {
    switch shape(of: value, root: false) {
    case .line(let text): text
    case .text(let string): string.contains("\n") ? nil : Diff.quoted(string)
    case .node(let node): node.children.isEmpty ? node.empty : inlinePayload(node)
    }
  }

  /// `.caseName(payload)` when an enum case's payload is one unlabelled value that fits on one
  /// line, or `nil`.
  func inlinePayload(_ node: Diff.Node) -> String? {
    guard node.kind == .payload, node.children.count == 1, node.children[0].label == nil,
      let payload = oneLine(node.children[0].value)
    else { return nil }
    return node.open + payload + node.close
  }
}
