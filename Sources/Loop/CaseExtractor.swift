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
///
/// ## What it owns
/// The constructor, the enum's layout (shared by every extractor of that enum, immutable: see
/// `EnumLayout`, which says why reading a payload out of the bits is sound), and one word,
/// `learned`: the constructor's tag and how its payload is read (`LearnedCase`), `-1` until
/// an extraction could tell.
///
/// ## Ordering
/// `learned` is read and written `.relaxed`, and two threads may learn at once. That is sound
/// because the word publishes nothing else (it points at no memory; every other field is
/// immutable from `init`) and every writer stores the same value: it is computed from the
/// immutable layout and from the tag of `embed(value)`, and a case's constructor builds that
/// case whatever its argument (`embed` is one: `CasePath.case(_:)` asks for it). A reader that
/// still sees `-1` learns again, and gets the same.
///
/// ## Where it stops
/// A payload that generic code stores differently (a function, a metatype) is never read. When
/// `Value` is such a type, so that only such a payload could be the constructor's, the program
/// stops with a message naming the explicit form (`Mirror` could not read it either). A payload
/// type with no supertype but itself (`acceptsOnlyItself`) that is not `Value` is known not to
/// be the constructor's without calling it.
///
/// NB: the members are `@inlinable` so that a feature's module compiles the extraction
/// specialized for its own enum and payload types: unspecialized, every call looks up generic
/// metadata (`Optional<Value>`, the payload's copy), which costs more than the extraction.
/// `CasePath.case(_:)` captures the extractor alone in its closure, so the extractor is the
/// closure's context: a reducer's body, and its case paths, may be built for every action.
@usableFromInline
final class CaseExtractor<Root, Value>: Sendable {
  @usableFromInline let embed: @Sendable (Value) -> Root
  @usableFromInline let layout: EnumLayout?
  /// The learned case, `-1` until known: see `LearnedCase`.
  @usableFromInline let learned = Atomic<Int>(-1)
  /// The tags below 64 known, before the case is learned, never to hold a `Value`: bit *n* for
  /// tag *n*.
  ///
  /// NB: until an action of the constructor's case comes, every other action would learn again,
  /// and a payload that may be a `Value` (a tuple) was boxed and cast each time: a scope whose
  /// child never acts paid that on every action its parent saw. A bit is set only where `learn`
  /// refuses whatever the payload's value, so it says what learning would say.
  @usableFromInline let refused = Atomic<UInt64>(0)

  @inlinable
  init(embed: @escaping @Sendable (Value) -> Root) {
    self.embed = embed
    self.layout = EnumLayout.of(Root.self)
  }

  /// The payload of `root` when it is the case that `embed` constructs.
  @inlinable
  func extract(_ root: Root) -> Value? {
    guard let layout else { return mirrorExtract(root, embed: embed) }
    return withUnsafePointer(to: root) { root in
      let tag = layout.tag(of: root)
      let known = learned.load(ordering: .relaxed)
      guard known >= 0 else {
        if tag < 64, refused.load(ordering: .relaxed) & (1 &<< tag) != 0 { return nil }
        return learn(from: root, tag: tag, in: layout)
      }
      guard tag == known >> LearnedCase.tagShift else { return nil }
      switch known & LearnedCase.routeMask {
      case LearnedCase.load:
        return loadPayload(
          Value.self, of: root, isProjected: known & LearnedCase.isProjected != 0,
          isIndirect: known & LearnedCase.isIndirect != 0, in: layout)
      case LearnedCase.cast: return cast(root, tag: tag, in: layout)
      default: return nil
      }
    }
  }

  /// Extracts from a root whose case may be the constructor's, learning the constructor's case
  /// from the first payload that can be a `Value`.
  @inlinable
  func learn(from root: UnsafePointer<Root>, tag: Int, in layout: EnumLayout) -> Value? {
    let `case` = layout.cases[tag]
    guard let type = `case`.payload else {
      refuse(tag)
      return nil
    }
    guard `case`.hasGenericRepresentation else {
      // NB: such a payload is never read. It cannot be a `Value` unless `Value` has no generic
      // form either, which no extraction by reflection can return.
      Self.refuseValueWithoutGenericForm(Value.self, in: Root.self)
      refuse(tag)
      return nil
    }
    let value: Value
    if sameLayout(type, Value.self) {
      value = loadPayload(
        Value.self, of: root, isProjected: `case`.isProjected, isIndirect: `case`.isIndirect,
        in: layout)
    } else if `case`.acceptsOnlyItself {
      refuse(tag)
      return nil  // NB: the constructor cannot build this case from a `Value`.
    } else if let cast = cast(root, tag: tag, in: layout) {
      value = cast
    } else {
      if neverCasts(from: type) { refuse(tag) }
      return nil
    }
    let embeddedTag = withUnsafePointer(to: embed(value)) { layout.tag(of: $0) }
    let embeddedCase = layout.cases[embeddedTag]
    let route =
      if let type = embeddedCase.payload, embeddedCase.hasGenericRepresentation {
        sameLayout(type, Value.self) ? LearnedCase.load : LearnedCase.cast
      } else {
        LearnedCase.never
      }
    learned.store(
      LearnedCase.encode(tag: embeddedTag, route: route, case: embeddedCase), ordering: .relaxed)
    return embeddedTag == tag ? value : nil
  }

