import Foundation

/// An ordered collection of elements with unique ids, with O(1) lookup and in-place update by id.
///
/// Feature state holds lists as `IdentifiedArrayOf<Row.State>` so that a row's action can find its
/// row by id without a linear search and mutate it without copying the array:
///
/// ```swift
/// var rows: IdentifiedArrayOf<Todo> = [Todo(id: 1, title: "Milk")]
/// rows[id: 1]?.title = "Oat milk"
/// rows.remove(id: 1)
/// ```
///
/// Duplicate ids are rejected: appending or inserting an element whose id is already present
/// leaves the array unchanged and returns `false`; building an array from a sequence with
/// duplicate ids is a programmer error and traps with a message naming the id.
///
/// It is a `MutableCollection`, so every algorithm of the standard library works on it and keeps
/// the lookup by id true: `swapAt`, `reverse()`, `shuffle()`, `partition(by:)`, `sort()`, on the
/// whole array or a slice of it. So do the moves a list screen makes:
///
/// ```swift
/// rows.move(fromOffsets: IndexSet([3]), toOffset: 0)
/// rows.remove(atOffsets: IndexSet([0, 2]))
/// rows.updateOrAppend(Todo(id: 7, title: "Bread"))
/// ```
public struct IdentifiedArray<ID: Hashable, Element: Identifiable> where Element.ID == ID {
  /// The elements, in order.
  ///
  /// NB: not an `Array`: inserting at the front of a newest-first list (each ledger add) moved
  /// every element; here it is O(1) (see `DoubleEndedArray`).
  @usableFromInline var storage: DoubleEndedArray<Element>
  /// Each element's position plus ``base``, by id.
  ///
  /// NB: with the base, inserting or removing renumbers only the shorter side of the array:
  /// inserting at the front (a newest-first list) moves the base instead of renumbering every
  /// element after it.
  @usableFromInline var offsets: [ID: Int]
  @usableFromInline var base = 0
  @usableFromInline var removals = 0
  /// How many positions hold an element that ``offsets`` does not point at.
  ///
  /// NB: assigning by position may leave two elements with one id for a while: a generic
  /// algorithm permutes by assignment, one element at a time. The count says when the index is
  /// whole again; until then lookups search the elements, and the next change by id rebuilds
  /// the index (trapping if two elements still share an id).
  @usableFromInline var strays = 0
  /// How many entries of ``offsets`` belong to no element: ids removed from the front, which
  /// keep their entries until there are more of them than four times the elements.
  ///
  /// NB: forgetting each removed id rehashed the ids after it in its run of the table, and
  /// indexing the rest afresh hashed every id kept: a list that keeps its last pages hashed each
  /// row three times. An entry is only trusted when the element at its position has its id.
  @usableFromInline var stale = 0
  /// The mark of the set of ids, and how it came from the one before.
  ///
  /// NB: every change that may add or remove an id sets it: a fresh one when the change is not
  /// a single id added or removed. It is not part of the value: equality and hashing ignore it.
  @usableFromInline var idSetVersion = IDSetVersion<ID>()

  /// Creates an empty array.
  @inlinable
  public init() {
    self.storage = DoubleEndedArray()
    self.offsets = [:]
  }

  /// Changes whenever an element may have left the array.
  ///
  /// That is when one is removed, or the whole array is replaced. `forEach` compares it before and after an action to cancel the effects of
  /// removed elements without scanning the array on every action.
  @inlinable
  package var membershipStamp: MembershipStamp {
    let buffers = storage.bufferAddresses
    return MembershipStamp(head: buffers.head, buffer: buffers.tail, removals: removals)
  }

  /// The mark of the set of ids, which changes whenever an id is added or removed.
  package var idSet: IDSetVersion<ID> { idSetVersion }

