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
    var prefix = 0
    let shorter = min(old.count, new.count)
    while prefix < shorter, old[prefix] == new[prefix] { prefix += 1 }
    switch new.count - old.count {
    case 0:
      self = prefix == old.count ? .unchanged : .other
    case 1:
      self = old[prefix...].elementsEqual(new[(prefix + 1)...]) ? .inserted(at: prefix) : .other
    case -1:
      self = old[(prefix + 1)...].elementsEqual(new[prefix...]) ? .removed(at: prefix) : .other
    default:
      self = .other
    }
  }

}
