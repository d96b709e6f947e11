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
public struct IdentifiedArray<ID: Hashable, Element: Identifiable> where Element.ID == ID {
  @usableFromInline var storage: [Element]
  /// Each element's position plus ``base``, by id.
  ///
  /// NB: with the base, inserting or removing renumbers only the shorter side of the array:
  /// inserting at the front (a newest-first list) moves the base instead of renumbering every
  /// element after it.
  @usableFromInline var offsets: [ID: Int]
  @usableFromInline var base = 0
  @usableFromInline var removals = 0

  /// Creates an empty array.
  public init() {
    self.storage = []
    self.offsets = [:]
  }

  /// Changes whenever an element may have left the array.
  ///
  /// That is when one is removed, or the whole array is replaced. `forEach` compares it before and after an action to cancel the effects of
  /// removed elements without scanning the array on every action.
  @inlinable
  package var membershipStamp: MembershipStamp {
    MembershipStamp(
      buffer: storage.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) },
      removals: removals)
  }

  /// Creates an array of `elements`, whose ids must be unique.
  ///
  /// - Parameter elements: The elements, in order.
  /// - Complexity: O(*n*).
  public init<S: Sequence>(uniqueElements elements: S) where S.Element == Element {
    self.init()
    for element in elements {
      let elementID = element.id
      precondition(
        offsets[elementID] == nil,
        "IdentifiedArray: duplicate id '\(elementID)'; every element must have a unique id.")
      offsets[elementID] = storage.count
      storage.append(element)
    }
  }

  /// The elements, in order.
  public var elements: [Element] { storage }

  /// The ids of the elements, in order.
  ///
  /// - Complexity: O(*n*).
  public var ids: [ID] { storage.map(\.id) }

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
      if let offset = position(of: id) {
        storage[offset] = newValue
      } else {
        offsets[id] = storage.count &+ base
        storage.append(newValue)
      }
    }
  }

  /// Returns the position of the element with the given id.
  ///
  /// - Complexity: O(1).
  @inlinable
  public func index(id: ID) -> Int? { position(of: id) }

  /// Returns whether an element with the given id is present.
  ///
  /// - Complexity: O(1).
  @inlinable
  public func contains(id: ID) -> Bool { offsets[id] != nil }

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
    return try body(&storage[offset])
  }

  /// Appends an element whose id is not yet present.
  ///
  /// - Parameter element: The element to append.
  /// - Returns: `true` when appended; `false` (and nothing changes) when the id was present.
  /// - Complexity: O(1) amortized.
  @discardableResult
  public mutating func append(_ element: Element) -> Bool {
    let id = element.id
    guard offsets[id] == nil else { return false }
    offsets[id] = storage.count &+ base
    storage.append(element)
    return true
  }

  /// Inserts an element whose id is not yet present at `index`.
  ///
  /// - Parameters:
  ///   - element: The element to insert.
  ///   - index: The position to insert it at.
  /// - Returns: `true` when inserted; `false` (and nothing changes) when the id was present.
  /// - Complexity: O(*n*).
  @inlinable
  @discardableResult
  public mutating func insert(_ element: Element, at index: Int) -> Bool {
    // NB: inlinable, like `subscript(id:)`, so that a feature inserting into its list runs it
    // specialized for its element: unspecialized, each offset it updates looks up generic
    // metadata, which made inserting at the front of thousands of elements take milliseconds.
    let id = element.id
    guard offsets[id] == nil else { return false }
    storage.insert(element, at: index)
    if index < storage.count / 2 {
      // Every position from `index` on grows by one: lower the base, and keep the front's.
      base &-= 1
      renumber(0..<index, by: -1)
    } else {
      renumber(index &+ 1..<storage.count, by: 1)
    }
    offsets[id] = index &+ base
    return true
  }

  /// Removes the element with the given id.
  ///
  /// - Parameter id: The id of the element to remove.
  /// - Returns: The removed element, or `nil` when no element had that id.
  /// - Complexity: O(*n*).
  @discardableResult
  public mutating func remove(id: ID) -> Element? {
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
    removals += 1
    let element = storage.remove(at: index)
    offsets[element.id] = nil
    if index < storage.count / 2 {
      // Every position after `index` shrinks by one: raise the base, and keep the front's.
      base &+= 1
      renumber(0..<index, by: 1)
    } else {
      renumber(index..<storage.count, by: -1)
    }
    return element
  }

  /// Removes every element that satisfies `shouldBeRemoved`, keeping the order of the rest.
  ///
  /// - Parameter shouldBeRemoved: Returns `true` for the elements to remove.
  /// - Complexity: O(*n*).
  public mutating func removeAll(where shouldBeRemoved: (Element) throws -> Bool) rethrows {
    removals += 1
    try storage.removeAll(where: shouldBeRemoved)
    offsets.removeAll(keepingCapacity: true)
    base = 0
    reindex()
  }

  /// Removes every element.
  public mutating func removeAll() {
    removals += 1
    storage.removeAll()
    offsets.removeAll()
    base = 0
  }

  /// Sorts the elements in place.
  ///
  /// - Parameter areInIncreasingOrder: The ordering.
  /// - Complexity: O(*n* log *n*).
  public mutating func sort(by areInIncreasingOrder: (Element, Element) throws -> Bool) rethrows {
    try storage.sort(by: areInIncreasingOrder)
    reindex()
  }

  /// The position of the element with the given id.
  @inlinable
  func position(of id: ID) -> Int? {
    guard let offset = offsets[id] else { return nil }
    return offset &- base
  }

  /// Records every element's position.
  private mutating func reindex() {
    for offset in storage.indices {
      offsets[storage[offset].id] = offset &+ base
    }
  }

  /// Moves the recorded positions of the elements at `positions` by `change`.
  @inlinable
  mutating func renumber(_ positions: Range<Int>, by change: Int) {
    for position in positions {
      offsets[storage[position].id]? &+= change
    }
  }
}

/// A value that changes whenever an element may have left an `IdentifiedArray`.
@usableFromInline
package struct MembershipStamp: Equatable {
  @usableFromInline let buffer: UnsafeRawPointer?
  @usableFromInline let removals: Int

  @inlinable
  init(buffer: UnsafeRawPointer?, removals: Int) {
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
  /// Replacing it must keep its id.
  public subscript(position: Int) -> Element {
    get { storage[position] }
    set {
      precondition(
        newValue.id == storage[position].id,
        "IdentifiedArray: an element replaced by position must keep its id "
          + "'\(storage[position].id)'; use subscript(id:) or remove and insert instead.")
      storage[position] = newValue
    }
    _modify {
      let id = storage[position].id
      yield &storage[position]
      precondition(
        storage[position].id == id,
        "IdentifiedArray: an element mutated by position must keep its id '\(id)'.")
    }
  }
}

extension IdentifiedArray: CustomStringConvertible {
  /// The elements, written like an array.
  public var description: String { storage.description }
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
    try container.encode(storage)
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
