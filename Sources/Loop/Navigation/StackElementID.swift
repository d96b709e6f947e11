import Synchronization

/// Identifies an element of a ``StackState``: the id its actions carry
/// (`.path(.element(id: id, action: …))`) and the one `pop(from:)` takes.
///
/// A stack gives each element a new id as it is added; ids are never reused, so an effect of a
/// popped element can never reach the element pushed in its place. A store numbers the ids it
/// gives out 0, 1, 2… in the order elements are added, across every stack in its state, so a
/// test writes them as integer literals:
///
/// ```swift
/// await store.send(.detailSelected) { $0.path.append(Detail.State()) }
/// await store.send(.path(.element(id: 0, action: .saveSubmitted)))
/// ```
///
/// A stack built outside a store (a test's initial state, say) numbers its own elements from 0,
/// and a store adding to it continues after the highest id it holds.
public struct StackElementID: Hashable, Sendable, ExpressibleByIntegerLiteral,
  CustomStringConvertible
{
  /// The id's number: ids are given out in increasing order.
  package let generation: Int

  package init(generation: Int) {
    self.generation = generation
  }

  /// The id numbered `value`: `0` is the first element a test store adds.
  public init(integerLiteral value: Int) {
    self.init(generation: value)
  }

  /// The id as `#0`, as diffs and messages show it.
  public var description: String { "#\(generation)" }
}

/// Gives out the ids of one store's stack elements, counting up: the `\.stackElementID`
/// dependency.
///
/// ```swift
/// @Dependency(\.stackElementID) var stackElementID
/// let id = stackElementID.next()  // #0 in a test store, then #1, …
/// ```
///
/// Each store installs one in its dependencies (`DependencyValues.stackElementID`), so every
/// stack its reducers build or grow draws from the same count: ids are unique in the store, and
/// a replay of the same actions draws the same ids. A test store's assertion closures draw from a
/// generator of their own that starts where the reducer's draws started, so `$0.path.append(…)`
/// there draws the id the reducer drew.
public final class StackElementIDGenerator: Sendable {
  /// The number of the next id, and the highest `register(past:)` raised it to.
  private let state: Mutex<(next: Int, registered: Int)>

  /// Creates a generator whose first id is `generation`.
  package init(startingAt generation: Int = 0) {
    self.state = Mutex((generation, 0))
  }

  /// The number of the next id, without drawing it.
  package var nextGeneration: Int { state.withLock { $0.next } }

  /// A generator whose first id is `#0`.
  ///
  /// - Returns: A new generator.
  public static func incrementing() -> StackElementIDGenerator { StackElementIDGenerator() }

  /// Draws the next id.
  ///
  /// - Returns: The id, one above the last one drawn.
  public func next() -> StackElementID { next(atLeast: 0) }

  /// The next id, without drawing it.
  ///
  /// - Returns: The id ``next()`` would return.
  public func peek() -> StackElementID { StackElementID(generation: nextGeneration) }

  /// One past the highest id a stack built outside the store registered (see
  /// `register(past:)`): no id is drawn below it.
  package var registered: Int { state.withLock { $0.registered } }

  /// Draws the next id, numbered at least `minimum` (one past the highest id of the stack that
  /// asks, so that a stack built outside the store never receives an id it holds).
  package func next(atLeast minimum: Int) -> StackElementID {
    state.withLock { state in
      let generation = max(state.next, minimum)
      state.next = generation + 1
      return StackElementID(generation: generation)
    }
  }

  /// Notes that `id` was given out elsewhere (a pushed element brings its own), so that no later
  /// id repeats it.
  package func skip(past id: StackElementID) {
    state.withLock { $0.next = max($0.next, id.generation + 1) }
  }

  /// Notes that a stack built outside the store holds ids up to `id`, so that no later id
  /// repeats them.
  package func register(past id: StackElementID) {
    state.withLock { state in
      state.next = max(state.next, id.generation + 1)
      state.registered = max(state.registered, id.generation + 1)
    }
  }
}

/// The dependency key of `DependencyValues.stackElementIDs`: no generator until a store
/// installs its own.
private enum StackElementIDGeneratorKey: DependencyKey {
  static var liveValue: StackElementIDGenerator? { nil }
  static var testValue: StackElementIDGenerator? { nil }
}

extension DependencyValues {
  /// The generator of the current store's stack element ids (TCA's `\.stackElementID`).
  ///
  /// Outside a store, where none is installed, each read is a new generator starting at `#0`;
  /// set one with `withDependencies` (`$0.stackElementID = .incrementing()`) to draw from one
  /// count.
  public var stackElementID: StackElementIDGenerator {
    get { stackElementIDs ?? StackElementIDGenerator() }
    set { stackElementIDs = newValue }
  }

  /// The generator of the current store's stack element ids, or `nil` outside a store.
  package var stackElementIDs: StackElementIDGenerator? {
    get { self[StackElementIDGeneratorKey.self] }
    set { self[StackElementIDGeneratorKey.self] = newValue }
  }
}
