import Synchronization

/// What the Swift runtime records about an enum type: how to read a value's case (its tag), how
/// to reach the payload, and each case's payload type.
///
/// `CasePath.case(_:)` reads these once per enum type so it can extract by tag instead of by
/// `Mirror`. Everything here is the stable Swift ABI (the metadata, value witness, context
/// descriptor and field descriptor layouts of `include/swift/ABI/Metadata.h` and
/// `docs/ABI/TypeMetadata.rst`), the same records `Mirror` itself reads.
///
/// Tags number the cases that have a payload first, in declaration order, then the cases without
/// one; the runtime's field records for an enum come in that same order, which `init?(_:)`
/// checks before trusting them.
@usableFromInline
final class EnumLayout: @unchecked Sendable {
  // NB: @unchecked because of the raw pointers, which point at metadata the runtime never frees
  // or changes; everything is immutable.

  /// One case of the enum, by tag.
  @usableFromInline
  struct Case {
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
  let metadata: UnsafeRawPointer
  /// Every case, indexed by tag.
  @usableFromInline let cases: [Case]
  /// Whether projecting a value leaves its bits as they are: so in an enum with one payload
  /// case, whose other cases live in the payload's unused bit patterns or in bytes after it.
  @usableFromInline let projectionIsIdentity: Bool
  /// The enum's `getEnumTag` witness, `nil` for an enum of a single case.
  private let getEnumTag: ValueWitnesses.GetTag?

  /// The layout of `type`, read once and cached; `nil` when `type` is not an enum or its
  /// reflection records are missing or not as expected (callers then fall back to `Mirror`).
  ///
  /// - Complexity: O(1) without a lock once `type` has been read: a reducer's body, and the case
  ///   paths in it, may be built for every action.
  @usableFromInline
  static func of(_ type: Any.Type) -> EnumLayout? {
    let key = UInt(bitPattern: unsafeBitCast(type, to: UnsafeRawPointer.self))
    if let known = table.load(ordering: .acquiring)?.takeUnretainedValue().layout(for: key) {
      return known
    }
    return tables.withLock { tables in
      if let known = tables.last?.layout(for: key) { return known }
      let layout = EnumLayout(type)
      let next = LayoutTable(adding: (key, layout), to: tables.last)
      // NB: a reader may still hold an older table, so none is ever freed; there is one per
      // enum type that a case path was built for.
      tables.append(next)
      table.store(Unmanaged.passUnretained(next), ordering: .releasing)
      return layout
    }
  }

  /// The newest table of layouts, read without a lock.
  private static let table = Atomic<Unmanaged<LayoutTable>?>(nil)
  /// Every table so far, the newest last; the lock serializes additions.
  private static let tables = Mutex<[LayoutTable]>([])

  /// Reads the layout of `type` from its metadata.
  init?(_ type: Any.Type) {
    let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
    let kind = metadata.load(as: UInt.self)
    guard kind == MetadataKind.enum || kind == MetadataKind.optional else { return nil }
    let descriptor = metadata.load(fromByteOffset: pointerSize, as: UnsafeRawPointer.self)
    let flags = descriptor.load(as: UInt32.self)
    guard flags & 0x1F == ContextKind.enum, let fields = relativeTarget(descriptor + 16) else {
      return nil
    }
    let payloadCount = Int(descriptor.load(fromByteOffset: 20, as: UInt32.self) & 0xFF_FFFF)
    let emptyCount = Int(descriptor.load(fromByteOffset: 24, as: UInt32.self))
    let recordSize = Int(fields.load(fromByteOffset: 10, as: UInt16.self))
    let recordCount = Int(fields.load(fromByteOffset: 12, as: UInt32.self))
    guard recordCount == payloadCount + emptyCount, recordSize >= 12 else { return nil }
    let isGeneric = flags & 0x80 != 0
    var cases: [Case] = []
    for tag in 0..<recordCount {
      let record = fields + 16 + tag * recordSize
      let isIndirect = record.load(as: UInt32.self) & 0x1 != 0
      guard let name = relativeTarget(record + 4) else {
        // A case without a payload: only the tags after the payload cases may have none.
        guard tag >= payloadCount else { return nil }
        cases.append(
          Case(
            payload: nil, isIndirect: false, isProjected: false, hasGenericRepresentation: true,
            acceptsOnlyItself: true))
        continue
      }
      let typeName = name.assumingMemoryBound(to: UInt8.self)
      guard
        let payload = _getTypeByMangledNameInContext(
          typeName, UInt(mangledNameLength(typeName)), genericContext: descriptor,
          genericArguments: isGeneric ? metadata + 2 * pointerSize : nil)
      else { return nil }
      // NB: past the payload cases, a case has a payload only when the compiler numbered it
      // with the empty ones because its payload takes no space (in the enum: a struct's
      // metatype takes none there); anything else means the records are not in tag order, and
      // nothing here can be trusted.
      let isGenericForm = hasGenericRepresentation(payload)
      guard tag < payloadCount || (!isIndirect && (size(of: payload) == 0 || !isGenericForm))
      else { return nil }
      cases.append(
        Case(
          payload: payload, isIndirect: isIndirect && size(of: payload) > 0,
          isProjected: tag < payloadCount, hasGenericRepresentation: isGenericForm,
          acceptsOnlyItself: Loop.acceptsOnlyItself(payload)))
    }
    self.metadata = metadata
    self.cases = cases
    self.projectionIsIdentity = payloadCount <= 1
    self.getEnumTag =
      cases.count > 1
      ? ValueWitnesses(
        table: metadata.load(fromByteOffset: -pointerSize, as: UnsafeRawPointer.self)
      ).getEnumTag : nil
  }

