import Foundation

extension Diff {
  /// How the diff sees one value, found by reflecting it one level deep.
  enum Shape {
    /// A value that renders on one line: a number, `nil`, `Date(…)`, a case without payload.
    case line(String)
    /// A string: quoted, or a `"""` block when it has several lines.
    case text(String)
    /// A value with children: a struct, class, tuple, enum case with payload, or collection.
    case node(Node)

    /// The node, when the value has children.
    var node: Node? {
      guard case .node(let node) = self else { return nil }
      return node
    }
  }

  /// A value with children, and how to print its brackets.
  struct Node {
    /// How children of two nodes are matched against each other.
    enum Kind {
      /// Struct, class and tuple fields: by position.
      case fields
      /// An enum case's payload: by position.
      case payload
      /// Array elements: common prefix and suffix, then LCS or position.
      case elements
      /// Elements with unique ids: by id.
      case identified
      /// Dictionary values: by key.
      case dictionary
      /// Set elements: by dump.
      case set
    }

    var kind: Kind
    var open: String
    var close: String
    /// The whole node when it has no children: `[]`, `[:]`, `Point()`.
    var empty: String
    var children: [(label: String?, value: Any)]
    /// The children's ids, for `identified` nodes.
    var ids: [AnyHashable] = []
    /// What children match by, for `dictionary` (key dumps) and `set` (element dumps) nodes.
    var keys: [String] = []
    /// What children sort by: the keys (dictionary) or the elements (set).
    var sortValues: [Any] = []
    /// The instance, for a class, so that reference cycles print once.
    var object: ObjectIdentifier?
  }
}

extension Diff.Printer {
  /// Reflects `value` one level deep.
  ///
  /// - Parameters:
  ///   - value: The value.
  ///   - root: Whether the value is the root, whose enum cases are qualified by their type.
  /// - Returns: The value's shape; optionals are looked through.
  func shape(of value: Any, root: Bool) -> Diff.Shape {
    if type(of: value) == AnyHashable.self, let hashable = value as? AnyHashable {
      return shape(of: hashable.base, root: root)
    }
    switch value {
    case let string as String: return .text(string)
    case let string as Substring: return .text(String(string))
    case let character as Character: return .line(Diff.quoted(String(character)))
    case let date as Date: return .line("Date(\(date.formatted(Self.iso8601)))")
    case let uuid as UUID: return .line("UUID(\(uuid.uuidString))")
    case let url as URL: return .line("URL(\(url.absoluteString))")
    case let data as Data: return .line(Diff.describe(data))
    case let decimal as Decimal: return .line(decimal.description)
    case let timeZone as TimeZone: return .line("TimeZone(\(timeZone.identifier))")
    case let locale as Locale: return .line("Locale(\(locale.identifier))")
    case let keyPath as AnyKeyPath: return .line(describe(keyPath))
    case let presented as any PresentedState:
      return shape(of: presented.presentedValue, root: root)
    case let shared as any SharedValueDiffing:
      return shape(of: shared.diffValue(isRight: !isLeftSide), root: root)
    case let identified as any IdentifiedElements:
      let elements = identified.identifiedElements
      return .node(
        Diff.Node(
          kind: .identified, open: "[", close: "]", empty: "[]",
          children: elements.map { (nil, $0.element) }, ids: elements.map(\.id)))
    default: break
    }
    let mirror = Mirror(reflecting: value)
    switch mirror.displayStyle {
    case .optional:
      guard let wrapped = mirror.children.first?.value else { return .line("nil") }
      return shape(of: wrapped, root: root)
    case .enum:
      return enumShape(of: value, mirror: mirror, root: root)
    case .collection:
      return .node(elementsNode(mirror.children.map(\.value)))
    case .dictionary:
      return .node(dictionaryNode(mirror))
    case .set:
      return .node(setNode(mirror.children.map(\.value)))
    case .tuple:
      return .node(
        Diff.Node(
          kind: .fields, open: "(", close: ")", empty: "()",
          children: mirror.children.map { (Diff.fieldLabel($0.label), $0.value) }))
    default:
      return fieldsShape(of: value, mirror: mirror)
    }
  }

  private func enumShape(of value: Any, mirror: Mirror, root: Bool) -> Diff.Shape {
    let qualifier = root ? typeName(type(of: value)) + "." : "."
    guard let payload = mirror.children.first else {
      // NB: Swift has no public API for a case's name; `String(describing:)` is the name unless
      // the enum describes itself, and then its description is what its author wants to read.
      let text = String(describing: value)
      return .line(value is CustomStringConvertible ? text : qualifier + text)
    }
    let name = qualifier + (payload.label ?? "")
    let payloadMirror = Mirror(reflecting: payload.value)
    let children =
      payloadMirror.displayStyle == .tuple
      ? payloadMirror.children.map { (Diff.fieldLabel($0.label), $0.value) }
      : [(nil, payload.value)]
    return .node(
      Diff.Node(
        kind: .payload, open: name + "(", close: ")", empty: name + "()", children: children))
  }

