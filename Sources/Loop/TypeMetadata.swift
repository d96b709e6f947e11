/// A type's metadata record, read as the Swift runtime lays it out: the one place Loop reads raw
/// runtime records (for `EnumLayout`), each offset named after the field it reads.
///
/// The layouts are the stable Swift ABI (`include/swift/ABI/Metadata.h`, `MetadataKind.def`,
/// `docs/ABI/TypeMetadata.rst` in the Swift repository), the same records `Mirror` reads. The
/// compiler emits them or the runtime builds them once, and neither ever frees or changes them:
/// a pointer into them stays valid for the life of the process, and reading them needs no lock.
struct TypeMetadata {
  /// The metadata's address: what `Any.Type` holds.
  let address: UnsafeRawPointer

  /// The metadata of `type`.
  init(_ type: Any.Type) {
    address = unsafeBitCast(type, to: UnsafeRawPointer.self)
  }

  /// The metadata's kind (see `MetadataKind`): its first word.
  var kind: UInt { address.load(as: UInt.self) }

  /// The nominal type descriptor of a struct, enum or optional: the second word.
  var descriptor: UnsafeRawPointer {
    address.load(fromByteOffset: pointerSize, as: UnsafeRawPointer.self)
  }

  /// The generic arguments of a generic struct, enum or optional: the words after the
  /// descriptor, in declaration order.
  var genericArguments: UnsafeRawPointer { address + 2 * pointerSize }

  /// The type's value witness table: the word before the metadata.
  var valueWitnesses: ValueWitnesses {
    ValueWitnesses(table: address.load(fromByteOffset: -pointerSize, as: UnsafeRawPointer.self))
  }

  /// The element types of a tuple, `nil` for any other kind.
  var tupleElements: [Any.Type]? {
    guard kind == MetadataKind.tuple else { return nil }
    let count = address.load(fromByteOffset: pointerSize, as: Int.self)
    // NB: after the kind, the count and the labels, each element is its type and its offset.
    return (0..<count).map {
      address.load(fromByteOffset: (3 + 2 * $0) * pointerSize, as: Any.Type.self)
    }
  }
}

extension TypeMetadata {
  /// Whether the type is the standard library's struct or enum `name`, or an instance of it
  /// when it is generic: its descriptor has that name, and its parent is the module `Swift`.
  ///
  /// NB: by name, not by comparing descriptors with an instance's (`Result<Void, Never>`): the
  /// runtime makes an instance by checking its generic requirements (`Never: Error`), the first
  /// time a search of every conformance record of the process.
  func isStandardLibraryType(named name: StaticString) -> Bool {
    guard
      kind == MetadataKind.struct || kind == MetadataKind.enum
        || kind == MetadataKind.optional
    else { return false }
    // NB: a type's context descriptor holds its flags, its parent (a relative pointer that may
    // be indirect) and its name (a relative pointer to a C string); a module's (kind 0) too.
    let descriptor = self.descriptor
    guard let ownName = relativeTarget(descriptor + 8), cString(at: ownName, is: name),
      let parent = indirectableTarget(descriptor + 4),
      parent.load(as: UInt32.self) & 0x1F == 0,
      let module = relativeTarget(parent + 8)
    else { return false }
    return cString(at: module, is: "Swift")
  }
}

/// Whether the C string at `address` is `text`.
private func cString(at address: UnsafeRawPointer, is text: StaticString) -> Bool {
  let count = text.utf8CodeUnitCount
  let bytes = address.assumingMemoryBound(to: UInt8.self)
  for index in 0..<count where bytes[index] != text.utf8Start[index] { return false }
  return bytes[count] == 0
}

/// The target of a relative pointer whose low bit says it points at the target's address.
private func indirectableTarget(_ pointer: UnsafeRawPointer) -> UnsafeRawPointer? {
  let offset = Int(pointer.load(as: Int32.self))
  guard offset & 1 != 0 else { return relativeTarget(pointer) }
  return (pointer + (offset & ~1)).load(as: UnsafeRawPointer?.self)
}

/// The metadata kinds read here (`MetadataKind.def`).
enum MetadataKind {
  static let `struct`: UInt = 0x200
  static let `enum`: UInt = 0x201
  static let optional: UInt = 0x202
  static let tuple: UInt = 0x301
  static let function: UInt = 0x302
  static let metatype: UInt = 0x304
}

/// An enum's context descriptor (`TargetEnumDescriptor`): its case counts and field records.
struct EnumDescriptor {
  /// The descriptor's address, also the context in which its records' type names resolve.
  let address: UnsafeRawPointer