  /// The tag (case number) of the enum value at `value`.
  @usableFromInline
  func tag(of value: UnsafeRawPointer) -> Int {
    // NB: older runtimes could answer a wrong tag for an enum of a single case; there is only
    // one answer anyway.
    guard let getEnumTag else { return 0 }
    return Int(getEnumTag(value, metadata))
  }

  /// Turns the enum value at `value` into its payload, in place: the value's bits afterwards are
  /// the payload's (for an indirect case, the box's reference) and no longer a valid enum value.
  ///
  /// NB: call it only on a bitwise copy that is never destroyed; it changes bits, never
  /// reference counts.
  @usableFromInline
  func projectPayload(_ value: UnsafeMutableRawPointer) {
    witnesses.destructiveProjectEnumData(value, metadata)
  }

  private var witnesses: ValueWitnesses {
    ValueWitnesses(table: metadata.load(fromByteOffset: -pointerSize, as: UnsafeRawPointer.self))
  }
}

/// An immutable hash table from type metadata addresses to their layouts (open addressing,
/// linear probing, at most half full).
private final class LayoutTable: @unchecked Sendable {
  // NB: @unchecked for `EnumLayout`'s raw pointers; a table never changes once built.
  private let keys: [UInt]
  private let layouts: [EnumLayout?]

  /// A table with the entries of `table` and `entry`.
  init(adding entry: (key: UInt, layout: EnumLayout?), to table: LayoutTable?) {
    var entries = table?.entries ?? []
    entries.append(entry)
    var capacity = 8
    while capacity < 2 * entries.count { capacity *= 2 }
    var keys = [UInt](repeating: 0, count: capacity)
    var layouts = [EnumLayout?](repeating: nil, count: capacity)
    for (key, layout) in entries {
      var slot = Self.slot(of: key, capacity: capacity)
      while keys[slot] != 0 { slot = (slot + 1) & (capacity - 1) }
      keys[slot] = key
      layouts[slot] = layout
    }
    self.keys = keys
    self.layouts = layouts
  }

  /// The layout stored for `key`: `.some(nil)` for a type known not to have one, `nil` for a
  /// type not in the table.
  func layout(for key: UInt) -> EnumLayout?? {
    var slot = Self.slot(of: key, capacity: keys.count)
    while keys[slot] != 0 {
      if keys[slot] == key { return .some(layouts[slot]) }
      slot = (slot + 1) & (keys.count - 1)
    }
    return nil
  }

  private var entries: [(key: UInt, layout: EnumLayout?)] {
    zip(keys, layouts).filter { $0.0 != 0 }.map { ($0.0, $0.1) }
  }

