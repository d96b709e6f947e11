/// A feature's logic: how an action changes the state, and what effects it starts.
///
/// Implement either `reduce(into:action:)` or a `body` built from other reducers:
///
/// ```swift
/// struct Counter: Reducer {
///   struct State: Equatable { var count = 0 }
///   enum Action { case incrementSubmitted, decrementSubmitted }
///
///   var body: some ReducerOf<Self> {
///     Reduce { state, action in
///       switch action {
///       case .incrementSubmitted: state.count += 1
///       case .decrementSubmitted: state.count -= 1
///       }
///       return .none
///     }
///   }
/// }
/// ```
///
/// Reducers are pure and synchronous: everything else (time, ids, storage) is reached through
/// dependencies in the effects they return.
public protocol Reducer<State, Action> {
  /// The state the reducer changes.
  associatedtype State
  /// The actions it handles.
  associatedtype Action
  /// The reducer's body: a reducer built from others, or `Never` when `reduce` is implemented.
  associatedtype Body

  /// Changes `state` for `action` and returns the effects to run.
  ///
  /// - Parameters:
  ///   - state: The current state, changed in place.
  ///   - action: The action.
  /// - Returns: The effects to run next.
  func reduce(into state: inout State, action: Action) -> Effect<Action>

  /// The reducer's logic, composed from other reducers.
  @ReducerBuilder<State, Action>
  var body: Body { get }

  /// The function a store calls for each action: `reduce(into:action:)`, with a `body` built
  /// once rather than for every action.
  ///
  /// You never implement it (a reducer that wraps another may, to pass on the other's): the
  /// default for a reducer with a `body` builds the body here, so a store that keeps this
  /// function does not rebuild the body (its closures, key paths and child reducers) on every
  /// action. `Scope` keeps its child's the same way.
  var reduceFunction: (inout State, Action) -> Effect<Action> { get }
}

extension Reducer {
  /// `reduce(into:action:)` itself.
  @inlinable
  public var reduceFunction: (inout State, Action) -> Effect<Action> {
    reduce(into:action:)
  }
}

/// A reducer with the same state and action as `R`, for writing `some ReducerOf<Self>`.
public typealias ReducerOf<R: Reducer> = Reducer<R.State, R.Action>

extension Reducer where Body == Never {
  /// A reducer that implements `reduce(into:action:)` has no body.
  public var body: Body {
    fatalError(
      "'\(Self.self)' has no body: it implements 'reduce(into:action:)'. Do not read 'body' "
        + "directly.")
  }
}

extension Reducer where Body: Reducer, Body.State == State, Body.Action == Action {
  /// The body's function, with the body built once.
  @inlinable
  public var reduceFunction: (inout State, Action) -> Effect<Action> {
    body.reduceFunction
  }

  /// Runs the body.
  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    body.reduce(into: &state, action: action)
  }
}