  private func fieldsShape(of value: Any, mirror: Mirror) -> Diff.Shape {
    var mirrors = [mirror]
    while let superclass = mirrors.last?.superclassMirror { mirrors.append(superclass) }
    let children = mirrors.reversed().flatMap { mirror in
      mirror.children.map { child in
        // NB: a `@Presents var editor` is stored as `_editor`, a `@Shared var count` as
        // `_count`; show them as declared.
        guard child.value is any PresentedState || child.value is any SharedValueDiffing,
          let label = child.label, label.hasPrefix("_")
        else { return (Diff.fieldLabel(child.label), child.value) }
        return (String(label.dropFirst()), child.value)
      }
    }
    // NB: A type that only exposes private storage (`Duration`'s `_low` and `_high`) means its
    // description, not its layout.
    if let describable = value as? any CustomStringConvertible,
      children.allSatisfy({ $0.0?.hasPrefix("_") ?? false })
    {
      return .line(describable.description)
    }
    let name = typeName(type(of: value))
    let object = mirror.displayStyle == .class ? ObjectIdentifier(value as AnyObject) : nil
    return .node(
      Diff.Node(
        kind: .fields, open: name + "(", close: ")", empty: name + "()", children: children,
        object: object))
  }

  private func elementsNode(_ elements: [Any]) -> Diff.Node {
    let ids = Diff.uniqueIDs(of: elements)
    return Diff.Node(
      kind: ids == nil ? .elements : .identified, open: "[", close: "]", empty: "[]",
      children: elements.map { (nil, $0) }, ids: ids ?? [])
  }

  private func dictionaryNode(_ mirror: Mirror) -> Diff.Node {
    var keys: [Any] = []
    var values: [Any] = []
    for entry in mirror.children {
      let pair = Mirror(reflecting: entry.value).children.map(\.value)
      guard pair.count == 2 else { continue }
      keys.append(pair[0])
      values.append(pair[1])
    }
    let labels = keys.map(keyLabel)
    let order = Diff.sortedOrder(of: keys, dumps: labels)
    return Diff.Node(
      kind: .dictionary, open: "[", close: "]", empty: "[:]",
      children: order.map { (labels[$0], values[$0]) }, keys: order.map { labels[$0] },
      sortValues: order.map { keys[$0] })
  }

  private func setNode(_ elements: [Any]) -> Diff.Node {
    let dumps = elements.map(dumpText)
    let order = Diff.sortedOrder(of: elements, dumps: dumps)
    return Diff.Node(
      kind: .set, open: "Set([", close: "])", empty: "Set([])",
      children: order.map { (nil, elements[$0]) }, keys: order.map { dumps[$0] },
      sortValues: order.map { elements[$0] })
  }

  /// A dictionary key on one line: its one-line dump, or its dump's lines run together.
  func keyLabel(_ key: Any) -> String {
    if let line = oneLine(key) { return line }
    var lines: [Diff.Line] = []
    render(key, label: nil, depth: 0, comma: false, root: false, marker: .context, into: &lines)
    return lines.map { $0.text.hasSuffix(",") ? $0.text + " " : $0.text }.joined()
  }

  /// The full dump of a value as one string, used to match and sort set elements.
  func dumpText(_ value: Any) -> String {
    var lines: [Diff.Line] = []
    render(value, label: nil, depth: 0, comma: false, root: false, marker: .context, into: &lines)
    return lines.map(\.indented).joined(separator: "\n")
  }

  /// A key path as written, its root qualified like a type name: `\Form.State.title`.
  private func describe(_ keyPath: AnyKeyPath) -> String {
    let text = keyPath.debugDescription
    guard text.hasPrefix("\\"), let dot = text.firstIndex(of: ".") else { return text }
    return "\\" + typeName(type(of: keyPath).rootType) + text[dot...]
  }

  /// The type's name as `String(reflecting:)` writes it, without module names or private
  /// contexts: `Counter.State`, `Box<Counter.State>`; or the name a ``CustomDiffTypeName``
  /// chooses.
  func typeName(_ type: Any.Type) -> String {
    let key = ObjectIdentifier(type)
    if let name = typeNames[key] { return name }
    let name = Diff.typeName(type)
    typeNames[key] = name
    return name
  }

  static let iso8601 = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
}

extension Diff {
  /// The type's name as diffs show it: `Counter.State`, or what ``CustomDiffTypeName`` chooses.
  package static func typeName(_ type: Any.Type) -> String {
    (type as? any CustomDiffTypeName.Type)?.diffTypeName ?? stripModules(String(reflecting: type))
  }