  /// Where probing for `key` starts (Fibonacci hashing of the address).
  private static func slot(of key: UInt, capacity: Int) -> Int {
    let hash = UInt64(key) &* 0x9E37_79B9_7F4A_7C15
    return Int(truncatingIfNeeded: hash >> UInt64(64 - capacity.trailingZeroBitCount))
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
  guard let elements = tupleElements(payload) else { return false }
  if elements.count == 1 && elements[0] == value { return true }
  guard let valueElements = tupleElements(value), valueElements.count == elements.count else {
    return false
  }
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
  let metadata = unsafeBitCast(payload, to: UnsafeRawPointer.self)
  let kind = metadata.load(as: UInt.self)
  guard kind == MetadataKind.struct || kind == MetadataKind.enum else { return false }
  let descriptor = metadata.load(fromByteOffset: pointerSize, as: UnsafeRawPointer.self)
  return !upcastDescriptors.contains(UInt(bitPattern: descriptor))
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
  let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
  switch metadata.load(as: UInt.self) {
  case MetadataKind.function, MetadataKind.metatype: return false
  case MetadataKind.tuple: return tupleElements(type)?.allSatisfy(hasGenericRepresentation) ?? false
  case MetadataKind.optional:
    // NB: an optional's single generic argument, its wrapped type, follows its descriptor.
    return hasGenericRepresentation(
      metadata.load(fromByteOffset: 2 * pointerSize, as: Any.Type.self))
  default: return true
  }
}

/// The byte size of a value of `type`.
func size(of type: Any.Type) -> Int {
  func size<T>(_: T.Type) -> Int { MemoryLayout<T>.size }
  return size(type)
}

/// The nominal type descriptors of the structs Swift upcasts implicitly.
private let upcastDescriptors: [UInt] = [
  [Int].self, [Int: Int].self, Set<Int>.self, AnyHashable.self,
].map {
  let metadata = unsafeBitCast($0, to: UnsafeRawPointer.self)
  return UInt(bitPattern: metadata.load(fromByteOffset: pointerSize, as: UnsafeRawPointer.self))
}

/// The element types of a tuple type, or `nil` when `type` is not a tuple.
private func tupleElements(_ type: Any.Type) -> [Any.Type]? {
  let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
  guard metadata.load(as: UInt.self) == MetadataKind.tuple else { return nil }
  let count = metadata.load(fromByteOffset: pointerSize, as: Int.self)
  // NB: after the kind, the count and the labels, each element is its type and its offset.
  return (0..<count).map {
    metadata.load(fromByteOffset: (3 + 2 * $0) * pointerSize, as: Any.Type.self)
  }
}

/// The length of a mangled type name, which may embed symbolic references holding zero bytes.
private func mangledNameLength(_ name: UnsafePointer<UInt8>) -> Int {
  var end = name
  while end.pointee != 0 {
    switch end.pointee {
    case 0x01...0x17: end += 1 + 4  // a relative reference: a 32-bit offset
    case 0x18...0x1F: end += 1 + pointerSize  // an absolute reference
    default: end += 1
    }
  }
  return end - name
}

/// The target of the 32-bit relative pointer at `pointer`, `nil` when it is null.
private func relativeTarget(_ pointer: UnsafeRawPointer) -> UnsafeRawPointer? {
  let offset = Int(pointer.load(as: Int32.self))
  return offset == 0 ? nil : pointer + offset
}

private let pointerSize = MemoryLayout<UnsafeRawPointer>.size

/// The metadata kinds read here (`include/swift/ABI/MetadataKind.def`).
private enum MetadataKind {
  static let `struct`: UInt = 0x200
  static let `enum`: UInt = 0x201
  static let optional: UInt = 0x202
  static let tuple: UInt = 0x301
  static let function: UInt = 0x302
  static let metatype: UInt = 0x304
}

/// The context descriptor kinds read here (`ContextDescriptorKind`).
private enum ContextKind {
  static let `enum`: UInt32 = 18
}

/// An enum's value witness table: eight functions, size, stride, flags and extra inhabitants,
/// then the three enum witnesses.
private struct ValueWitnesses {
  let table: UnsafeRawPointer

  // NB: the witnesses use the Swift calling convention, which passes these pointer and integer
  // arguments and results in the same registers as the C convention.
  typealias GetTag = @convention(c) (UnsafeRawPointer, UnsafeRawPointer) -> UInt32
  typealias Project = @convention(c) (UnsafeMutableRawPointer, UnsafeRawPointer) -> Void

  private static let enumWitnesses = 10 * pointerSize + 2 * 4

  var getEnumTag: GetTag {
    unsafeBitCast(
      table.load(fromByteOffset: Self.enumWitnesses, as: UnsafeRawPointer.self), to: GetTag.self)
  }

  var destructiveProjectEnumData: Project {
    unsafeBitCast(
      table.load(fromByteOffset: Self.enumWitnesses + pointerSize, as: UnsafeRawPointer.self),
      to: Project.self)
  }
}
