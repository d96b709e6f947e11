/// A reducer made from a closure: the usual way to write a feature's own logic in a `body`.
///
/// ```swift
/// Reduce { state, action in
///   state.count += 1
///   return .none
/// }
/// ```
public struct Reduce<State, Action>: Reducer {
  @usableFromInline let reduce: (inout State, Action) -> Effect<Action>

  /// Creates a reducer from a closure.
  public init(_ reduce: @escaping (_ state: inout State, _ action: Action) -> Effect<Action>) {
    self.reduce = reduce
  }

  /// Wraps another reducer.
  public init<R: Reducer>(_ reducer: R) where R.State == State, R.Action == Action {
    self.reduce = reducer.reduce(into:action:)
  }

  /// Runs the closure.
  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    reduce(&state, action)
  }
}

/// A reducer that does nothing.
public struct EmptyReducer<State, Action>: Reducer {
  /// Creates the reducer.
  @inlinable public init() {}

  /// Leaves the state unchanged and returns `.none`.
  ///
  /// - Parameters:
  ///   - state: The current state.
  ///   - action: The action.
  /// - Returns: `.none`.
  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> { .none }
}

/// Runs reducers in order on the same state and action, merging their effects.
///
/// A body already combines its reducers; use this to group several under one operator:
///
/// ```swift
/// CombineReducers {
///   Scope(state: \.search, action: .case(Action.search)) { Search() }
///   Reduce { state, action in … }
/// }
/// .ifLet(\.detail, action: .case(Action.detail)) { Detail() }
/// ```
public struct CombineReducers<Reducers: Reducer>: Reducer {
  @usableFromInline let reducers: Reducers

  /// Combines the reducers built by `build`, which run in order.
  public init<State, Action>(
    @ReducerBuilder<State, Action> _ build: () -> Reducers
  ) where State == Reducers.State, Action == Reducers.Action {
    self.reducers = build()
  }

  /// Runs the reducers in order and merges their effects.
  @inlinable
  public func reduce(
    into state: inout Reducers.State, action: Reducers.Action
  ) -> Effect<Reducers.Action> {
    reducers.reduce(into: &state, action: action)
  }
}

/// Two reducers that run in order: what a body of several reducers builds.
public struct ReducerPair<First: Reducer, Second: Reducer>: Reducer
where First.State == Second.State, First.Action == Second.Action {
  @usableFromInline let first: First
  @usableFromInline let second: Second

  @inlinable init(first: First, second: Second) {
    self.first = first
    self.second = second
  }

  /// Runs the first reducer, then the second, and merges their effects.
  ///
  /// - Parameters:
  ///   - state: The current state.
  ///   - action: The action.
  /// - Returns: The merged effects.
  @inlinable
  public func reduce(into state: inout First.State, action: First.Action) -> Effect<First.Action> {
    let firstEffect = first.reduce(into: &state, action: action)
    let secondEffect = second.reduce(into: &state, action: action)
    return firstEffect.merge(with: secondEffect)
  }

  /// Both reducers' functions, run in order: a child with a `body` builds it once, here.
  ///
  /// NB: without it, a store of `{ App(); Logger() }` called `App().reduce(into:action:)` for
  /// every action, which builds the app's body (every feature's reducer) again each time.
  @inlinable
  public var reduceFunction: (inout First.State, First.Action) -> Effect<First.Action> {
    let first = self.first.reduceFunction
    let second = self.second.reduceFunction
    return { state, action in
      let firstEffect = first(&state, action)
      let secondEffect = second(&state, action)
      return firstEffect.merge(with: secondEffect)
    }
  }
}
