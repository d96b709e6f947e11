/// Builds a reducer from a list of reducers that run in order, with `if`, `switch`, optional
/// reducers and loops, as in a result builder.
@resultBuilder
public enum ReducerBuilder<State, Action> {
  /// An empty body does nothing.
  @inlinable
  public static func buildBlock() -> EmptyReducer<State, Action> { EmptyReducer() }

  /// Accepts any reducer of the right state and action.
  @inlinable
  public static func buildExpression<R: Reducer>(_ reducer: R) -> R
  where R.State == State, R.Action == Action { reducer }

  /// The first reducer of a block.
  @inlinable
  public static func buildPartialBlock<R: Reducer>(first: R) -> R
  where R.State == State, R.Action == Action { first }

  /// Runs the accumulated reducers, then `next`.
  @inlinable
  public static func buildPartialBlock<R0: Reducer, R1: Reducer>(
    accumulated: R0, next: R1
  ) -> ReducerPair<R0, R1>
  where R0.State == State, R0.Action == Action, R1.State == State, R1.Action == Action {
    ReducerPair(first: accumulated, second: next)
  }

  /// The first branch of an `if`/`else` or `switch`.
  @inlinable
  public static func buildEither<First: Reducer, Second: Reducer>(
    first reducer: First
  ) -> ConditionalReducer<First, Second>
  where First.State == State, First.Action == Action {
    .first(reducer)
  }

  /// The second branch of an `if`/`else` or `switch`.
  @inlinable
  public static func buildEither<First: Reducer, Second: Reducer>(
    second reducer: Second
  ) -> ConditionalReducer<First, Second>
  where Second.State == State, Second.Action == Action {
    .second(reducer)
  }

  /// An `if` without `else`: the reducer runs only when the condition held.
  @inlinable
  public static func buildOptional<R: Reducer>(_ reducer: R?) -> OptionalReducer<R>
  where R.State == State, R.Action == Action {
    OptionalReducer(wrapped: reducer)
  }

  /// A `for` loop of reducers: they run in order.
  @inlinable
  public static func buildArray<R: Reducer>(_ reducers: [R]) -> ReducerSequence<R>
  where R.State == State, R.Action == Action {
    ReducerSequence(reducers: reducers)
  }

  /// An `if #available` branch.
  @inlinable
  public static func buildLimitedAvailability<R: Reducer>(_ reducer: R) -> R
  where R.State == State, R.Action == Action { reducer }
}

/// One of two reducers, chosen when the body was built (`if`/`else`, `switch`).
public enum ConditionalReducer<First: Reducer, Second: Reducer>: Reducer
where First.State == Second.State, First.Action == Second.Action {
  /// The first branch.
  case first(First)
  /// The second branch.
  case second(Second)

  /// Runs the chosen branch.
  ///
  /// - Parameters:
  ///   - state: The current state.
  ///   - action: The action.
  /// - Returns: The branch's effects.
  @inlinable
  public func reduce(into state: inout First.State, action: First.Action) -> Effect<First.Action> {
    switch self {
    case .first(let first): first.reduce(into: &state, action: action)
    case .second(let second): second.reduce(into: &state, action: action)
    }
  }
}

/// A reducer that runs only when present (an `if` without `else` in a body).
public struct OptionalReducer<Wrapped: Reducer>: Reducer {
  @usableFromInline let wrapped: Wrapped?

  @inlinable init(wrapped: Wrapped?) { self.wrapped = wrapped }

  /// Runs the wrapped reducer, if any.
  @inlinable
  public func reduce(
    into state: inout Wrapped.State, action: Wrapped.Action
  ) -> Effect<Wrapped.Action> {
    wrapped?.reduce(into: &state, action: action) ?? .none
  }
}

/// Reducers that run one after another (a `for` loop in a body).
public struct ReducerSequence<Element: Reducer>: Reducer {
  @usableFromInline let reducers: [Element]

  @inlinable init(reducers: [Element]) { self.reducers = reducers }

  /// Runs each reducer in order and merges their effects.
  @inlinable
  public func reduce(
    into state: inout Element.State, action: Element.Action
  ) -> Effect<Element.Action> {
    .merge(reducers.map { $0.reduce(into: &state, action: action) })
  }
}