  /// Creates an array of `elements`, whose ids must be unique.
  ///
  /// - Parameter elements: The elements, in order.
  /// - Complexity: O(*n*).
  // NB: inlinable, like `insert`, so that a feature building its list from a page of rows runs
  // it specialized for its element: unspecialized, every id hashed and stored looks up generic
  // metadata (loop-bench: `link list` of 200,000 rows spent a tenth of its time here).
  @inlinable
  public init<S: Sequence>(uniqueElements elements: S) where S.Element == Element {
    self.init()
    offsets.reserveCapacity(elements.underestimatedCount)
    storage.reserveCapacity(elements.underestimatedCount)
    for element in elements {
      let elementID = element.id
      // NB: one hash of the id, not a look-up then a store: a page of rows hashes each id once.
      let previous = offsets.updateValue(storage.count, forKey: elementID)
      precondition(
        previous == nil,
        "IdentifiedArray: duplicate id '\(elementID)'; every element must have a unique id.")
      storage.append(element)
    }
  }

  /// The elements, in order.
  ///
  /// - Complexity: O(1), unless elements were inserted at the front since the array was last
  ///   sorted or rearranged; then O(*n*).
  public var elements: [Element] { storage.elements }

  /// The ids of the elements, in order: a view of the array, not a copy.
  ///
  /// - Complexity: O(1); its `contains(_:)` is O(1) too.
  public var ids: IDs { IDs(base: self) }

  /// Accesses the element with the given id, or `nil` when there is none.
  ///
  /// Setting an element replaces the element with that id in place (or appends it when the id is
  /// new); setting `nil` removes it.
  ///
  /// - Complexity: O(1) to read or update in place; O(*n*) to remove.
  @inlinable
  public subscript(id id: ID) -> Element? {
    get {
      guard let offset = position(of: id) else { return nil }
      return storage[offset]
    }
    set {
      guard let newValue else {
        remove(id: id)
        return
      }
      precondition(
        newValue.id == id,
        "IdentifiedArray: the element set for id '\(id)' has id '\(newValue.id)'.")
      repairIndexIfNeeded()
      if let offset = position(of: id) {
        storage[offset] = newValue
      } else {
        if offsets.updateValue(storage.count &+ base, forKey: id) != nil { stale &-= 1 }
        storage.append(newValue)
        idSetVersion = idSetVersion.changed(by: .inserted(id))
      }
    }
  }

  /// Returns the position of the element with the given id.
  ///
  /// - Complexity: O(1).
  @inlinable
  public func index(id: ID) -> Int? { position(of: id) }

  /// Returns the position of the element with the given id, looking first at `expected`.
  ///
  /// Walking a list of ids in this array's order (a screen's rows over the links it shows), each
  /// id is where the last one found was, plus one: comparing it there costs no hashing.
  ///
  /// - Parameters:
  ///   - id: The id.
  ///   - expected: Where the id most likely is; any number.
  /// - Returns: The position, or `nil` when no element has that id.
  /// - Complexity: O(1).
  @inlinable
  public func index(id: ID, expectedAt expected: Int) -> Int? {
    if strays == 0, expected >= 0, expected < storage.count, storage.id(at: expected) == id {
      return expected
    }
    return position(of: id)
  }

  /// Returns whether an element with the given id is present.
  ///
  /// - Complexity: O(1).
  @inlinable
  public func contains(id: ID) -> Bool { position(of: id) != nil }

  /// Mutates the element with the given id in place, without copying it or the array.
  ///
  /// - Parameters:
  ///   - id: The id of the element to change.
  ///   - body: The mutation.
  /// - Returns: What `body` returned, or `nil` when no element has that id.
  /// - Complexity: O(1) plus the cost of `body`.
  @inlinable
  public mutating func modify<Result>(
    id: ID, _ body: (inout Element) throws -> Result
  ) rethrows -> Result? {
    guard let offset = position(of: id) else { return nil }
    // NB: a body that changes the id replaces the element, as the position subscript does.
    defer { if storage.id(at: offset) != id { positionChangedID(offset, from: id) } }
    return try body(&storage[offset])
  }

