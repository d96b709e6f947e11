/// A child reducer whose `body` is built the first time it runs, then kept.
///
/// Every operator that holds a child (`Scope`, `ifLet`, `ifCaseLet`, `forEach`, a stack's
/// `forEach`, a presentation's `ifLet`) keeps it in one, so that building a parent's `body` never
/// builds its children's.
///
/// NB: built lazily, a feature can hold itself (a tree of rows, each a `forEach` of rows like
/// itself, or a screen that presents or pushes a screen like itself): building its body would
/// otherwise build the body of the child it holds, and so on forever until the stack overflows.
/// The reducer runs on one actor at a time (a store's), so the cache needs no lock.
@usableFromInline
final class LazyReducer<Base: Reducer> {
  @usableFromInline let base: Base
  /// `nil` until the first run; then the base's body function, or `.some(nil)` when the base
  /// implements `reduce(into:action:)` itself.
  @usableFromInline var function: ((inout Base.State, Base.Action) -> Effect<Base.Action>)??

  @usableFromInline
  init(_ base: Base) {
    self.base = base
  }

  /// Runs the reducer.
  @inlinable
  func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    if case .some(.some(let function)) = function { return function(&state, action) }
    if function == nil {
      function = .some(base.bodyFunction)
      if case .some(.some(let function)) = function { return function(&state, action) }
    }
    return base.reduce(into: &state, action: action)
  }
}
