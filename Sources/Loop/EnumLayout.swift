/// What the Swift runtime records about an enum type: how to read a value's case (its tag), how
/// to reach the payload, and each case's payload type.
///
/// `CasePath.case(_:)` reads it once per enum type (through `of(_:)`, cached) so it can extract
/// by tag instead of by `Mirror`; `EphemeralDismissal` compares two enums' payload types by tag.
///
/// ## What it owns
/// Nothing to free and nothing that changes: the address of the enum's metadata, its
/// `getEnumTag` witness, and `cases`, all read once in `init?(_:)`. The metadata and witnesses
/// belong to the runtime, which never frees or changes them (see `TypeMetadata`); that, and no
/// mutable state, is why a layout is shared between threads (`@unchecked Sendable`).
///
/// ## Tags
/// Tags number the cases that have a payload first, in declaration order, then the cases without
/// one; the runtime's field records for an enum come in that same order. `init?(_:)` trusts the
/// records only after checking they agree with the descriptor: as many records as cases, a type
/// name on every payload case, and past the payload cases only cases without a payload (or with
/// one that takes no space, which the compiler numbers among them). Anything else, or a name the
/// runtime cannot resolve, makes the layout `nil`, and callers use `Mirror`.
///
/// ## Why reading a payload out of the bits is sound, and where it stops
/// - The tag comes from the enum's own `getEnumTag` witness, which the compiler's generic code
///   calls in the same way.
/// - A payload shares its bits with the tag only in an enum of several payload cases (spare
///   bits); `projectPayload(_:)` clears them with the `destructiveProjectEnumData` witness. It
///   changes bits and never reference counts, so it runs on a bitwise copy that is never
///   destroyed, while the original value keeps the payload alive (`loadPayload`, in
///   `CaseExtractor.swift`); `load(as:)` then copies the payload out, retaining what it holds.
/// - An `indirect` case's bits are a reference to a heap box, reached by `payloadAddress`.
/// - A payload is read only as its own type or as one laid out exactly like it
///   (`sameLayout(_:_:)`); anything else goes through `as?` on a copy read as its own type.
/// - It stops at payloads that generic code stores differently from an enum (functions and
///   concrete metatypes: `hasGenericRepresentation(_:)`), which are never read, and at enums
///   without usable records (`nil`).
@usableFromInline
final class EnumLayout: @unchecked Sendable {
  /// One case of the enum, by tag.
  @usableFromInline
  struct Case {
    /// The case's name, as declared; `nil` when the runtime's record has none.
    @usableFromInline var name: String?
    /// The payload's type (a tuple when the case has several values), `nil` for no payload.
    @usableFromInline var payload: Any.Type?
    /// Whether the payload lives in a heap box (an `indirect` case); `false` for a payload that
    /// takes no space, which is never read.
    @usableFromInline var isIndirect: Bool
    /// Whether the value-witness projection reaches this case's payload (a case with a payload
    /// of size zero may be numbered among the cases without one; it needs no projection).
    @usableFromInline var isProjected: Bool
    /// Whether the payload is stored as generic code stores it: see
    /// `hasGenericRepresentation(_:)`.
    @usableFromInline var hasGenericRepresentation: Bool
    /// Whether no other type converts to the payload's: see `acceptsOnlyItself(_:)`.
    @usableFromInline var acceptsOnlyItself: Bool
  }

  /// The enum's type metadata.
  let metadata: TypeMetadata
  /// Every case, indexed by tag.
  @usableFromInline let cases: [Case]
  /// Whether projecting a value leaves its bits as they are: so in an enum with one payload
  /// case, whose other cases live in the payload's unused bit patterns or in bytes after it.
  @usableFromInline let projectionIsIdentity: Bool
  /// The enum's `getEnumTag` witness, `nil` for an enum of a single case.
  private let getEnumTag: ValueWitnesses.GetTag?

  /// Reads the layout of `type` from its metadata; `nil` when `type` is not an enum or its
  /// records are missing or not as expected (see "Tags" above).
  init?(_ type: Any.Type) {
    let metadata = TypeMetadata(type)
    guard let descriptor = EnumDescriptor(of: metadata), let fields = descriptor.fields else {
      return nil
    }
    let payloadCount = descriptor.payloadCaseCount
    guard fields.recordCount == payloadCount + descriptor.emptyCaseCount,
      fields.recordSize >= FieldRecord.sizeRead
    else { return nil }
    let genericArguments = descriptor.isGeneric ? metadata.genericArguments : nil
    var cases: [Case] = []
    for tag in 0..<fields.recordCount {
      let record = fields.record(tag)
      guard record.hasType else {
        // A case without a payload: only the tags after the payload cases may have none.
        guard tag >= payloadCount else { return nil }
        cases.append(
          Case(
            name: record.name, payload: nil, isIndirect: false, isProjected: false,
            hasGenericRepresentation: true, acceptsOnlyItself: true))
        continue
      }
      guard let payload = record.type(in: descriptor, genericArguments: genericArguments) else {
        return nil
      }
      // NB: past the payload cases, a case has a payload only when the compiler numbered it
      // with the empty ones because its payload takes no space (in the enum: a struct's
      // metatype takes none there); anything else means the records are not in tag order, and
      // nothing here can be trusted.
      let isGenericForm = hasGenericRepresentation(payload)
      guard tag < payloadCount || (!record.isIndirect && (size(of: payload) == 0 || !isGenericForm))
      else { return nil }
      cases.append(
        Case(
          name: record.name, payload: payload,
          isIndirect: record.isIndirect && size(of: payload) > 0,
          isProjected: tag < payloadCount, hasGenericRepresentation: isGenericForm,
          acceptsOnlyItself: Loop.acceptsOnlyItself(payload)))
    }
    self.metadata = metadata
    self.cases = cases
    self.projectionIsIdentity = payloadCount <= 1
    self.getEnumTag = cases.count > 1 ? metadata.valueWitnesses.getEnumTag : nil
  }