  /// Appends an element whose id is not yet present.
  ///
  /// - Parameter element: The element to append.
  /// - Returns: `true` when appended; `false` (and nothing changes) when the id was present.
  /// - Complexity: O(1) amortized.
  // NB: inlinable for the same reason as `init(uniqueElements:)`; consuming, so that an element
  // made for the call (a page's link) moves in instead of being copied.
  @inlinable
  @discardableResult
  public mutating func append(_ element: consuming Element) -> Bool {
    repairIndexIfNeeded()
    let id = element.id
    // NB: one hash of the id when it is new (the common case), two when it was present.
    if let present = offsets.updateValue(storage.count &+ base, forKey: id) {
      guard isStale(present, of: id) else {
        offsets[id] = present
        return false
      }
      stale &-= 1
    }
    storage.append(element)
    idSetVersion = idSetVersion.changed(by: .inserted(id))
    return true
  }

  /// Inserts an element whose id is not yet present at `index`.
  ///
  /// - Parameters:
  ///   - element: The element to insert.
  ///   - index: The position to insert it at.
  /// - Returns: `true` when inserted; `false` (and nothing changes) when the id was present.
  /// - Complexity: O(1) amortized at the front and at the end; else O(*n*).
  @inlinable
  @discardableResult
  public mutating func insert(_ element: Element, at index: Int) -> Bool {
    // NB: inlinable, like `subscript(id:)`, so that a feature inserting into its list runs it
    // specialized for its element: unspecialized, each offset it updates looks up generic
    // metadata, which made inserting at the front of thousands of elements take milliseconds.
    repairIndexIfNeeded()
    let id = element.id
    guard position(of: id) == nil else { return false }
    storage.insert(element, at: index)
    if index < storage.count / 2 {
      // Every position from `index` on grows by one: lower the base, and keep the front's.
      base &-= 1
      renumber(0..<index, by: -1)
    } else {
      renumber(index &+ 1..<storage.count, by: 1)
    }
    if offsets.updateValue(index &+ base, forKey: id) != nil { stale &-= 1 }
    idSetVersion = idSetVersion.changed(by: .inserted(id))
    return true
  }

  /// Removes the element with the given id.
  ///
  /// - Parameter id: The id of the element to remove.
  /// - Returns: The removed element, or `nil` when no element had that id.
  /// - Complexity: O(*n*).
  @discardableResult
  public mutating func remove(id: ID) -> Element? {
    repairIndexIfNeeded()
    guard let offset = position(of: id) else { return nil }
    return remove(at: offset)
  }

  /// Removes the element at `index`.
  ///
  /// - Parameter index: A valid position.
  /// - Returns: The removed element.
  /// - Complexity: O(*n*).
  @discardableResult
  public mutating func remove(at index: Int) -> Element {
    repairIndexIfNeeded()
    removals += 1
    let element = storage.remove(at: index)
    offsets[element.id] = nil
    idSetVersion = idSetVersion.changed(by: .removed(element.id))
    if index < storage.count / 2 {
      // Every position after `index` shrinks by one: raise the base, and keep the front's.
      base &+= 1
      renumber(0..<index, by: 1)
    } else {
      renumber(index..<storage.count, by: -1)
    }
    return element
  }

  /// Removes the first `count` elements.
  ///
  /// A list that keeps only its last pages loaded drops its oldest rows this way.
  ///
  /// - Parameter count: How many to remove, from 0 to the number of elements.
  /// - Complexity: O(*n*) to move the rest, without hashing: the removed ids leave the index
  ///   later, all at once, when they outnumber the elements four to one.
  // NB: inlinable for the same reason as `insert(_:at:)`.
  @inlinable
  public mutating func removeFirst(_ count: Int) {
    precondition(
      count >= 0 && count <= storage.count,
      "IdentifiedArray.removeFirst(_:) removes from 0 to \(storage.count) elements, not \(count)")
    guard count > 0 else { return }
    repairIndexIfNeeded()
    removals += 1
    idSetVersion = IDSetVersion()
    storage.removeFirst(count)
    // Every position left shrinks by `count`; the removed ids' entries now point before the first.
    base &+= count
    stale &+= count
    if stale > storage.count &* 4 { indexAfresh() }
  }

