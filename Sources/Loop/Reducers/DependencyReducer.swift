extension Reducer {
  /// Runs this reducer, and the effects it returns, with one dependency changed.
  ///
  /// ```swift
  /// Scope(state: \.editor, action: .case(Action.editor)) {
  ///   Editor()
  ///     .dependency(\.uuid, .incrementing)
  /// }
  /// ```
  ///
  /// The rest of the app keeps its own value; the effects this reducer returns keep the changed
  /// one for as long as they run.
  ///
  /// - Parameters:
  ///   - keyPath: The dependency's property on `DependencyValues`.
  ///   - value: Its value for this reducer.
  /// - Returns: The reducer with the dependency changed.
  public func dependency<Value>(
    _ keyPath: WritableKeyPath<DependencyValues, Value>, _ value: Value
  ) -> DependencyReducer<Self> {
    DependencyReducer(base: self) { $0[keyPath: keyPath] = value }
  }
}

/// The reducer `dependency(_:_:)` returns: a reducer run with changed dependencies.
///
/// ```swift
/// Editor().dependency(\.date, .constant(Date(timeIntervalSince1970: 0)))
/// ```
public struct DependencyReducer<Base: Reducer>: Reducer {
  let base: Base
  let update: (inout DependencyValues) -> Void

  /// Runs the base reducer with the changed dependencies; its effects capture them.
  ///
  /// - Parameters:
  ///   - state: The state.
  ///   - action: The action.
  /// - Returns: The base reducer's effects.
  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    var values = DependencyValues.current
    update(&values)
    // NB: the synchronous scope is enough: `Effect.run` captures the current dependencies when
    // it is created, so the effects keep them without a task-local value being bound here.
    return DependencyScope(values).run { base.reduce(into: &state, action: action) }
  }
}
