import Synchronization

/// The extraction behind `CasePath.case(_:)`: finds which case the constructor builds, once,
/// then extracts by comparing tags and projecting the payload out of the enum's bits.
///
/// The case is learned from the first value whose payload could be a `Value`: its payload is
/// re-embedded and the new value's tag is the constructor's case. From then on an extraction is
/// a tag comparison and, for a matching case, a copy of the payload:
/// - a payload whose type is `Value` (or a tuple differing only in labels) is read in place,
///   through its heap box when the case is `indirect`;
/// - a payload of another type (the constructor was converted, as `(Any) -> Root` to
///   `(Int) -> Root`) is read as its own type and cast with `as? Value`;
/// - an enum whose reflection records are missing falls back to `Mirror`, as before.
final class CaseExtractor<Root, Value>: Sendable {
  private let embed: @Sendable (Value) -> Root
  private let layout: EnumLayout?
  /// The learned case: `-1` until known, else `tag << 2 | Route.rawValue`.
  private let learned = Atomic<Int>(-1)
  /// The case's name, for the `Mirror` fallback.
  private let mirrorLabel = Mutex<String?>(nil)

  /// How the payload of the learned case is read.
  private enum Route: Int {
    /// In place, as a `Value`.
    case load = 0
    /// Read as its own type, then cast to `Value`.
    case cast = 1
    /// Never: the constructor builds a case without a payload.
    case never = 2
  }

  init(embed: @escaping @Sendable (Value) -> Root) {
    precondition(
      hasGenericRepresentation(Value.self),
      """
      CasePath.case(_:) cannot extract a payload of type '\(Value.self)' from '\(Root.self)': \
      an enum stores functions and metatypes in a form only a compiled pattern match reads. \
      Pass the extraction: .case(Enum.x) { if case .x(let value) = $0 { value } else { nil } }
      """)
    self.embed = embed
    self.layout = EnumLayout.of(Root.self)
  }

  /// The payload of `root` when it is the constructor's case.
  func extract(_ root: Root) -> Value? {
    guard let layout else { return mirrorExtract(root) }
    return withUnsafePointer(to: root) { pointer in
      let rootTag = layout.tag(of: pointer)
      let known = learned.load(ordering: .relaxed)
      if known >= 0 {
        guard rootTag == known >> 2 else { return nil }
        switch Route(rawValue: known & 0b11) {
        case .load: return payload(of: pointer, tag: rootTag, in: layout)
        case .cast: return cast(payload: pointer, tag: rootTag, in: layout)
        case .never, nil: return nil
        }
      }
      return learn(from: pointer, tag: rootTag, in: layout)
    }
  }

  /// Extracts from a root whose case may be the constructor's, learning the constructor's case
  /// from the first payload that can be a `Value`.
  private func learn(from root: UnsafePointer<Root>, tag: Int, in layout: EnumLayout) -> Value? {
    // NB: a payload whose form differs in generic code cannot be a `Value` (which has the
    // generic form), and is never read.
    guard let type = layout.cases[tag].payload, hasGenericRepresentation(type) else { return nil }
    let value: Value
    if sameLayout(type, Value.self) {
      value = payload(of: root, tag: tag, in: layout)
    } else if acceptsOnlyItself(type) {
      return nil  // NB: the constructor cannot build this case from a `Value`.
    } else if let cast = cast(payload: root, tag: tag, in: layout) {
      value = cast
    } else {
      return nil
    }
    let embedded = embed(value)
    let embeddedTag = withUnsafePointer(to: embedded) { layout.tag(of: $0) }
    let route: Route =
      if let type = layout.cases[embeddedTag].payload, hasGenericRepresentation(type) {
        sameLayout(type, Value.self) ? .load : .cast
      } else {
        .never
      }
    learned.store(embeddedTag << 2 | route.rawValue, ordering: .relaxed)
    return embeddedTag == tag ? value : nil
  }

  /// The payload of the root at `root`, whose case `tag` has a payload laid out as a `Value`.
  private func payload(of root: UnsafePointer<Root>, tag: Int, in layout: EnumLayout) -> Value {
    withProjectedPayload(of: root, tag: tag, in: layout) { $0.load(as: Value.self) }
  }

  /// The payload of the root at `root`, read as its own type and cast to `Value`.
  private func cast(payload root: UnsafePointer<Root>, tag: Int, in layout: EnumLayout) -> Value? {
    guard let type = layout.cases[tag].payload else { return nil }
    func load<Payload>(_: Payload.Type, _ address: UnsafeRawPointer) -> Any {
      address.load(as: Payload.self)
    }
    return withProjectedPayload(of: root, tag: tag, in: layout) { load(type, $0) } as? Value
  }

  /// Calls `body` with the address of the payload of the root at `root`.
  ///
  /// NB: the projection changes the enum's bits (it clears tag bits stored in the payload's spare
  /// bits), so it runs on a bitwise copy on the stack. The copy owns nothing and is never
  /// destroyed; `root` keeps the payload (and any box) alive while `body` copies it out.
  private func withProjectedPayload<Result>(
    of root: UnsafePointer<Root>, tag: Int, in layout: EnumLayout,
    _ body: (UnsafeRawPointer) -> Result
  ) -> Result {
    let `case` = layout.cases[tag]
    return withUnsafeTemporaryAllocation(
      byteCount: max(MemoryLayout<Root>.size, 1), alignment: MemoryLayout<Root>.alignment
    ) { copy in
      guard let bits = copy.baseAddress else {
        preconditionFailure("A temporary allocation of at least one byte has an address.")
      }
      bits.copyMemory(from: root, byteCount: MemoryLayout<Root>.size)
      guard `case`.isProjected else { return body(bits) }
      layout.projectPayload(bits)
      return body(payloadAddress(in: bits, isIndirect: `case`.isIndirect))
    }
  }

  /// The extraction for an enum without reflection records: `Mirror`, checking that
  /// re-embedding the payload gives the same case name.
  private func mirrorExtract(_ root: Root) -> Value? {
    guard let (label, payload) = caseLabelAndPayload(of: root), let value = payload as? Value
    else { return nil }
    if let known = mirrorLabel.withLock({ $0 }) { return known == label ? value : nil }
    guard caseLabelAndPayload(of: embed(value))?.label == label else { return nil }
    mirrorLabel.withLock { $0 = label }
    return value
  }
}

/// The case name of an enum value without a payload, or of one with a payload.
func caseName(of value: Any) -> String {
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
