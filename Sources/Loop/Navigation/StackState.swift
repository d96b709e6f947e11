/// The screens of a navigation stack, bottom first, each with the ``StackElementID`` its actions
/// carry.
///
/// A feature that pushes screens keeps them in a `StackState`, usually of an enum of the screens
/// it can push, and runs them with `forEach`:
///
/// ```swift
/// struct State: Equatable {
///   var path = StackState<Path.State>()
/// }
/// enum Action {
///   case path(StackActionOf<Path>)
///   case detailSelected
/// }
///
/// // In the reducer:
/// case .detailSelected:
///   state.path.append(.detail(Detail.State()))
/// ```
///
/// It is a collection of the elements, in order; adding elements (`append`, `insert`, any
/// `RangeReplaceableCollection` method) gives each a new id, and `ids` lists them. Find an
/// element by id with ``subscript(id:)``, change it in place through the same subscript, and pop
/// with ``pop(from:)`` and ``pop(to:)``. Two stacks are equal when they hold equal elements under
/// the same ids.
///
/// - Complexity: Finding, reading and changing an element by id is O(1); adding at the top and
///   `removeLast` are O(1) amortized.
public struct StackState<Element> {
  /// An element with its id.
  @usableFromInline
  struct Component: Identifiable {
    @usableFromInline let id: StackElementID
    @usableFromInline var element: Element

    @usableFromInline
    init(id: StackElementID, element: Element) {
      self.id = id
      self.element = element
    }
  }

  @usableFromInline var components: IdentifiedArray<StackElementID, Component>
  /// One past the highest id this stack has held, so that its own ids only grow.
  ///
  /// NB: not part of equality: it is how the ids were drawn, not what the stack holds.
  @usableFromInline var nextGeneration = 0
  /// Whether the stack numbered elements itself, outside a store, since a store last saw it.
  ///
  /// NB: a store raises its count past such ids the first time its `forEach` runs on the stack
  /// (see ``registerIDs()``), so that a stack the reducer builds in its place (`state.path =
  /// StackState(…)`) never reuses them: cancelling the effects of the elements that left goes
  /// by id.
  @usableFromInline var hasUnregisteredIDs = false
  /// The stamp of the set of ids the stack's `forEach` saw last (`0`: never).
  ///
  /// NB: not part of equality. A reducer before or after the `forEach` that removes elements
  /// changes the set where the `forEach` cannot see it; the next action through the `forEach`
  /// finds the stamp changed and cancels the effects of the elements that left.
  @usableFromInline var seenIDSet: UInt64 = 0

  /// Creates an empty stack.
  public init() {
    self.components = IdentifiedArray()
  }

  /// The ids of the elements, bottom first.
  ///
  /// ```swift
  /// for (id, element) in zip(state.path.ids, state.path) where element.isDeleted {
  ///   state.path.pop(from: id)
  ///   break
  /// }
  /// ```
  ///
  /// - Complexity: O(*n*).
  // NB: inlinable, so that a feature reading its path's ids on every change runs it specialized:
  // unspecialized, it looked up the metadata of the components' array each time.
  @inlinable
  public var ids: [StackElementID] {
    // NB: a closure, not `\.id`: a key path in generic code is made anew on each call.
    components.elements.map { $0.id }
  }

  /// Accesses the element with the given id, or `nil` when the stack holds none.
  ///
  /// Changing the element through it replaces it. Setting `nil` removes that element alone (use
  /// ``pop(from:)`` to remove it with those above it); setting an element for an id the stack
  /// does not hold adds it at the top under that id, which is how a test states a push:
  ///
  /// ```swift
  /// await store.send(.detailSelected) { $0.path[id: 0] = .detail(Detail.State()) }
  /// ```
  ///
  /// - Complexity: O(1) to read or replace, O(*n*) to remove.
  public subscript(id id: StackElementID) -> Element? {
    get { components[id: id]?.element }
    set {
      switch (components.contains(id: id), newValue) {
      case (true, let element?):
        _ = components.modify(id: id) { $0.element = element }
      case (true, nil):
        _ = components.remove(id: id)
      case (false, let element?):
        insert(element, id: id)
      case (false, nil):
        break
      }
    }
  }

