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
    DependencyReducer(base: self, isOverriding: true) { $0[keyPath: keyPath] = value }
  }

  /// Runs this reducer, and the effects it returns, with one dependency changed from the value
  /// it has where the reducer runs.
  ///
  /// ```swift
  /// Editor()
  ///   .transformDependency(\.linkClient) { client in
  ///     client.fetchLinks = { [] }
  ///   }
  /// ```
  ///
  /// Unlike ``dependency(_:_:)``, it reads the current value, so a dependency without a test
  /// value reports its use as usual.
  ///
  /// - Parameters:
  ///   - keyPath: The dependency's property on `DependencyValues`.
  ///   - transform: Changes the dependency's current value, for this reducer.
  /// - Returns: The reducer with the dependency changed.
  public func transformDependency<Value>(
    _ keyPath: WritableKeyPath<DependencyValues, Value>,
    transform: @escaping (_ dependency: inout Value) -> Void
  ) -> DependencyReducer<Self> {
    DependencyReducer(base: self, isOverriding: false) { transform(&$0[keyPath: keyPath]) }
  }
}

/// The reducer `dependency(_:_:)` returns: a reducer run with changed dependencies.
///
/// ```swift
/// Editor().dependency(\.date, .constant(Date(timeIntervalSince1970: 0)))
/// ```
public struct DependencyReducer<Base: Reducer>: Reducer {
  let base: Base
  /// Whether `update` only replaces a value: then reading the value it replaces (which writing
  /// through a key path does) is not a use of the dependency.
  let isOverriding: Bool
  let update: (inout DependencyValues) -> Void

  /// Runs the base reducer with the changed dependencies; its effects capture them.
  ///
  /// - Parameters:
  ///   - state: The state.
  ///   - action: The action.
  /// - Returns: The base reducer's effects.
  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    var values = DependencyValues.current
    if isOverriding {
      // NB: a key path write reads the old value first, which for `\.calendar` (and the other
      // system values with no test value) would report the very dependency being overridden.
      DependencyValues.$isOverriding.withValue(true) { update(&values) }
    } else {
      update(&values)
    }
    // NB: the synchronous scope is enough: `Effect.run` captures the current dependencies when
    // it is created, so the effects keep them without a task-local value being bound here.
    return DependencyScope(values).run { base.reduce(into: &state, action: action) }
  }
}
