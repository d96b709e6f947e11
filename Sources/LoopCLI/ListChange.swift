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

  /// Compares the ids of two lists.
  ///
  /// - Parameters:
  ///   - old: The list before.
  ///   - new: The list after.
  ///   - oldID: An old element's id.
  ///   - newID: A new element's id.
  /// - Complexity: O(*n*), comparing ids only.
  init<Old, New, ID: Equatable>(
    from old: [Old], to new: [New], oldID: (Old) -> ID, newID: (New) -> ID
  ) {
    var prefix = 0
    let shorter = min(old.count, new.count)
    while prefix < shorter, oldID(old[prefix]) == newID(new[prefix]) { prefix += 1 }
    switch new.count - old.count {
    case 0:
      self = prefix == old.count ? .unchanged : .other
    case 1:
      for index in prefix..<old.count where oldID(old[index]) != newID(new[index + 1]) {
        self = .other
        return
      }
      self = .inserted(at: prefix)
    case -1:
      for index in prefix..<new.count where oldID(old[index + 1]) != newID(new[index]) {
        self = .other
        return
      }
      self = .removed(at: prefix)
    default:
      self = .other
    }
  }

  /// The first element of `after` whose id `before` does not hold, or `nil`.
  ///
  /// NB: `before` is the ids, not the elements: holding the elements' array while a command
  /// inserts into it would make the insertion copy every element.
  ///
  /// - Parameters:
  ///   - before: The ids of the list before a command, in order.
  ///   - after: The list after it.
  /// - Returns: The added element.
  /// - Complexity: O(*n*); without hashing when one element was inserted.
  static func firstAdded<Element: Identifiable>(to before: [Element.ID], in after: [Element])
    -> Element?
  {
    if case .inserted(let index) = ListChange(
      from: before, to: after, oldID: { $0 }, newID: { $0.id })
    {
      return after[index]
    }
    let known = Set(before)
    return after.first { !known.contains($0.id) }
  }
}
