/// A child reducer whose `body` is built the first time it runs.
///
/// Every operator that holds a child (`Scope`, `ifLet`, `ifCaseLet`, `forEach`, a stack's
/// `forEach`, a presentation's `ifLet`) keeps it in one.
///
/// NB: built when it first runs, not with its parent, for two reasons. A store is built without
/// building the screens it may never show: `loop` builds its store for every command, and built
/// every feature's body (instantiating each deep nest of generic reducer types, a run-time
/// conformance look-up for each) to list links. And a feature can hold itself (a tree of rows,
/// each a `forEach` of rows like itself, or a screen that presents or pushes a screen like
/// itself): building its body at once would build the body of the child it holds, and so on
/// until the stack overflows. Reading the built function costs each action through a scope one
/// load more than a constant would (loop-bench's "send through 3 Scopes": about 3%). A store's
/// reducer runs on one actor at a time, so the cache needs no lock.
@usableFromInline
final class LazyReducer<Base: Reducer> {
  @usableFromInline let base: Base
  /// The base's body function, once it first ran; never set for a base without a `body`.
  @exclusivity(unchecked) @usableFromInline
  var function: ((inout Base.State, Base.Action) -> Effect<Base.Action>)?

  @inlinable
  init(_ base: Base) {
    self.base = base
  }

  /// Runs the reducer.
  @inlinable
  func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    // NB: a base that implements `reduce(into:action:)` has no body to build: it is called
    // directly, so it can be inlined (a constant test once specialized).
    if Base.Body.self == Never.self { return base.reduce(into: &state, action: action) }
    if let function { return function(&state, action) }
    let function = base.reduceFunction
    self.function = function
    return function(&state, action)
  }
}
