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
/// `.case(Action.search)` needs only the constructor. The first time it meets a value whose
/// payload could be the case's, it re-embeds that payload to learn which case the constructor
/// builds, by the enum's tag (its case number), so it never confuses two cases with the same
/// payload type. From then on an extraction compares tags and copies the payload out of the
/// value: `loop-bench` measures a `.forEach` element action at about 1.1 times the cost of the
/// explicit pattern match below. The parents that run a child (`Scope`, `ifLet`, `forEach`) build
/// its `body` once, so the paths in it learn their case once too; a path built anew for every
/// action (in a `body` run through `reduce(into:action:)` each time) learns its case each time,
/// which about doubles what its `Scope` costs (a few hundred nanoseconds in all).
///
/// Pass the extraction too where you want the compiled pattern match, and always for a payload
/// that is a function or a metatype: an enum stores those in a form only compiled code reads, and
/// the one-line form stops the program with a message when it meets one.
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

  /// A case path for the enum case that `embed` constructs, extracting by the enum's case tag.
  ///
  /// See "Trade-off" above for what it costs, and the payloads it refuses.
  ///
  /// - Parameter embed: The case's constructor, such as `Action.search`.
  /// - Returns: The case path.
  @inlinable
  public static func `case`(_ embed: @escaping @Sendable (Value) -> Root) -> Self {
    // NB: inlinable, as `CaseExtractor` is, so the extraction is specialized for `Root` and
    // `Value` in the caller's module.
    let extractor = CaseExtractor(embed: embed)
    return Self(embed: embed, extract: { extractor.extract($0) })
  }

  /// A path through this case, then through a case of its payload.
  ///
  /// Routes an action two levels down in one path, as a parent that forwards a grandchild's
  /// actions does:
  ///
  /// ```swift
  /// let save: CasePath<Action, LinkEditor.Delegate> =
  ///   .case(Action.editor).appending(path: .case(LinkEditor.Action.delegate))
  /// save.extract(.editor(.delegate(.cancel)))  // .cancel
  /// save.embed(.cancel)  // .editor(.delegate(.cancel))
  /// ```
  ///
  /// - Parameter path: A path from this path's payload to one of its cases.
  /// - Returns: A path from `Root` to `path`'s payload: it extracts when both cases match, and
  ///   embeds through both.
  public func appending<Child>(path: CasePath<Value, Child>) -> CasePath<Root, Child> {
    CasePath<Root, Child>(
      embed: { self.embed(path.embed($0)) },
      extract: { self.extract($0).flatMap(path.extract) })
  }

  /// Returns whether `root` is the case this path points at.
  ///
  /// - Parameter root: The enum value.
  /// - Returns: `true` when the payload can be extracted.
  public func matches(_ root: Root) -> Bool { extract(root) != nil }
}

extension CasePath where Value == Void {
  /// A case path for an enum case without a payload, matched by comparing case tags.
  ///
  /// - Parameter root: The case, such as `Action.refresh`.
  /// - Returns: The case path.
  public static func `case`(_ root: Root) -> Self where Root: Sendable {
    guard let layout = EnumLayout.of(Root.self) else {
      let name = caseName(of: root)
      return Self(embed: { _ in root }, extract: { caseName(of: $0) == name ? () : nil })
    }
    let tag = withUnsafePointer(to: root) { layout.tag(of: $0) }
    return Self(
      embed: { _ in root },
      extract: { withUnsafePointer(to: $0) { layout.tag(of: $0) } == tag ? () : nil })
  }
}
