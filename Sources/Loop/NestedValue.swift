/// The first value inside `value`, at any depth of the enum cases and tuples it is made of, for
/// which `find` answers: say the failure of a client's response somewhere inside an app's action
/// (`.links(.addResponse(.failure(error)))`).
///
/// Only a value whose type `isCandidate` accepts is shown to `find`; the search looks into the
/// payload of each enum case and the elements of each tuple it meets, never into a struct or
/// class (an action's draft or pushed state holds no response), nor into a payload that generic
/// code cannot read (a function, a metatype).
///
/// NB: an enum's case and payload are read by tag through its cached `EnumLayout`, the way
/// `CasePath.case(_:)` extracts, not through `Mirror`, which resolves the payload's type by name
/// on every read: a REPL looks through every action a command leads to. An enum without usable
/// reflection records falls back to `Mirror`.
///
/// - Parameters:
///   - value: Where to look.
///   - isCandidate: Whether a value of this type is one `find` looks at.
///   - find: What a candidate holds, or `nil` to go on looking.
/// - Returns: The first answer, in declaration order of tuple elements; `nil` when none.
package func firstNested<Root, Found>(
  in value: Root, isCandidate: (Any.Type) -> Bool, find: (Any) -> Found?
) -> Found? {
  if isCandidate(Root.self) { return find(value) }
  switch TypeMetadata(Root.self).kind {
  case MetadataKind.enum, MetadataKind.optional:
    guard let layout = EnumLayout.of(Root.self) else {
      return firstNestedInChildren(of: value, isCandidate: isCandidate, find: find)
    }
    return withUnsafePointer(to: value) { root in
      let tag = layout.tag(of: root)
      guard layout.cases.indices.contains(tag) else { return nil }
      let `case` = layout.cases[tag]
      guard let type = `case`.payload, `case`.hasGenericRepresentation,
        isCandidate(type) || mayHoldCandidates(type)
      else { return nil }
      func open<Payload>(_: Payload.Type) -> Found? {
        let payload = loadPayload(
          Payload.self, of: root, isProjected: `case`.isProjected,
          isIndirect: `case`.isIndirect, in: layout)
        return firstNested(in: payload, isCandidate: isCandidate, find: find)
      }
      return open(type)
    }
  case MetadataKind.tuple:
    return firstNestedInChildren(of: value, isCandidate: isCandidate, find: find)
  default:
    return nil
  }
}

/// Whether a value of `type` may be looked into: an enum or a tuple.
private func mayHoldCandidates(_ type: Any.Type) -> Bool {
  let kind = TypeMetadata(type).kind
  return kind == MetadataKind.enum || kind == MetadataKind.optional
    || kind == MetadataKind.tuple
}

/// `firstNested(in:isCandidate:find:)` over a tuple's elements, or an enum's payload read by
/// `Mirror`.
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
