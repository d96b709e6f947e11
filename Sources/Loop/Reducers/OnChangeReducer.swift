extension Reducer {
  /// Runs a reducer after this one whenever an action changed a value of the state.
  ///
  /// ```swift
  /// Reduce { state, action in … }
  ///   .onChange(of: \.query) { oldValue, newValue in
  ///     Reduce { state, action in
  ///       .send(.search(newValue))
  ///     }
  ///   }
  /// ```
  ///
  /// The value is read before and after this reducer runs; when they differ, `reducer` builds
  /// the reducer to run with the two values, on the changed state and the same action, and its
  /// effects are merged with this reducer's. When nothing changed, it is not even built.
  ///
  /// - Parameters:
  ///   - toValue: Reads the value, such as `\.query`.
  ///   - reducer: Builds the reducer to run from the old and the new value.
  /// - Returns: The combined reducer.
  public func onChange<Value: Equatable, Changed: Reducer>(
    of toValue: @escaping (State) -> Value,
    @ReducerBuilder<State, Action> _ reducer:
      @escaping (_ oldValue: Value, _ newValue: Value)
      -> Changed
  ) -> OnChangeReducer<Self, Value, Changed>
  where Changed.State == State, Changed.Action == Action {
    OnChangeReducer(base: self, toValue: toValue, isDuplicate: ==, reducer: reducer)
  }

  /// Runs a reducer after this one whenever an action changed a value of the state, as
  /// `isDuplicate` tells: for values that are not `Equatable`, or a change that counts only in
  /// part.
  ///
  /// ```swift
  /// Reduce { state, action in … }
  ///   .onChange(of: \.draft, removeDuplicates: { $0.text == $1.text }) { _, draft in
  ///     Reduce { _, _ in .send(.autosave(draft.text)) }
  ///   }
  /// ```
  ///
  /// - Parameters:
  ///   - toValue: Reads the value, such as `\.query`.
  ///   - isDuplicate: Whether the old and the new value count as the same (no change).
  ///   - reducer: Builds the reducer to run from the old and the new value.
  /// - Returns: The combined reducer.
  public func onChange<Value, Changed: Reducer>(
    of toValue: @escaping (State) -> Value,
    removeDuplicates isDuplicate: @escaping (Value, Value) -> Bool,
    @ReducerBuilder<State, Action> _ reducer:
      @escaping (_ oldValue: Value, _ newValue: Value)
      -> Changed
  ) -> OnChangeReducer<Self, Value, Changed>
  where Changed.State == State, Changed.Action == Action {
    OnChangeReducer(base: self, toValue: toValue, isDuplicate: isDuplicate, reducer: reducer)
  }
}

/// The reducer `onChange(of:_:)` returns: a reducer that reacts to a value's change.
///
/// ```swift
/// Reduce { state, action in … }
///   .onChange(of: \.categoryFilter) { _, _ in Reduce { _, _ in .send(.onAppear) } }
/// ```
public struct OnChangeReducer<Base: Reducer, Value, Changed: Reducer>: Reducer
where Changed.State == Base.State, Changed.Action == Base.Action {
  let base: Base
  let toValue: (Base.State) -> Value
  let isDuplicate: (Value, Value) -> Bool
  let reducer: (Value, Value) -> Changed

  /// Runs the base reducer, then the change's reducer when the value changed.
  ///
  /// - Parameters:
  ///   - state: The state.
  ///   - action: The action.
  /// - Returns: The merged effects.
  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    let oldValue = toValue(state)
    let effect = base.reduce(into: &state, action: action)
    let newValue = toValue(state)
    guard !isDuplicate(oldValue, newValue) else { return effect }
    return effect.merge(with: reducer(oldValue, newValue).reduce(into: &state, action: action))
  }
}