  /// Indexes the elements afresh, keeping the table's capacity: no entry is stale after, and no
  /// element a stray.
  @inlinable
  mutating func indexAfresh() {
    offsets.removeAll(keepingCapacity: true)
    base = 0
    strays = 0
    stale = 0
    // NB: by position, reading only each id: enumerating copied every element kept.
    for position in storage.indices { offsets[storage.id(at: position)] = position }
  }

  /// Removes every element that satisfies `shouldBeRemoved`, keeping the order of the rest.
  ///
  /// - Parameter shouldBeRemoved: Returns `true` for the elements to remove.
  /// - Complexity: O(*n*).
  public mutating func removeAll(where shouldBeRemoved: (Element) throws -> Bool) rethrows {
    removals += 1
    // NB: before the removal, which may throw half-way.
    idSetVersion = IDSetVersion()
    try storage.removeAll(where: shouldBeRemoved)
    indexAfresh()
  }

  /// Removes every element.
  public mutating func removeAll() {
    removals += 1
    idSetVersion = IDSetVersion()
    storage.removeAll()
    offsets.removeAll()
    base = 0
    strays = 0
    stale = 0
  }

  /// Replaces the element with the same id in place, or appends it when its id is new.
  ///
  /// ```swift
  /// rows.updateOrAppend(Todo(id: 1, title: "Oat milk"))  // the old row 1, or nil
  /// ```
  ///
  /// - Parameter element: The element.
  /// - Returns: The element it replaced, or `nil` when it was appended.
  /// - Complexity: O(1) amortized.
  @discardableResult
  public mutating func updateOrAppend(_ element: Element) -> Element? {
    repairIndexIfNeeded()
    guard let offset = position(of: element.id) else {
      append(element)
      return nil
    }
    let old = storage[offset]
    storage[offset] = element
    return old
  }

  /// Moves the elements at `source` so that they stand, in their order, before the element
  /// that was at `destination` (or at the end): what a list's drag and drop reports.
  ///
  /// ```swift
  /// rows.move(fromOffsets: IndexSet([0]), toOffset: 3)  // [a, b, c, d] becomes [b, c, a, d]
  /// ```
  ///
  /// - Parameters:
  ///   - source: The positions of the elements to move.
  ///   - destination: A position from `0` to `count`, counted before the move.
  /// - Complexity: O(*n*).
  public mutating func move(fromOffsets source: IndexSet, toOffset destination: Int) {
    precondition(
      (0...storage.count).contains(destination),
      "IdentifiedArray.move: the destination \(destination) is outside 0...\(storage.count).")
    precondition(
      source.allSatisfy(storage.indices.contains),
      "IdentifiedArray.move: an offset to move is outside 0..<\(storage.count).")
    repairIndexIfNeeded()
    storage.join()
    var moved: [Element] = []
    var kept: [Element] = []
    moved.reserveCapacity(source.count)
    kept.reserveCapacity(storage.count - source.count)
    for (offset, element) in storage.enumerated() {
      if source.contains(offset) { moved.append(element) } else { kept.append(element) }
    }
    kept.insert(contentsOf: moved, at: destination - source.count(in: 0..<destination))
    // NB: written back in place, so the array keeps its buffer: no element left.
    for offset in storage.indices { storage[offset] = kept[offset] }
    reindex()
  }