  /// Removes the element with the given id and every element above it.
  ///
  /// Does nothing when the stack holds no element with that id.
  ///
  /// - Parameter id: The id of the lowest element to remove.
  /// - Complexity: O(*k*), for the *k* elements removed.
  public mutating func pop(from id: StackElementID) {
    guard let position = components.index(id: id) else { return }
    removeSubrange(position...)
  }

  /// Removes every element above the element with the given id, which stays.
  ///
  /// Does nothing when the stack holds no element with that id.
  ///
  /// - Parameter id: The id of the element to return to.
  /// - Complexity: O(*k*), for the *k* elements removed.
  public mutating func pop(to id: StackElementID) {
    guard let position = components.index(id: id) else { return }
    removeSubrange((position + 1)...)
  }

  /// Adds `element` at the top under `id`, which the stack must not hold.
  @usableFromInline
  mutating func insert(_ element: Element, id: StackElementID) {
    components.append(Component(id: id, element: element))
    nextGeneration = Swift.max(nextGeneration, id.generation + 1)
    if let generator = DependencyValues.current.stackElementIDs {
      generator.skip(past: id)
    } else {
      hasUnregisteredIDs = true
    }
  }

  /// A new id for an element added to this stack: the current store's next one, or outside a
  /// store this stack's own.
  mutating func nextID() -> StackElementID {
    let id: StackElementID
    if let generator = DependencyValues.current.stackElementIDs {
      id = generator.next(atLeast: nextGeneration)
    } else {
      id = StackElementID(generation: nextGeneration)
      hasUnregisteredIDs = true
    }
    nextGeneration = id.generation + 1
    return id
  }

  /// Raises the current store's count past the ids this stack numbered itself, if it did.
  @inlinable
  mutating func registerIDsIfNeeded() {
    if hasUnregisteredIDs { registerIDs() }
  }

  @usableFromInline
  mutating func registerIDs() {
    guard let generator = DependencyValues.current.stackElementIDs else { return }
    generator.register(past: StackElementID(generation: nextGeneration - 1))
    hasUnregisteredIDs = false
  }

  /// Changes the element with the given id in place; `nil` when the stack holds none.
  @inlinable
  mutating func modify<Result>(
    id: StackElementID, _ body: (inout Element) -> Result
  ) -> Result? {
    components.modify(id: id) { body(&$0.element) }
  }

  /// Changes whenever an element may have left the stack (see `IdentifiedArray`).
  @inlinable
  var membershipStamp: MembershipStamp {
    mutating get { components.membershipStamp }
  }

  /// Notes the set of ids as seen by the stack's `forEach`, and returns whether it changed since
  /// the `forEach` last saw it, by a reducer outside it; then the `forEach` cancels the effects
  /// of the elements that left.
  @discardableResult
  @inlinable
  mutating func noteIDSetSeen() -> Bool {
    let stamp = components.idSetVersion.stamp
    guard seenIDSet != stamp else { return false }
    defer { seenIDSet = stamp }
    return seenIDSet != 0
  }

  /// Registers the ids this stack numbered itself, if it did (``registerIDsIfNeeded()``), and
  /// returns the ``membershipStamp``.
  ///
  /// NB: one call, so that the `forEach` projects its key path once for both: each projection
  /// goes through the runtime, on every action through the `forEach`.
  @inlinable
  mutating func registerIDsReadingMembership() -> MembershipStamp {
    registerIDsIfNeeded()
    return components.membershipStamp
  }