  /// Records that the case `tag` never holds a `Value`, when `refused` has its bit.
  @inlinable
  func refuse(_ tag: Int) {
    guard tag < 64 else { return }
    refused.bitwiseOr(1 &<< UInt64(tag), ordering: .relaxed)
  }

  /// Whether no payload of type `payload` is ever cast to a `Value`, whatever its value.
  ///
  /// NB: true of a tuple when `Value` is a struct or enum with no supertype but itself: `as?`
  /// turns a tuple into no such type. Other payloads (optionals, existentials, classes,
  /// collections) may or may not cast depending on the value they hold.
  @usableFromInline
  func neverCasts(from payload: Any.Type) -> Bool {
    TypeMetadata(payload).kind == MetadataKind.tuple && acceptsOnlyItself(Value.self)
  }

  /// The payload of the root at `root`, read as its own type and cast to `Value`.
  @inlinable
  func cast(_ root: UnsafePointer<Root>, tag: Int, in layout: EnumLayout) -> Value? {
    let `case` = layout.cases[tag]
    guard let type = `case`.payload else { return nil }
    func open<Payload>(_: Payload.Type) -> Any {
      loadPayload(
        Payload.self, of: root, isProjected: `case`.isProjected,
        isIndirect: `case`.isIndirect, in: layout)
    }
    return open(type) as? Value
  }

  /// Stops the program when `Value` is stored differently in an enum and in generic code.
  @usableFromInline
  static func refuseValueWithoutGenericForm(_ value: Any.Type, in root: Any.Type) {
    // NB: `fatalError`, not `precondition`, which drops its message in release builds.
    guard hasGenericRepresentation(value) else {
      fatalError(
        """
        CasePath.case(_:) cannot extract a payload of type '\(value)' from '\(root)': an enum \
        stores functions and metatypes in a form only a compiled pattern match reads. Pass the \
        extraction: .case(Enum.x) { if case .x(let value) = $0 { value } else { nil } }
        """)
    }
  }

  /// The extraction for an enum without reflection records: `Mirror`, checking that
  /// re-embedding the payload gives the same case name.
  @usableFromInline
  func mirrorExtract(_ root: Root, embed: (Value) -> Root) -> Value? {
    Self.refuseValueWithoutGenericForm(Value.self, in: Root.self)
    guard let (label, payload) = caseLabelAndPayload(of: root), let value = payload as? Value,
      caseLabelAndPayload(of: embed(value))?.label == label
    else { return nil }
    return value
  }
}

/// The payload of the enum value at `root`, read as a `Payload`, which must be laid out as the
/// payload of the value's case.
///
/// NB: projecting changes the enum's bits (it clears tag bits kept in the payload's spare bits),
/// so it runs on a bitwise copy on the stack, which owns nothing and is never destroyed: `root`
/// keeps the payload (and any box) alive while `load(as:)` copies it out. An enum with one
/// payload case keeps the payload's bits as they are, and needs no copy.
///
/// - Parameters:
///   - payload: The payload's type.
///   - root: The enum value.
///   - isProjected: Whether the payload is reached by projection (see `EnumLayout.Case`).
///   - isIndirect: Whether the payload is in a heap box.
///   - layout: The enum's layout.
/// - Returns: A copy of the payload.
@inlinable
func loadPayload<Root, Payload>(
  _ payload: Payload.Type, of root: UnsafePointer<Root>, isProjected: Bool, isIndirect: Bool,
  in layout: EnumLayout
) -> Payload {
  guard isProjected, !layout.projectionIsIdentity else {
    return payloadAddress(in: UnsafeRawPointer(root), isIndirect: isIndirect).load(as: payload)
  }
  return withUnsafeTemporaryAllocation(of: Root.self, capacity: 1) { copy in
    guard let bits = UnsafeMutableRawPointer(copy.baseAddress) else {
      preconditionFailure("A temporary allocation of one value has an address.")
    }
    bits.copyMemory(from: root, byteCount: MemoryLayout<Root>.size)
    layout.projectPayload(bits)
    return payloadAddress(in: bits, isIndirect: isIndirect).load(as: payload)
  }
}

/// How `CaseExtractor` keeps the learned case in one word: its tag, and how its payload is read.
@usableFromInline
enum LearnedCase {
  /// Read in place as a `Value` (`.load`), read as its own type and cast (`.cast`), or
  /// never (the constructor builds a case without a payload).
  @inlinable static var load: Int { 0 }
  @inlinable static var cast: Int { 1 }
  @inlinable static var never: Int { 2 }
  @inlinable static var routeMask: Int { 0b11 }
  /// The payload is in a heap box.
  @inlinable static var isIndirect: Int { 0b100 }
  /// The payload is reached by projecting the enum's value (see `EnumLayout.Case`).
  @inlinable static var isProjected: Int { 0b1000 }
  @inlinable static var tagShift: Int { 4 }

  @inlinable
  static func encode(tag: Int, route: Int, case: EnumLayout.Case) -> Int {
    tag << tagShift | route | (`case`.isIndirect ? isIndirect : 0)
      | (`case`.isProjected ? isProjected : 0)
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