  /// Removes the elements at `offsets`, keeping the order of the rest: what a list's swipe to
  /// delete reports.
  ///
  /// - Parameter offsets: The positions of the elements to remove.
  /// - Complexity: O(*n*).
  public mutating func remove(atOffsets offsets: IndexSet) {
    guard !offsets.isEmpty else { return }
    precondition(
      offsets.allSatisfy(storage.indices.contains),
      "IdentifiedArray.remove(atOffsets:): an offset is outside 0..<\(storage.count).")
    repairIndexIfNeeded()
    var kept: [Element] = []
    kept.reserveCapacity(storage.count - offsets.count)
    for (offset, element) in storage.enumerated() where !offsets.contains(offset) {
      kept.append(element)
    }
    removals += 1
    idSetVersion = IDSetVersion()
    storage = DoubleEndedArray(kept)
    indexAfresh()
  }

  /// The elements that satisfy `isIncluded`, in order, as an identified array.
  ///
  /// - Parameter isIncluded: Returns `true` for the elements to keep.
  /// - Returns: The kept elements.
  /// - Complexity: O(*n*).
  public func filter(_ isIncluded: (Element) throws -> Bool) rethrows -> Self {
    var result = Self()
    for element in storage where try isIncluded(element) {
      result.offsets[element.id] = result.storage.count
      result.storage.append(element)
    }
    return result
  }

  /// Sorts the elements in place.
  ///
  /// - Parameter areInIncreasingOrder: The ordering.
  /// - Complexity: O(*n* log *n*).
  public mutating func sort(by areInIncreasingOrder: (Element, Element) throws -> Bool) rethrows {
    repairIndexIfNeeded()
    // NB: the index is rebuilt even when the ordering throws half-way.
    defer { reindex() }
    try storage.sort(by: areInIncreasingOrder)
  }

  /// The position of the element with the given id.
  @inlinable
  func position(of id: ID) -> Int? {
    guard strays == 0 else { return storage.firstIndex { $0.id == id } }
    guard let offset = offsets[id], !isStale(offset, of: id) else { return nil }
    return offset &- base
  }

  /// Whether an entry of ``offsets`` for `id` belongs to no element (see ``stale``).
  ///
  /// NB: a stale entry may point at any position, even one in range after inserts at the front
  /// moved the base: only the id there tells.
  @inlinable
  func isStale(_ offset: Int, of id: ID) -> Bool {
    guard stale != 0 else { return false }
    let position = offset &- base
    return position < 0 || position >= storage.count || storage.id(at: position) != id
  }

  /// Records every element's position, when the ids are those already indexed.
  private mutating func reindex() {
    for offset in storage.indices {
      offsets[storage.id(at: offset)] = offset &+ base
    }
  }

  /// Rebuilds the index after assignments by position left it incomplete.
  @inlinable
  mutating func repairIndexIfNeeded() {
    if strays != 0 { rebuildIndex() }
  }

  /// Indexes the elements from scratch, after anything may have happened to them in place;
  /// traps naming an id two elements share.
  @usableFromInline
  mutating func rebuildIndex() {
    var rebuilt: [ID: Int] = [:]
    rebuilt.reserveCapacity(storage.count)
    var isAnyNew = false
    for (position, element) in storage.enumerated() {
      let id = element.id
      precondition(
        rebuilt.updateValue(position, forKey: id) == nil,
        "IdentifiedArray: two elements have the id '\(id)'; every element must have a unique id.")
      if offsets[id] == nil { isAnyNew = true }
    }
    // NB: as many elements as before, so an id that is new means another one left.
    if isAnyNew || rebuilt.count != offsets.count &- stale { removals += 1 }
    idSetVersion = IDSetVersion()
    offsets = rebuilt
    base = 0
    strays = 0
    stale = 0
  }