  /// Notes the set of ids as seen by the stack's `forEach` (``noteIDSetSeen()``), and returns
  /// the ``membershipStamp``, in one projection of the key path.
  @inlinable
  mutating func noteIDSetSeenReadingMembership() -> MembershipStamp {
    noteIDSetSeen()
    return components.membershipStamp
  }

  /// Whether the stack holds an element with the given id.
  @inlinable
  func contains(id: StackElementID) -> Bool { components.contains(id: id) }
}

extension StackState: RandomAccessCollection {
  /// The position of the bottom element.
  public var startIndex: Int { components.startIndex }

  /// The position after the top element.
  public var endIndex: Int { components.endIndex }

  /// The element at `position`, counting from the bottom.
  public subscript(position: Int) -> Element { components[position].element }
}

extension StackState: RangeReplaceableCollection {
  /// Replaces the elements at `subrange` with `newElements`, which get new ids.
  ///
  /// Every way of adding and removing elements (`append`, `insert`, `removeLast`, `removeAll`,
  /// …) goes through here.
  ///
  /// - Parameters:
  ///   - subrange: The positions to replace.
  ///   - newElements: The elements to put there.
  /// - Complexity: O(*n* + *m*), or O(*m*) amortized at the top, for *m* new elements.
  public mutating func replaceSubrange<C: Collection<Element>>(
    _ subrange: Range<Int>, with newElements: C
  ) {
    if subrange.upperBound == components.count {
      for _ in subrange { _ = components.remove(at: components.count - 1) }
      for element in newElements { components.append(Component(id: nextID(), element: element)) }
      return
    }
    for _ in subrange { _ = components.remove(at: subrange.lowerBound) }
    for (offset, element) in zip(subrange.lowerBound..., newElements) {
      components.insert(Component(id: nextID(), element: element), at: offset)
    }
  }

  /// Removes the elements that satisfy `shouldBeRemoved`; the others keep their ids.
  ///
  /// - Parameter shouldBeRemoved: Whether to remove an element.
  /// - Complexity: O(*n*).
  public mutating func removeAll(where shouldBeRemoved: (Element) throws -> Bool) rethrows {
    // NB: the collection's default filters into a new stack, which would renumber the rest.
    try components.removeAll { try shouldBeRemoved($0.element) }
  }

  /// The elements that satisfy `isIncluded`, under the ids they have here.
  ///
  /// - Parameter isIncluded: Whether to keep an element.
  /// - Returns: The stack of those elements.
  /// - Complexity: O(*n*).
  public func filter(_ isIncluded: (Element) throws -> Bool) rethrows -> Self {
    var kept = self
    try kept.removeAll { try !isIncluded($0) }
    return kept
  }

  /// Removes every element; the ids given out so far are not given out again.
  ///
  /// - Parameter keepCapacity: Whether to keep the storage for as many elements.
  /// - Complexity: O(*n*).
  public mutating func removeAll(keepingCapacity keepCapacity: Bool = false) {
    // NB: the collection's default makes a new stack, which would count its ids from 0 again.
    replaceSubrange(startIndex..<endIndex, with: EmptyCollection())
  }
}

extension StackState.Component: Equatable where Element: Equatable {}

extension StackState.Component: Hashable where Element: Hashable {}

extension StackState.Component: Sendable where Element: Sendable {}

extension StackState: Equatable where Element: Equatable {
  /// Whether both stacks hold equal elements under the same ids, in the same order.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.components == rhs.components
  }
}

extension StackState: Hashable where Element: Hashable {
  /// Hashes the ids and the elements.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(components)
  }
}

extension StackState: Sendable where Element: Sendable {}

/// The elements of a stack with their ids, for the state diff.
package protocol StackElements {
  /// Each element with its id, bottom first.
  var stackElements: [(id: StackElementID, element: Any)] { get }
}

extension StackState: StackElements {
  package var stackElements: [(id: StackElementID, element: Any)] {
    components.elements.map { ($0.id, $0.element as Any) }
  }
}