  /// The descriptor of the enum (or optional) `metadata` describes, `nil` for another kind.
  init?(of metadata: TypeMetadata) {
    guard metadata.kind == MetadataKind.enum || metadata.kind == MetadataKind.optional else {
      return nil
    }
    let descriptor = metadata.descriptor
    // NB: the flags' low five bits are the context's kind; 18 is an enum.
    guard descriptor.load(as: UInt32.self) & 0x1F == 18 else { return nil }
    address = descriptor
  }

  /// Whether the enum is generic (bit 7 of the flags): its payload types may name its
  /// generic arguments.
  var isGeneric: Bool { address.load(as: UInt32.self) & 0x80 != 0 }

  /// The field records, one a case (`Fields`, a relative pointer at offset 16); `nil` when the
  /// compiler emitted none (reflection metadata stripped).
  var fields: FieldDescriptor? { relativeTarget(address + 16).map(FieldDescriptor.init) }

  /// The number of cases with a payload (the low 24 bits of the word at offset 20).
  var payloadCaseCount: Int { Int(address.load(fromByteOffset: 20, as: UInt32.self) & 0xFF_FFFF) }

  /// The number of cases without one (offset 24).
  var emptyCaseCount: Int { Int(address.load(fromByteOffset: 24, as: UInt32.self)) }
}

/// A type's field descriptor (`FieldDescriptor`): a header of 16 bytes, then its records.
struct FieldDescriptor {
  let address: UnsafeRawPointer

  /// The size of one record (offset 10).
  var recordSize: Int { Int(address.load(fromByteOffset: 10, as: UInt16.self)) }
  /// The number of records (offset 12).
  var recordCount: Int { Int(address.load(fromByteOffset: 12, as: UInt32.self)) }

  /// The record at `index`, counted from 0.
  func record(_ index: Int) -> FieldRecord {
    FieldRecord(address: address + 16 + index * recordSize)
  }
}

/// One field record (`FieldRecord`): flags, then the relative pointers to the field's mangled
/// type name and to its name.
struct FieldRecord {
  /// The size of the fields read here; a descriptor whose records are smaller is not trusted.
  static let sizeRead = 12

  let address: UnsafeRawPointer

  /// Whether the case is `indirect` (bit 0 of the flags): its payload lives in a heap box.
  var isIndirect: Bool { address.load(as: UInt32.self) & 0x1 != 0 }

  /// The field's type, resolved in `descriptor`'s context with `genericArguments` (the enum
  /// metadata's, for a generic enum); `nil` for an enum case without a payload, and when the
  /// runtime cannot resolve the name.
  func type(in descriptor: EnumDescriptor, genericArguments: UnsafeRawPointer?) -> Any.Type? {
    guard let name = relativeTarget(address + 4)?.assumingMemoryBound(to: UInt8.self) else {
      return nil
    }
    return _getTypeByMangledNameInContext(
      name, UInt(mangledNameLength(name)), genericContext: descriptor.address,
      genericArguments: genericArguments)
  }

  /// Whether the record names a type: every case with a payload does, no other case does.
  var hasType: Bool { relativeTarget(address + 4) != nil }

  /// The field's name (an enum case's); `nil` when the record has none.
  var name: String? {
    relativeTarget(address + 8).map { String(cString: $0.assumingMemoryBound(to: CChar.self)) }
  }
}

/// A value witness table (`ValueWitnessTable`, then `EnumValueWitnessTable`): eight functions,
/// size, stride, flags and extra inhabitants, then an enum's three witnesses.
///
/// NB: the witnesses use the Swift calling convention, which passes these pointer and integer
/// arguments and results in the same registers as the C convention; the compiler's own generic
/// code calls them the same way, with the same arguments.
struct ValueWitnesses {
  let table: UnsafeRawPointer

  typealias GetTag = @convention(c) (UnsafeRawPointer, UnsafeRawPointer) -> UInt32
  typealias Project = @convention(c) (UnsafeMutableRawPointer, UnsafeRawPointer) -> Void

  private static let enumWitnesses = 10 * pointerSize + 2 * 4

  /// `getEnumTag(value, metadata)`: the case number of the enum value at `value`.
  var getEnumTag: GetTag {
    unsafeBitCast(
      table.load(fromByteOffset: Self.enumWitnesses, as: UnsafeRawPointer.self), to: GetTag.self)
  }

  /// `destructiveProjectEnumData(value, metadata)`: turns the enum value at `value` into its
  /// payload's bits, in place (clearing tag bits kept in the payload's spare bits).
  var destructiveProjectEnumData: Project {
    unsafeBitCast(
      table.load(fromByteOffset: Self.enumWitnesses + pointerSize, as: UnsafeRawPointer.self),
      to: Project.self)
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

let pointerSize = MemoryLayout<UnsafeRawPointer>.size
