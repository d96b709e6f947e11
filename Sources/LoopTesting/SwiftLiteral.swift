import Foundation

/// Renders values as Swift source, for the test an exploration prints: enum cases as `.name(…)`,
/// structs through their memberwise initializer, collections as literals.
///
/// NB: best effort. A type whose memberwise initializer is not visible to the test (a public
/// type of another module with stored properties it does not take) prints as its stored
/// properties, which the reader edits.
enum SwiftLiteral {
  /// `value` as a Swift expression.
  static func render(_ value: Any) -> String {
    switch value {
    case let string as String: return quote(string)
    case let character as Character: return quote(String(character))
    case let bool as Bool: return "\(bool)"
    case let int as any BinaryInteger: return "\(int)"
    case let double as Double: return "\(double)"
    case let float as Float: return "\(float)"
    case let data as Data:
      if let text = String(data: data, encoding: .utf8) { return "Data(\(quote(text)).utf8)" }
      return "Data(\(render(Array(data))))"
    case let url as URL: return "URL(string: \(quote(url.absoluteString)))!"
    case let uuid as UUID: return "UUID(uuidString: \"\(uuid.uuidString)\")!"
    case let date as Date:
      return "Date(timeIntervalSinceReferenceDate: \(date.timeIntervalSinceReferenceDate))"
    case let decimal as Decimal: return "Decimal(string: \"\(decimal)\")!"
    case let duration as Duration: return render(duration)
    default: break
    }
    let mirror = Mirror(reflecting: value)
    // NB: a collection of its own (an `IdentifiedArray`) is written as the array literal it
    // takes, not as its storage.
    if mirror.displayStyle != .dictionary, let collection = value as? any Collection {
      return "[" + collection.map { render($0) }.joined(separator: ", ") + "]"
    }
    switch mirror.displayStyle {
    case .optional:
      return mirror.children.first.map { render($0.value) } ?? "nil"
    case .collection, .set:
      return "[" + mirror.children.map { render($0.value) }.joined(separator: ", ") + "]"
    case .dictionary:
      guard !mirror.children.isEmpty else { return "[:]" }
      let pairs = mirror.children.map { pair -> String in
        let parts = Array(Mirror(reflecting: pair.value).children)
        guard parts.count == 2 else { return render(pair.value) }
        return "\(render(parts[0].value)): \(render(parts[1].value))"
      }
      return "[" + pairs.joined(separator: ", ") + "]"
    case .tuple:
      return "(" + arguments(mirror) + ")"
    case .enum:
      guard let payload = mirror.children.first else { return ".\(value)" }
      let name = payload.label ?? "\(value)"
      let inner = Mirror(reflecting: payload.value)
      if inner.displayStyle == .tuple {
        return ".\(name)(\(arguments(inner)))"
      }
      return ".\(name)(\(render(payload.value)))"
    case .struct, .class:
      return "\(typeName(of: value))(\(arguments(mirror)))"
    default:
      return "\(value)"
    }
  }

  /// `duration` as `.seconds(n)`, or in the largest unit that states it whole.
  static func render(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    guard attoseconds != 0 else { return ".seconds(\(seconds))" }
    let nanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    if nanoseconds % 1_000_000 == 0 { return ".milliseconds(\(nanoseconds / 1_000_000))" }
    return ".nanoseconds(\(nanoseconds))"
  }

  /// The stored properties of `mirror` as call arguments, `label: value`, a property wrapper's
  /// storage (`_name`) under its property's name.
  static func arguments(_ mirror: Mirror) -> String {
    mirror.children.map { child in
      let rendered = render(unwrapped(child))
      guard let label = child.label.map(propertyName), !label.hasPrefix(".") else {
        return rendered
      }
      return "\(label): \(rendered)"
    }.joined(separator: ", ")
  }

  /// A stored property's name as code spells it: a property wrapper's `_name` as `name`.
  static func propertyName(_ label: String) -> String {
    label.hasPrefix("_") ? String(label.dropFirst()) : label
  }

  /// The value of a stored property, a property wrapper's wrapped value for its storage.
  static func unwrapped(_ child: Mirror.Child) -> Any {
    guard child.label?.hasPrefix("_") == true else { return child.value }
    let wrapper = Mirror(reflecting: child.value)
    if let wrapped = wrapper.children.first(where: {
      $0.label == "wrappedValue" || $0.label == "value"
    }) {
      return wrapped.value
    }
    if wrapper.children.count == 1, let only = wrapper.children.first { return only.value }
    return child.value
  }

  /// The changes from `before` to `after` as the statements of an assertion closure, one per
  /// stored property that differs (`$0.name = …`), or the whole value when it has none.
  static func assignments<Value>(from before: Value, to after: Value) -> [String] {
    let old = Mirror(reflecting: before)
    let new = Mirror(reflecting: after)
    guard new.displayStyle == .struct || new.displayStyle == .class,
      old.children.count == new.children.count, !new.children.isEmpty
    else {
      return render(before) == render(after) ? [] : ["$0 = \(render(after))"]
    }
    var lines: [String] = []
    for (oldChild, newChild) in zip(old.children, new.children) {
      let oldValue = render(unwrapped(oldChild))
      let newValue = render(unwrapped(newChild))
      guard oldValue != newValue, let label = newChild.label.map(propertyName) else { continue }
      lines.append("$0.\(label) = \(newValue)")
    }
    return lines
  }

  /// The type's name as a test spells it: qualified with its module and outer types.
  static func typeName(of value: Any) -> String {
    String(reflecting: type(of: value))
  }

  /// `string` as a string literal.
  static func quote(_ string: String) -> String {
    var result = "\""
    for character in string.unicodeScalars {
      switch character {
      case "\\": result += "\\\\"
      case "\"": result += "\\\""
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      default: result.unicodeScalars.append(character)
      }
    }
    return result + "\""
  }
}