  /// Removes module names (the first component of each qualified name), `(extension in M):` and
  /// `(unknown context at $…)` from a reflected type name.
  static func stripModules(_ name: String) -> String {
    var text = Substring(name)
    var result = ""
    // Whether the next name continues a path whose module was dropped.
    var continuing = false
    while let first = text.first {
      if text.hasPrefix("(extension in "), let end = text.range(of: "):") {
        text = text[end.upperBound...]
      } else if text.hasPrefix("(unknown context at "), let end = text.range(of: ").") {
        text = text[end.upperBound...]
      } else if first.isLetter || first == "_" {
        let identifier = text.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        text = text.dropFirst(identifier.count)
        // NB: Only a name that starts a path is a module; `Array<Int>.Index` keeps `Index`.
        let startsPath = !continuing && !result.hasSuffix(".")
        if startsPath, text.first == "." {
          text = text.dropFirst()
          continuing = true
        } else {
          result += identifier
          continuing = false
        }
      } else {
        result.append(first)
        text = text.dropFirst()
      }
    }
    return result
  }

  /// A field label, or `nil` for a tuple's unlabelled `.0`, `.1`.
  static func fieldLabel(_ label: String?) -> String? {
    guard let label, !label.hasPrefix(".") else { return nil }
    return label
  }

  /// The ids of `elements` when every element is `Identifiable` and their ids are unique.
  static func uniqueIDs(of elements: [Any]) -> [AnyHashable]? {
    guard !elements.isEmpty else { return nil }
    var ids: [AnyHashable] = []
    var seen: Set<AnyHashable> = []
    ids.reserveCapacity(elements.count)
    for element in elements {
      guard let identifiable = element as? any Identifiable else { return nil }
      let id = identity(of: identifiable)
      guard seen.insert(id).inserted else { return nil }
      ids.append(id)
    }
    return ids
  }

  private static func identity<T: Identifiable>(of element: T) -> AnyHashable {
    AnyHashable(element.id)
  }

  /// The order of `values` by `Comparable` when they share one comparable type, else by `dumps`.
  ///
  /// - Complexity: O(*n* log *n*), with one dynamic cast per value rather than per comparison.
  static func sortedOrder(of values: [Any], dumps: [String]) -> [Int] {
    if let first = values.first as? any Comparable, let order = order(of: values, like: first) {
      return order
    }
    return values.indices.sorted { dumps[$0] < dumps[$1] }
  }

  private static func order<T: Comparable>(of values: [Any], like _: T) -> [Int]? {
    let typed = values.compactMap { $0 as? T }
    guard typed.count == values.count else { return nil }
    return typed.indices.sorted { typed[$0] < typed[$1] }
  }

  /// Whether two values are `==`, or `nil` when they are not `Equatable`.
  static func areEqual(_ lhs: Any, _ rhs: Any) -> Bool? {
    guard let lhs = lhs as? any Equatable else { return nil }
    return isEqual(lhs, rhs)
  }

  private static func isEqual<T: Equatable>(_ lhs: T, _ rhs: Any) -> Bool {
    guard let rhs = rhs as? T else { return false }
    return lhs == rhs
  }

  /// `Data(3 bytes: 0x010203)`, with the bytes written out up to 32 of them.
  static func describe(_ data: Data) -> String {
    let hex = data.prefix(32).map { byte in
      let digits = String(byte, radix: 16)
      return digits.count == 1 ? "0" + digits : digits
    }
    let more = data.count > 32 ? "…" : ""
    let unit = data.count == 1 ? "byte" : "bytes"
    return "Data(\(data.count) \(unit): 0x\(hex.joined())\(more))"
  }

  /// `string` as a Swift string literal: quoted, with quotes, backslashes and control characters
  /// escaped.
  static func quoted(_ string: String) -> String {
    "\"" + escaped(string, quote: "\"") + "\""
  }

  /// One line of a `"""` block: backslashes and control characters escaped, and `"""` broken.
  static func blockLine(_ line: Substring) -> String {
    escaped(String(line), quote: nil).replacingOccurrences(of: "\"\"\"", with: "\\\"\"\"")
  }

  private static func escaped(_ string: String, quote: Unicode.Scalar?) -> String {
    var result = ""
    for scalar in string.unicodeScalars {
      switch scalar {
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case "\0": result += "\\0"
      case _ where scalar == quote: result += "\\" + String(scalar)
      case _ where scalar.value < 0x20 || scalar.value == 0x7F:
        result += "\\u{" + String(scalar.value, radix: 16) + "}"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  /// `9999` as `9,999`.
  static func grouped(_ number: Int) -> String {
    let digits = String(number)
    var result = ""
    for (offset, digit) in digits.enumerated() {
      if offset > 0, (digits.count - offset) % 3 == 0 { result += "," }
      result.append(digit)
    }
    return result
  }
}
