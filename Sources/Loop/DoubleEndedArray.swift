/// The elements of an `IdentifiedArray`: an array that grows at either end in O(1).
///
/// A newest-first list (the ledger's transactions) inserts at the front on every add, where an
/// `Array` moves every element it holds. Here the elements inserted in front of the others are
/// kept in ``head``, last first, so that inserting at the front appends to it.
///
/// NB: a list that never grows at the front keeps ``head`` empty and is one `Array`:
/// ``elements`` hands it out without a copy, and comparing two copies compares buffers first.
@usableFromInline
struct DoubleEndedArray<Element> {
  /// The first elements, in reverse order: the first element is `head.last`.
  @usableFromInline var head: [Element]
  /// The elements after those of ``head``, in order.
  @usableFromInline var tail: [Element]

  /// No elements.
  @inlinable
  init() {
    self.head = []
    self.tail = []
  }

  /// `elements`, in order.
  @inlinable
  init(_ elements: [Element]) {
    self.head = []
    self.tail = elements
  }

  /// The elements, in order.
  ///
  /// - Complexity: O(1) when nothing was inserted at the front since the elements were last
  ///   made one array (see ``join()``); else O(*n*).
  @inlinable
  var elements: [Element] {
    head.isEmpty ? tail : head.reversed() + tail
  }

  /// Makes the elements one array (``head`` empty), for the changes that need them contiguous.
  ///
  /// - Complexity: O(*n*) when ``head`` holds elements; else O(1).
  @inlinable
  mutating func join() {
    guard !head.isEmpty else { return }
    tail.insert(contentsOf: head.reversed(), at: 0)
    head = []
  }

  /// Reserves room for `capacity` elements in all.
  @inlinable
  mutating func reserveCapacity(_ capacity: Int) {
    tail.reserveCapacity(capacity &- head.count)
  }

  /// Appends `element` at the end.
  ///
  /// - Complexity: O(1) amortized.
  @inlinable
  mutating func append(_ element: consuming Element) {
    tail.append(element)
  }

  /// Inserts `element` at `index`, moving the elements on the shorter side of it.
  ///
  /// - Complexity: O(1) amortized at the front and at the end; else O(*n*).
  @inlinable
  mutating func insert(_ element: Element, at index: Int) {
    let fromTail = index &- head.count
    // NB: at the boundary either half takes it: the one with fewer elements to move.
    if fromTail < 0 || (fromTail == 0 && head.count < tail.count) {
      head.insert(element, at: -fromTail)
    } else {
      tail.insert(element, at: fromTail)
    }
  }

  /// Removes and returns the element at `index`.
  ///
  /// - Complexity: O(*n*).
  @inlinable
  @discardableResult
  mutating func remove(at index: Int) -> Element {
    let fromTail = index &- head.count
    return fromTail >= 0 ? tail.remove(at: fromTail) : head.remove(at: ~fromTail)
  }

  /// Removes the first `count` elements.
  ///
  /// - Complexity: O(*n*).
  @inlinable
  mutating func removeFirst(_ count: Int) {
    let fromTail = count &- head.count
    if fromTail <= 0 {
      head.removeLast(count)
    } else {
      head = []
      tail.removeFirst(fromTail)
    }
  }

  /// Removes every element that satisfies `shouldBeRemoved`, asking it in order.
  @inlinable
  mutating func removeAll(where shouldBeRemoved: (Element) throws -> Bool) rethrows {
    join()
    try tail.removeAll(where: shouldBeRemoved)
  }

  /// Removes every element.
  @inlinable
  mutating func removeAll() {
    head = []
    tail = []
  }

  /// Sorts the elements in place.
  @inlinable
  mutating func sort(by areInIncreasingOrder: (Element, Element) throws -> Bool) rethrows {
    join()
    try tail.sort(by: areInIncreasingOrder)
  }

  /// The addresses of the two halves' buffers: they change when either half is replaced.
  @inlinable
  var bufferAddresses: (head: UnsafeRawPointer?, tail: UnsafeRawPointer?) {
    (
      head.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) },
      tail.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
    )
  }
}

extension DoubleEndedArray: RandomAccessCollection, MutableCollection {
  @inlinable
  var startIndex: Int { 0 }

  @inlinable
  var endIndex: Int { head.count &+ tail.count }

  @inlinable
  subscript(position: Int) -> Element {
    // NB: a position before the tail's is in the head counted from its end: `~fromTail` is
    // `head.count - 1 - position`. A position out of bounds is out of one half's bounds too.
    get {
      let fromTail = position &- head.count
      return fromTail >= 0 ? tail[fromTail] : head[~fromTail]
    }
    _modify {
      let fromTail = position &- head.count
      if fromTail >= 0 {
        yield &tail[fromTail]
      } else {
        yield &head[~fromTail]
      }
    }
  }

  @inlinable
  mutating func withContiguousMutableStorageIfAvailable<R>(
    _ body: (inout UnsafeMutableBufferPointer<Element>) throws -> R
  ) rethrows -> R? {
    join()
    return try tail.withContiguousMutableStorageIfAvailable(body)
  }

  @inlinable
  func withContiguousStorageIfAvailable<R>(
    _ body: (UnsafeBufferPointer<Element>) throws -> R
  ) rethrows -> R? {
    guard head.isEmpty else { return nil }
    return try tail.withContiguousStorageIfAvailable(body)
  }
}

extension DoubleEndedArray: Equatable where Element: Equatable {
  @inlinable
  static func == (lhs: Self, rhs: Self) -> Bool {
    // NB: halves split alike compare as arrays, which is O(1) for copies of one buffer.
    if lhs.head.count == rhs.head.count { return lhs.head == rhs.head && lhs.tail == rhs.tail }
    return lhs.count == rhs.count && lhs.elementsEqual(rhs)
  }
}

extension DoubleEndedArray: Hashable where Element: Hashable {
  /// Hashes the elements in order, as an array of them does.
  @inlinable
  func hash(into hasher: inout Hasher) {
    hasher.combine(count)
    for element in self { hasher.combine(element) }
  }
}

extension DoubleEndedArray: Sendable where Element: Sendable {}

extension DoubleEndedArray where Element: Identifiable {
  /// The id of the element at `position`, read in place.
  ///
  /// NB: reading it through the subscript copies the whole element first, retaining each of its
  /// references: indexing or finding elements by id read every id that way.
  @inlinable
  func id(at position: Int) -> Element.ID {
    let fromTail = position &- head.count
    return fromTail >= 0 ? tail[fromTail].id : head[~fromTail].id
  }
}