  /// Keeps the index true after the element at `position`, which had the id `old`, was replaced
  /// by one with another id.
  @usableFromInline
  mutating func positionChangedID(_ position: Int, from old: ID) {
    let new = storage.id(at: position)
    let key = position &+ base
    idSetVersion = IDSetVersion()
    if offsets[old] == key {
      offsets[old] = nil
      removals += 1
    } else {
      // The element replaced was a stray: a second element with its id.
      strays -= 1
    }
    if let previous = offsets.updateValue(key, forKey: new) {
      if previous != key, !isStale(previous, of: new) {
        // Another element has this id: until it is replaced too, it is a stray.
        strays += 1
      } else {
        stale &-= 1
      }
    }
  }

  /// Moves the recorded positions of the elements at `positions` by `change`.
  @inlinable
  mutating func renumber(_ positions: Range<Int>, by change: Int) {
    for position in positions {
      offsets[storage.id(at: position)]? &+= change
    }
  }
}

/// A value that changes whenever an element may have left an `IdentifiedArray`.
@usableFromInline
package struct MembershipStamp: Equatable {
  @usableFromInline let head: UnsafeRawPointer?
  @usableFromInline let buffer: UnsafeRawPointer?
  @usableFromInline let removals: Int

  @inlinable
  init(head: UnsafeRawPointer?, buffer: UnsafeRawPointer?, removals: Int) {
    self.head = head
    self.buffer = buffer
    self.removals = removals
  }
}

/// An `IdentifiedArray` of `Identifiable` elements, keyed by their `id`.
public typealias IdentifiedArrayOf<Element: Identifiable> = IdentifiedArray<Element.ID, Element>

extension IdentifiedArray: ExpressibleByArrayLiteral {
  /// Creates an array from a literal whose elements have unique ids.
  public init(arrayLiteral elements: Element...) {
    self.init(uniqueElements: elements)
  }
}

extension IdentifiedArray: RandomAccessCollection, MutableCollection {
  /// The position of the first element.
  public var startIndex: Int { storage.startIndex }

  /// The position one past the last element.
  public var endIndex: Int { storage.endIndex }

  /// Accesses the element at `position`.
  ///
  /// An element of another id replaces the one there, as removing it and inserting the new one
  /// would. The algorithms of the standard library assign elements by position while they
  /// permute them, so two elements may share an id for a while: lookups stay right meanwhile,
  /// and the next change by id traps if two elements still share one.
  // NB: inlinable, as `subscript(id:)` is: a screen reading its rows by position ran it
  // unspecialized, looking up the element's metadata for each row.
  @inlinable
  public subscript(position: Int) -> Element {
    get { storage[position] }
    set {
      let old = storage.id(at: position)
      storage[position] = newValue
      if newValue.id != old { positionChangedID(position, from: old) }
    }
    _modify {
      let old = storage.id(at: position)
      defer {
        if storage.id(at: position) != old { positionChangedID(position, from: old) }
      }
      yield &storage[position]
    }
  }

  /// Exchanges the elements at two positions, and their positions in the id index.
  ///
  /// The standard library's `reverse()`, `shuffle()` and `partition(by:)` are built on it.
  ///
  /// - Parameters:
  ///   - i: A valid position.
  ///   - j: Another valid position.
  /// - Complexity: O(1).
  public mutating func swapAt(_ i: Int, _ j: Int) {
    guard i != j else { return }
    let (first, second) = (storage.id(at: i), storage.id(at: j))
    let (firstKey, secondKey) = (i &+ base, j &+ base)
    // NB: only an element the index points at takes its entry along (see `strays`).
    let movesFirst = offsets[first] == firstKey
    let movesSecond = offsets[second] == secondKey
    storage.swapAt(i, j)
    if movesFirst { offsets[first] = secondKey }
    if movesSecond { offsets[second] = firstKey }
  }

  /// Calls `body` with the elements' contiguous storage, then indexes them again.
  ///
  /// The standard library sorts and partitions through it. `body` may rearrange the elements or
  /// replace them; when it leaves two with one id, this traps naming the id.
  ///
  /// - Parameter body: Reads and writes the elements.
  /// - Returns: What `body` returned.
  /// - Complexity: O(*n*) besides `body`.
  public mutating func withContiguousMutableStorageIfAvailable<R>(
    _ body: (inout UnsafeMutableBufferPointer<Element>) throws -> R
  ) rethrows -> R? {
    defer { rebuildIndex() }
    return try storage.withContiguousMutableStorageIfAvailable(body)
  }

