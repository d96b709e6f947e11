/// The first value inside `value`, at any depth of the enum cases and tuples it is made of, for
/// which `find` answers: say the failure of a client's response somewhere inside an app's action
/// (`.links(.addResponse(.failure(error)))`).
///
/// Only a value whose type `isCandidate` accepts is shown to `find`; the search looks into the
/// payload of each enum case and the elements of each tuple it meets, never into a struct or
/// class (an action's draft or pushed state holds no response), nor into a payload that generic
/// code cannot read (a function, a metatype).
///
/// NB: it reads in place, never copying a payload until it reaches a candidate: an enum's case
/// by its tag and its payload's address through the cached `EnumLayout` that `CasePath.case(_:)`
/// extracts with (projecting a bitwise copy when the payload shares bits with the tag), a tuple's
/// elements at their offsets. `Mirror` resolves each payload's type by name on every read, which
/// cost a REPL command ~20 µs looking through the actions it led to; it remains the fallback for
/// an enum without usable reflection records.
///
/// - Parameters:
///   - value: Where to look.
///   - isCandidate: Whether a value of this type is one `find` looks at.
///   - find: What a candidate holds, or `nil` to go on looking.
/// - Returns: The first answer, in declaration order of tuple elements; `nil` when none.
package func firstNested<Root, Found>(
  in value: Root, isCandidate: (Any.Type) -> Bool, find: (Any) -> Found?
) -> Found? {
  withUnsafePointer(to: value) { address in
    firstNested(
      at: UnsafeRawPointer(address), of: Root.self, isCandidate: isCandidate, find: find)
  }
}

/// `firstNested(in:isCandidate:find:)` for the value of type `type` at `address`, which stays
/// valid (and keeps what it references alive) for the whole search.
private func firstNested<Found>(
  at address: UnsafeRawPointer, of type: Any.Type, isCandidate: (Any.Type) -> Bool,
  find: (Any) -> Found?
) -> Found? {
  if isCandidate(type) { return find(load(type, at: address)) }
  let metadata = TypeMetadata(type)
  switch metadata.kind {
  case MetadataKind.enum, MetadataKind.optional:
    guard let layout = EnumLayout.of(type) else {
      return firstNestedInChildren(
        of: load(type, at: address), isCandidate: isCandidate, find: find)
    }
    let tag = layout.tag(of: address)
    guard layout.cases.indices.contains(tag) else { return nil }
    let `case` = layout.cases[tag]
    guard let payload = `case`.payload, `case`.hasGenericRepresentation,
      isCandidate(payload) || mayHoldCandidates(payload)
    else { return nil }
    guard `case`.isProjected, !layout.projectionIsIdentity else {
      return firstNested(
        at: payloadAddress(in: address, isIndirect: `case`.isIndirect), of: payload,
        isCandidate: isCandidate, find: find)
    }
    // NB: projecting clears the tag's bits in the payload: on a bitwise copy that owns nothing
    // and is never destroyed, while the value at `address` keeps the payload alive.
    let size = Loop.size(of: type)
    return withUnsafeTemporaryAllocation(byteCount: size, alignment: 16) { buffer in
      guard let copy = buffer.baseAddress else { return nil }
      copy.copyMemory(from: address, byteCount: size)
      layout.projectPayload(copy)
      return firstNested(
        at: payloadAddress(in: copy, isIndirect: `case`.isIndirect), of: payload,
        isCandidate: isCandidate, find: find)
    }
  case MetadataKind.tuple:
    guard let elements = metadata.tupleElements else { return nil }
    for (index, element) in elements.enumerated()
    where isCandidate(element) || mayHoldCandidates(element) {
      // NB: after the kind, the count and the labels, each element is its type and its offset,
      // a word each; the offset is 32 bits off Apple's platforms (the word's other half is
      // padding, never to be read), and Apple's word holds it in its low half too.
      let offset = metadata.address.load(
        fromByteOffset: (3 + 2 * index + 1) * pointerSize, as: UInt32.self)
      if let found = firstNested(
        at: address + Int(offset), of: element, isCandidate: isCandidate, find: find)
      {
        return found
      }
    }
    return nil
  default:
    return nil
  }
}

/// A copy of the value of type `type` at `address`.
private func load(_ type: Any.Type, at address: UnsafeRawPointer) -> Any {
  func load<Value>(_: Value.Type) -> Any { address.load(as: Value.self) }
  return load(type)
}

/// Whether a value of `type` may be looked into: an enum or a tuple.
private func mayHoldCandidates(_ type: Any.Type) -> Bool {
  let kind = TypeMetadata(type).kind
  return kind == MetadataKind.enum || kind == MetadataKind.optional
    || kind == MetadataKind.tuple
}

/// `firstNested(in:isCandidate:find:)` over the payload of an enum without usable reflection
/// records, read by `Mirror`.
private func firstNestedInChildren<Found>(
  of value: Any, isCandidate: (Any.Type) -> Bool, find: (Any) -> Found?
) -> Found? {
  for child in Mirror(reflecting: value).children {
    func open<Child>(_: Child.Type) -> Found? {
      guard let child = child.value as? Child else { return nil }
      return firstNested(in: child, isCandidate: isCandidate, find: find)
    }
    let type = type(of: child.value)
    guard isCandidate(type) || mayHoldCandidates(type) else { continue }
    if let found = open(type) { return found }
  }
  return nil
}
