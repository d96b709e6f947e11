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
  in value: Root, isCandidate: @escaping (Any.Type) -> Bool, find: (Any) -> Found?
) -> Found? {
  NestedSearch(isCandidate: isCandidate).first(in: value, find: find)
}

/// `firstNested(in:isCandidate:find:)` kept for many searches by one predicate, or by none
/// (`resultFailures()`): each type it meets is sorted once, by whether it is a candidate, may
/// hold one, or cannot.
///
/// NB: a search through an action that cannot hold a candidate (the REPL's tap looks through
/// every action the store processes) stops at the first case whose payload cannot, without
/// reading it; one that may costs a lookup a level, where each level asked the runtime whether
/// its type conforms (`isCandidate`) and looked its layout up. Not `Sendable`: its cache
/// changes as it meets types; the REPL's tap keeps one on the main actor.
package final class NestedSearch {
  /// What the search shows to `find`.
  private enum Candidates {
    /// Values of the types the predicate accepts.
    case types((Any.Type) -> Bool)
    /// The failures of `Result` values.
    case resultFailures
  }

  /// What a type is to the search.
  ///
  /// NB: a class, so that a lookup copies one reference. An enum's cases are sorted as values
  /// of them are met, not all when the enum is: sorting a type may ask the runtime whether it
  /// conforms (`isCandidate`), a walk of every conformance the program has, and an app's action
  /// names hundreds of types, most of which a session never meets (the first command of a REPL
  /// took 5 ms longer sorting them all). Only its own search, on one actor, changes it.
  private final class Sort {
    /// Whether a value of the type is shown to `find`.
    let isCandidate: Bool
    /// The enum's layout, when a case of it has a payload.
    let layout: EnumLayout?
    /// The tag of the case whose payload is shown to `find` (a `Result`'s failure), if any.
    let candidateTag: Int?
    /// Whether the payload of each case, by tag, may hold a candidate; `nil` until a value of
    /// the case is met.
    var casesMayHold: [Bool?]
    /// The tuple's elements that may hold a candidate, with their offsets.
    let elementsMayHold: [(type: Any.Type, offset: Int)]
    /// Whether the type is an enum without usable reflection records, read by `Mirror`.
    let isMirrored: Bool

    init(
      isCandidate: Bool = false, layout: EnumLayout? = nil, candidateTag: Int? = nil,
      elementsMayHold: [(type: Any.Type, offset: Int)] = [], isMirrored: Bool = false
    ) {
      self.isCandidate = isCandidate
      self.layout = layout
      self.candidateTag = candidateTag
      self.casesMayHold = Array(repeating: nil, count: layout?.cases.count ?? 0)
      if let candidateTag { casesMayHold[candidateTag] = true }
      self.elementsMayHold = elementsMayHold
      self.isMirrored = isMirrored
    }

    /// Whether a value of the type may hold a candidate, or is one (an enum with a payload
    /// counts as one that may, until its cases are met).
    var mayHold: Bool {
      isCandidate || layout != nil || !elementsMayHold.isEmpty || isMirrored
    }
  }

  private let candidates: Candidates
  /// The sort of each type met, by the address of its metadata (unique per type, never freed).
  private var sorts: [UInt: Sort] = [:]

  /// A search for the values whose type `isCandidate` accepts.
  package init(isCandidate: @escaping (Any.Type) -> Bool) {
    candidates = .types(isCandidate)
  }

  private init(candidates: Candidates) {
    self.candidates = candidates
  }

  /// A search for the failure of a `Result`, whatever its types: the error a client's response
  /// carries (`.addResponse(.failure(error))`).
  ///
  /// NB: it knows a `Result` by its descriptor's name, and asks the runtime nothing else: a search
  /// for `any Error` values asks, of each type it meets, whether it conforms, a walk of every
  /// conformance the program has (a quarter of the conformance lookups of the REPL's first
  /// command). A failure is only ever found inside a `Result`.
  package static func resultFailures() -> NestedSearch {
    NestedSearch(candidates: .resultFailures)
  }

  /// The first value inside `value` for which `find` answers: see
  /// `firstNested(in:isCandidate:find:)`.
  package func first<Root, Found>(in value: Root, find: (Any) -> Found?) -> Found? {
    withUnsafePointer(to: value) { address in
      first(at: UnsafeRawPointer(address), of: Root.self, find: find)
    }
  }

  /// The sort of `type`, worked out the first time it is met.
  private func sort(of type: Any.Type) -> Sort {
    let key = UInt(bitPattern: TypeMetadata(type).address)
    if let known = sorts[key] { return known }
    // NB: a type that holds itself (an `indirect` case) meets itself while it is sorted: until
    // then it counts as one that may hold a candidate, which only ever costs a look.
    sorts[key] = Sort(isMirrored: true)
    let sort = makeSort(of: type)
    sorts[key] = sort
    return sort
  }

  private func makeSort(of type: Any.Type) -> Sort {
    if case .types(let isCandidate) = candidates, isCandidate(type) {
      return Sort(isCandidate: true)
    }
    let metadata = TypeMetadata(type)
    switch metadata.kind {
    case MetadataKind.enum, MetadataKind.optional:
      guard let layout = EnumLayout.of(type) else { return Sort(isMirrored: true) }
      if case .resultFailures = candidates, metadata.isStandardLibraryType(named: "Result"),
        let failure = layout.cases.firstIndex(where: { $0.name == "failure" }),
        layout.cases[failure].hasGenericRepresentation
      {
        return Sort(layout: layout, candidateTag: failure)
      }
      guard layout.cases.contains(where: { $0.payload != nil && $0.hasGenericRepresentation })
      else { return Sort() }
      return Sort(layout: layout)
    case MetadataKind.tuple:
      guard let elements = metadata.tupleElements else { return Sort() }
      var elementsMayHold: [(type: Any.Type, offset: Int)] = []
      for (index, element) in elements.enumerated() where sort(of: element).mayHold {
        // NB: after the kind, the count and the labels, each element is its type and its
        // offset, a word each; the offset is 32 bits off Apple's platforms (the word's other
        // half is padding, never to be read), and Apple's word holds it in its low half too.
        let offset = metadata.address.load(
          fromByteOffset: (3 + 2 * index + 1) * pointerSize, as: UInt32.self)
        elementsMayHold.append((element, Int(offset)))
      }
      return Sort(elementsMayHold: elementsMayHold)
    default:
      return Sort()
    }
  }

  /// `first(in:find:)` for the value of type `type` at `address`, which stays valid (and keeps
  /// what it references alive) for the whole search.
  private func first<Found>(
    at address: UnsafeRawPointer, of type: Any.Type, find: (Any) -> Found?
  ) -> Found? {
    let sort = sort(of: type)
    if sort.isCandidate { return find(load(type, at: address)) }
    if sort.isMirrored { return firstInChildren(of: load(type, at: address), find: find) }
    for element in sort.elementsMayHold {
      if let found = first(at: address + element.offset, of: element.type, find: find) {
        return found
      }
    }
    guard let layout = sort.layout else { return nil }
    let tag = layout.tag(of: address)
    guard layout.cases.indices.contains(tag), let payload = layout.cases[tag].payload else {
      return nil
    }
    let `case` = layout.cases[tag]
    let mayHold: Bool
    if let known = sort.casesMayHold[tag] {
      mayHold = known
    } else {
      mayHold = `case`.hasGenericRepresentation && self.sort(of: payload).mayHold
      sort.casesMayHold[tag] = mayHold
    }
    guard mayHold else { return nil }
    let isCandidate = tag == sort.candidateTag
    func look(at payloadAddress: UnsafeRawPointer) -> Found? {
      isCandidate
        ? find(load(payload, at: payloadAddress))
        : first(at: payloadAddress, of: payload, find: find)
    }
    guard `case`.isProjected, !layout.projectionIsIdentity else {
      return look(at: payloadAddress(in: address, isIndirect: `case`.isIndirect))
    }
    // NB: projecting clears the tag's bits in the payload: on a bitwise copy that owns nothing
    // and is never destroyed, while the value at `address` keeps the payload alive.
    let size = Loop.size(of: type)
    return withUnsafeTemporaryAllocation(byteCount: size, alignment: 16) { buffer in
      guard let copy = buffer.baseAddress else { return nil }
      copy.copyMemory(from: address, byteCount: size)
      layout.projectPayload(copy)
      return look(at: payloadAddress(in: copy, isIndirect: `case`.isIndirect))
    }
  }

  /// `first(in:find:)` over the payload of an enum without usable reflection records, read by
  /// `Mirror`.
  private func firstInChildren<Found>(of value: Any, find: (Any) -> Found?) -> Found? {
    for child in Mirror(reflecting: value).children {
      func open<Child>(_: Child.Type) -> Found? {
        guard let child = child.value as? Child else { return nil }
        return first(in: child, find: find)
      }
      let type = type(of: child.value)
      guard sort(of: type).mayHold else { continue }
      if let found = open(type) { return found }
    }
    return nil
  }
}

/// A copy of the value of type `type` at `address`.
private func load(_ type: Any.Type, at address: UnsafeRawPointer) -> Any {
  func load<Value>(_: Value.Type) -> Any { address.load(as: Value.self) }
  return load(type)
}
