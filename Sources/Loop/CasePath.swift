import Synchronization

/// A path from an enum to one of its cases: how to embed a value in the case and how to extract
/// it back out.
///
/// Reducers use case paths to route actions to children: `Scope` extracts the child's action from
/// the parent's, and embeds the actions the child's effects send back. Swift macros would need a
/// package dependency, so Loop builds a case path from the case's constructor instead:
///
/// ```swift
/// Scope(state: \.search, action: .case(Action.search)) { Search() }
/// ```
///
/// ## Trade-off
/// `.case(Action.search)` needs only the constructor, and finds the payload of an action by
/// reflection (`Mirror`): it checks that re-embedding the payload produces the same case, so it
/// never confuses two cases with the same payload type. Reflection costs about two microseconds
/// per extraction (measured by `loop-bench`), fine for screens and commands but not for the
/// inner loop of a large list. Where that matters, pass the extraction too, a plain pattern
/// match that costs nanoseconds:
///
/// ```swift
/// .case(Action.row) { if case .row(let action) = $0 { action } else { nil } }
/// ```
public struct CasePath<Root, Value>: Sendable {
  /// Wraps a value in the case.
  public let embed: @Sendable (Value) -> Root
  /// Returns the case's payload when `root` is that case, otherwise `nil`.
  public let extract: @Sendable (Root) -> Value?

  /// Creates a case path from its two functions.
  ///
  /// - Parameters:
  ///   - embed: Wraps a value in the case.
  ///   - extract: Returns the payload when the root is the case.
  @inlinable
  public init(
    embed: @escaping @Sendable (Value) -> Root,
    extract: @escaping @Sendable (Root) -> Value?
  ) {
    self.embed = embed
    self.extract = extract
  }

  /// A case path for the enum case that `embed` constructs, extracting by pattern matching.
  ///
  /// - Parameters:
  ///   - embed: The case's constructor, such as `Action.search`.
  ///   - extract: A pattern match that returns the payload.
  /// - Returns: The case path.
  @inlinable
  public static func `case`(
    _ embed: @escaping @Sendable (Value) -> Root,
    extract: @escaping @Sendable (Root) -> Value?
  ) -> Self {
    Self(embed: embed, extract: extract)
  }

  /// A case path for the enum case that `embed` constructs, extracting by reflection.
  ///
  /// - Parameter embed: The case's constructor, such as `Action.search`.
  /// - Returns: The case path.
  public static func `case`(_ embed: @escaping @Sendable (Value) -> Root) -> Self {
    let caseName = Mutex<String?>(nil)
    return Self(embed: embed) { root in
      guard let (label, payload) = caseLabelAndPayload(of: root), let value = payload as? Value
      else { return nil }
      if let known = caseName.withLock({ $0 }) { return known == label ? value : nil }
      // NB: the first match learns the case's name by re-embedding the payload; later
      // extractions compare names and reflect only once.
      guard caseLabelAndPayload(of: embed(value))?.label == label else { return nil }
      caseName.withLock { $0 = label }
      return value
    }
  }

  /// Returns whether `root` is the case this path points at.
  ///
  /// - Parameter root: The enum value.
  /// - Returns: `true` when the payload can be extracted.
  public func matches(_ root: Root) -> Bool { extract(root) != nil }
}

extension CasePath where Value == Void {
  /// A case path for an enum case without a payload, matched by comparing case names.
  ///
  /// - Parameter root: The case, such as `Action.refresh`.
  /// - Returns: The case path.
  public static func `case`(_ root: Root) -> Self where Root: Sendable {
    let name = caseName(of: root)
    return Self(embed: { _ in root }, extract: { caseName(of: $0) == name ? () : nil })
  }
}

/// The case name of an enum value without a payload, or of one with a payload.
private func caseName(of value: Any) -> String {
  if let (label, _) = caseLabelAndPayload(of: value) { return label }
  return String(describing: value)
}

/// Splits an enum value that has a payload into its case name and payload.
///
/// NB: `Mirror` shows an enum case with a payload as one child labelled with the case name; a
/// payload of several values arrives as a tuple. Cases without a payload have no children.
private func caseLabelAndPayload(of value: Any) -> (label: String, payload: Any)? {
  let mirror = Mirror(reflecting: value)
  guard mirror.displayStyle == .enum, let child = mirror.children.first, let label = child.label
  else { return nil }
  return (label, child.value)
}