  /// Calls `body` with the elements' contiguous storage, when they are contiguous.
  ///
  /// They are not after elements were inserted at the front (which is O(1) for that), until the
  /// array is next sorted or rearranged; then this returns `nil` without calling `body`.
  ///
  /// - Parameter body: Reads the elements.
  /// - Returns: What `body` returned, or `nil`.
  public func withContiguousStorageIfAvailable<R>(
    _ body: (UnsafeBufferPointer<Element>) throws -> R
  ) rethrows -> R? {
    try storage.withContiguousStorageIfAvailable(body)
  }
}

extension IdentifiedArray: CustomStringConvertible {
  /// The elements, written like an array.
  public var description: String { storage.elements.description }
}

extension IdentifiedArray: Equatable where Element: Equatable {
  /// Two arrays are equal when they hold equal elements in the same order.
  public static func == (lhs: Self, rhs: Self) -> Bool { lhs.storage == rhs.storage }
}

extension IdentifiedArray: Hashable where Element: Hashable {
  /// Hashes the elements in order.
  public func hash(into hasher: inout Hasher) { hasher.combine(storage) }
}

extension IdentifiedArray: Sendable where Element: Sendable, ID: Sendable {}

extension IdentifiedArray: Encodable where Element: Encodable {
  /// Encodes the elements as an array.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(storage.elements)
  }
}

extension IdentifiedArray: Decodable where Element: Decodable {
  /// Decodes an array of elements, failing when two share an id.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let elements = try container.decode([Element].self)
    self.init()
    for element in elements where !append(element) {
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: "Duplicate id '\(element.id)' in IdentifiedArray.")
    }
  }
}

extension IdentifiedArray {
  /// The ids of an identified array's elements, in order: a view that shares the array's
  /// storage.
  ///
  /// ```swift
  /// rows.ids.contains(7)        // O(1)
  /// rows.ids == [3, 1]          // compares with an array of ids
  /// ```
  public struct IDs: RandomAccessCollection, Equatable, CustomStringConvertible {
    let base: IdentifiedArray

    /// The position of the first id.
    public var startIndex: Int { base.startIndex }

    /// The position one past the last id.
    public var endIndex: Int { base.endIndex }

    /// The id at `position`.
    public subscript(position: Int) -> ID { base.storage.id(at: position) }

    /// Whether `id` is one of the ids.
    ///
    /// - Parameter id: The id.
    /// - Returns: `true` when an element has it.
    /// - Complexity: O(1).
    public func contains(_ id: ID) -> Bool { base.contains(id: id) }

    /// The ids, written like an array.
    public var description: String { Array(self).description }

    /// Two views are equal when they hold the same ids in the same order.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.elementsEqual(rhs) }

    /// Whether the view holds the ids of `rhs`, in its order.
    public static func == (lhs: Self, rhs: [ID]) -> Bool { lhs.elementsEqual(rhs) }

    /// Whether the view holds the ids of `lhs`, in its order.
    public static func == (lhs: [ID], rhs: Self) -> Bool { lhs.elementsEqual(rhs) }
  }
}

extension IdentifiedArray.IDs: Sendable where Element: Sendable, ID: Sendable {}

/// The identified elements of a collection, so that the state diff can match rows by id.
package protocol IdentifiedElements {
  /// The elements with their ids, in order.
  var identifiedElements: [(id: AnyHashable, element: Any)] { get }
}

extension IdentifiedArray: IdentifiedElements {
  package var identifiedElements: [(id: AnyHashable, element: Any)] {
    storage.map { (AnyHashable($0.id), $0 as Any) }
  }
}
