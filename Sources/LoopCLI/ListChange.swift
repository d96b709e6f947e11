/// How a list of identified elements changed between two commands: what the session learns by
/// comparing the ids before and after, without hashing them.
enum ListChange: Equatable {
  /// The same ids in the same order.
  case unchanged
  /// One element was inserted at this index of the new list; the others kept their order.
  case inserted(at: Int)
  /// The element at this index of the old list was removed; the others kept their order.
  case removed(at: Int)
  /// Anything else.
  case other

  /// Compares two lists of ids.
  ///
  /// NB: on ids, not elements: reading an element's id through a closure copied the element
  /// (retaining everything in it), which cost more than comparing the ids.
  ///
  /// - Parameters:
  ///   - old: The ids before.
  ///   - new: The ids after.
  /// - Complexity: O(*n*).
  init<ID: Equatable>(from old: [ID], to new: [ID]) {
    self.init(from: old, to: new, id: { $0 })
  }

  /// Compares a list of ids with the ids of a list of elements, read through `id`.
  ///
  /// NB: the new ids are read as they are compared, not gathered into an array first: the
  /// session compares its lists after every command.
  ///
  /// - Parameters:
  ///   - old: The ids before.
  ///   - new: The elements after.
  ///   - id: An element's id.
  /// - Complexity: O(*n*).
  init<ID: Equatable, Element>(from old: [ID], to new: [Element], id: (Element) -> ID) {
    // NB: through buffers: `Array`'s subscript copied each element it read (retaining
    // everything in it), the larger part of comparing a list of thousands of habits.
    self = old.withUnsafeBufferPointer { old in
      new.withUnsafeBufferPointer { new in Self(from: old, to: new, id: id) }
    }
  }

  /// Compares the ids of two buffers, as ``init(from:to:id:)``.
  private init<ID: Equatable, Element>(
    from old: UnsafeBufferPointer<ID>, to new: UnsafeBufferPointer<Element>,
    id: (Element) -> ID
  ) {
    var prefix = 0
    let shorter = min(old.count, new.count)
    while prefix < shorter, old[prefix] == id(new[prefix]) { prefix += 1 }
    switch new.count - old.count {
    case 0:
      self = prefix == old.count ? .unchanged : .other
    case 1:
      self =
        Self.same(old, from: prefix, new, from: prefix + 1, id: id) ? .inserted(at: prefix) : .other
    case -1:
      self =
        Self.same(old, from: prefix + 1, new, from: prefix, id: id) ? .removed(at: prefix) : .other
    default:
      self = .other
    }
  }

  /// Whether the ids of `old` from `oldStart` are those of `new` from `newStart`, which has as
  /// many elements left.
  private static func same<ID: Equatable, Element>(
    _ old: UnsafeBufferPointer<ID>, from oldStart: Int, _ new: UnsafeBufferPointer<Element>,
    from newStart: Int, id: (Element) -> ID
  ) -> Bool {
    var oldIndex = oldStart
    var newIndex = newStart
    while oldIndex < old.count {
      if old[oldIndex] != id(new[newIndex]) { return false }
      oldIndex += 1
      newIndex += 1
    }
    return true
  }
}
