/// A child reducer whose `body` is built once, when its parent's is, unless the child is being
/// built already (it holds itself); then the first time it runs.
///
/// Every operator that holds a child (`Scope`, `ifLet`, `ifCaseLet`, `forEach`, a stack's
/// `forEach`, a presentation's `ifLet`) keeps it in one.
///
/// NB: a feature can hold itself (a tree of rows, each a `forEach` of rows like itself, or a
/// screen that presents or pushes a screen like itself): building its body at once would build
/// the body of the child it holds, and so on forever until the stack overflows. So a child whose
/// type is being built, further up the same construction, is built the first time it runs. Every
/// other child is built at once and kept in a constant: reading it costs no exclusivity check and
/// no retain, which a cache filled later did on every action through every scope. The reducer
/// runs on one actor at a time (a store's), so the cache needs no lock.
@usableFromInline
final class LazyReducer<Base: Reducer> {
  @usableFromInline let base: Base
  /// The base's body function, built with its parent; `nil` for a base without a `body`, and for
  /// a base built the first time it runs (``function``).
  @usableFromInline let built: ((inout Base.State, Base.Action) -> Effect<Base.Action>)?
  /// The body function of a base that holds itself, once it first ran.
  @exclusivity(unchecked) @usableFromInline
  var function: ((inout Base.State, Base.Action) -> Effect<Base.Action>)?

  // NB: inlinable so that it is specialized where the child is known: unspecialized, asking
  // whether `Base.Body` is `Never` demangled and instantiated the type of each body (a deep
  // nest of generic reducers), which was most of the time `loop` took to build its store.
  @inlinable
  init(_ base: Base) {
    self.base = base
    self.built =
      Base.Body.self == Never.self || ReducersBeingBuilt.includes(Base.self)
      ? nil : ReducersBeingBuilt.building(Base.self) { base.reduceFunction }
  }

  /// Runs the reducer.
  @inlinable
  func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    if let built { return built(&state, action) }
    // NB: a base that implements `reduce(into:action:)` has no body to build: it is called
    // directly, so it can be inlined (a constant test once specialized).
    if Base.Body.self == Never.self { return base.reduce(into: &state, action: action) }
    if let function { return function(&state, action) }
    let function = ReducersBeingBuilt.building(Base.self) { base.reduceFunction }
    self.function = function
    return function(&state, action)
  }
}

/// The reducer types whose bodies are being built, outermost first, in the current task (or
/// thread).
@usableFromInline
enum ReducersBeingBuilt {
  @TaskLocal static var types: [ObjectIdentifier] = []

  /// Whether a body of type `type` is being built, further up.
  @usableFromInline
  static func includes(_ type: Any.Type) -> Bool {
    types.contains(ObjectIdentifier(type))
  }

  /// Builds `build` with `type` marked as being built.
  @usableFromInline
  static func building<T>(_ type: Any.Type, _ build: () -> T) -> T {
    $types.withValue(types + [ObjectIdentifier(type)], operation: build)
  }
}