  /// The tag (case number) of the enum value at `value`.
  @usableFromInline
  func tag(of value: UnsafeRawPointer) -> Int {
    // NB: older runtimes could answer a wrong tag for an enum of a single case; there is only
    // one answer anyway.
    guard let getEnumTag else { return 0 }
    return Int(getEnumTag(value, metadata.address))
  }

  /// Turns the enum value at `value` into its payload, in place: the value's bits afterwards are
  /// the payload's (for an indirect case, the box's reference) and no longer a valid enum value.
  ///
  /// NB: call it only on a bitwise copy that is never destroyed; it changes bits, never
  /// reference counts.
  @usableFromInline
  func projectPayload(_ value: UnsafeMutableRawPointer) {
    metadata.valueWitnesses.destructiveProjectEnumData(value, metadata.address)
  }
}

/// Where the payload is, given an enum value's bits after `EnumLayout.projectPayload(_:)`.
///
/// - Parameters:
///   - projected: The projected bits: the payload, or the reference to its box.
///   - isIndirect: Whether the payload is boxed.
/// - Returns: The payload's address.
@usableFromInline
func payloadAddress(in projected: UnsafeRawPointer, isIndirect: Bool) -> UnsafeRawPointer {
  guard isIndirect else { return projected }
  guard let box = projected.load(as: UnsafeRawPointer?.self) else {
    preconditionFailure("An indirect enum case with a payload holds a box.")
  }
  // NB: as the runtime's `swift_projectBox` does: a box's metadata (the first word of the heap
  // object) holds the payload's offset after the kind, which accounts for the object's header
  // and the payload's alignment.
  let boxMetadata = box.load(as: UnsafeRawPointer.self)
  return box + Int(boxMetadata.load(fromByteOffset: pointerSize, as: UInt32.self))
}

/// Whether a payload of type `payload` is laid out exactly as a `value`: the same type, or
/// tuples that differ only in labels, or a one-element tuple and its element.
@inlinable
func sameLayout(_ payload: Any.Type, _ value: Any.Type) -> Bool {
  payload == value || sameTupleLayout(payload, value)
}

/// Whether `payload` is a tuple laid out exactly as a `value`: see `sameLayout(_:_:)`.
@usableFromInline
func sameTupleLayout(_ payload: Any.Type, _ value: Any.Type) -> Bool {
  guard let elements = TypeMetadata(payload).tupleElements else { return false }
  if elements.count == 1 && elements[0] == value { return true }
  guard let valueElements = TypeMetadata(value).tupleElements,
    valueElements.count == elements.count
  else { return false }
  return zip(elements, valueElements).allSatisfy { $0 == $1 }
}

/// Whether no `Value` other than `payload` itself can be passed where a `payload` is expected,
/// so a constructor `(payload) -> Root` can never have been converted to `(Value) -> Root`.
///
/// Swift converts a function's parameter only to a supertype: an existential, an optional, a
/// superclass, a tuple, a function or metatype, or one of the standard library's collection and
/// `AnyHashable` upcasts. A struct or enum (other than `Optional`, `Array`, `Dictionary`, `Set`
/// and `AnyHashable`) has no supertype but itself.
func acceptsOnlyItself(_ payload: Any.Type) -> Bool {
  let metadata = TypeMetadata(payload)
  guard metadata.kind == MetadataKind.struct || metadata.kind == MetadataKind.enum else {
    return false
  }
  return !["Array", "Dictionary", "Set", "AnyHashable"].contains {
    metadata.isStandardLibraryType(named: $0)
  }
}

/// Whether values of `type` are stored in an enum's payload exactly as generic code stores them.
///
/// NB: not so for functions and concrete metatypes, nor tuples and optionals of them: a
/// payload holds them in their concrete form (a function with its own calling convention, a
/// struct's metatype taking no space), while generic code (`Value`, `Any`) holds the generic
/// form, which only compiled pattern matches convert between. Reading such a payload as a
/// `Value` would call a function the wrong way or read a metatype that is not there; `Mirror`
/// has the same limit.
func hasGenericRepresentation(_ type: Any.Type) -> Bool {
  let metadata = TypeMetadata(type)
  switch metadata.kind {
  case MetadataKind.function, MetadataKind.metatype: return false
  case MetadataKind.tuple:
    return metadata.tupleElements?.allSatisfy(hasGenericRepresentation) ?? false
  case MetadataKind.optional:
    // NB: an optional's single generic argument is its wrapped type.
    return hasGenericRepresentation(metadata.genericArguments.load(as: Any.Type.self))
  default: return true
  }
}

/// The byte size of a value of `type`.
func size(of type: Any.Type) -> Int {
  func size<T>(_: T.Type) -> Int { MemoryLayout<T>.size }
  return size(type)
}
