extension Reducer {
  /// Prints each action this reducer receives and a diff of the state it changed.
  ///
  /// ```swift
  /// Store(initialState: App.State()) { App()._printChanges() }
  /// ```
  ///
  /// prints, for each action:
  ///
  /// ```
  /// received action:
  ///   App.Action.counter(.incrementSubmitted)
  ///     App.State(
  ///       counter: Counter.State(
  ///   −     count: 0
  ///   +     count: 1
  ///       )
  ///     )
  ///
  ///   (Before: −, After: +)
  /// ```
  ///
  /// or `(No state changes)`. The REPL's `:trace on` uses it. Debugging aid only: it copies the
  /// state for every action.
  ///
  /// - Parameter printer: Where the text goes; standard output by default.
  /// - Returns: The printing reducer.
  public func _printChanges(
    to printer: @escaping @Sendable (String) -> Void = { print($0) }
  ) -> PrintChangesReducer<Self> {
    PrintChangesReducer(base: self, isEnabled: { true }, printer: printer)
  }

  /// Prints each action and state diff while `isEnabled` returns `true`.
  ///
  /// - Parameters:
  ///   - isEnabled: Checked for every action; the REPL's `:trace on|off` flips it.
  ///   - printer: Where the text goes.
  /// - Returns: The printing reducer.
  public func _printChanges(
    when isEnabled: @escaping () -> Bool,
    to printer: @escaping @Sendable (String) -> Void = { print($0) }
  ) -> PrintChangesReducer<Self> {
    PrintChangesReducer(base: self, isEnabled: isEnabled, printer: printer)
  }
}

/// The reducer `_printChanges()` returns.
public struct PrintChangesReducer<Base: Reducer>: Reducer {
  let base: Base
  let isEnabled: () -> Bool
  let printer: @Sendable (String) -> Void

  /// Runs the base reducer and prints the action and the state diff it caused.
  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    Self.reduce(&state, action, base: base.reduce(into:action:), isEnabled, printer)
  }

  /// The base's function (its body built once), printing around it.
  ///
  /// NB: a store keeps this function; without it, every action rebuilt the base's body, which
  /// for an app's root is every feature's reducer.
  public var reduceFunction: (inout Base.State, Base.Action) -> Effect<Base.Action> {
    let base = self.base.reduceFunction
    let (isEnabled, printer) = (self.isEnabled, self.printer)
    return { state, action in Self.reduce(&state, action, base: base, isEnabled, printer) }
  }

  private static func reduce(
    _ state: inout Base.State, _ action: Base.Action,
    base: (inout Base.State, Base.Action) -> Effect<Base.Action>, _ isEnabled: () -> Bool,
    _ printer: @Sendable (String) -> Void
  ) -> Effect<Base.Action> {
    guard isEnabled() else { return base(&state, action) }
    let before = state
    let effect = base(&state, action)
    let change =
      Diff.lines(before, state).map {
        "\($0.indentingLines(by: 2))\n\n  (Before: −, After: +)"
      } ?? "  (No state changes)"
    printer(
      """
      received action:
        \(Diff.dump(action).indentingContinuationLines(by: 2))
      \(change)
      """)
    return effect
  }
}
