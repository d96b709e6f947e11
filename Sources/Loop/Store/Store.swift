/// Holds a feature's state, runs its reducer for each action, and runs the effects it returns.
///
/// ```swift
/// let store = Store(initialState: Counter.State()) { Counter() }
/// store.send(.incrementSubmitted)
/// print(store.state.count)  // 1
/// ```
///
/// ## Ordering guarantees
/// - `send` runs the reducer synchronously: when it returns, the state reflects the action.
/// - Actions a reducer sends synchronously (`Effect.send`, and the synchronous start of a
///   `concatenate`) are queued and run after the current action, in the order they were
///   returned, before `send` returns. Reducers never run re-entrantly: an action sent while a
///   reducer runs (say from an observer) waits in the same queue.
/// - Asynchronous effects (`Effect.run`) start at once, in the order returned, each on the main
///   actor inside `send` until it first suspends (`Task.immediate`). Actions an effect sends
///   before then are queued too: they run after the current action and every action queued
///   synchronously, in the order the effects sent them, before `send` returns. So when `send`
///   returns, an effect that never suspended has finished and its actions are in the state.
/// - Actions an effect sends after suspending are processed on the main actor as they arrive,
///   each one completely (with its queued actions) before the next.
/// - Inside a `concatenate`, the effects after the synchronous start run one after another in a
///   task of their own, each starting once the previous one has finished.
/// - Observers are told once per `send`, after every queued action has run.
/// - `StoreTask.finish()` waits for the effects started by the action, by the actions it queued,
///   and by every action those effects send, transitively.
/// - `StoreTask.cancel()` cancels the effects of the action and of the actions its reducer
///   queued, and, transitively, the effects started for every action those effects sent, in the
///   sending effect's feature or in one of its children: never an effect a parent's reducer
///   started for a child's action. Cancelling an effect by id (`Effect.cancel(id:)`,
///   `cancelInFlight`) or removing its feature reaches only that effect, not the effects of the
///   actions it sent. Once cancelled, `finish()` waits only for the action's own effects to stop.
/// - Cancellation ids are scoped to features: a child's `Effect.cancel(id:)` reaches its own
///   effects and its descendants', a parent's reaches its children's too (see
///   `Effect.cancellable(id:cancelInFlight:)`).
/// - When the store is deallocated, its running effects are cancelled.
@MainActor
public final class Store<State, Action> {
  @usableFromInline let readState: @MainActor () -> State
  @usableFromInline let sendAction: @MainActor (Action) -> SentEffects
  private let addObserver: @MainActor (@escaping @MainActor () -> Void) -> StoreObservation
  private let root: AnyObject
  /// The root's core, for a store that is not scoped: sending to it directly lets the compiler
  /// specialize the whole send for the feature's types.
  @usableFromInline let rootCore: StoreCore<State, Action>?

  /// Creates a store running `reducer` from `initialState`.
  ///
  /// The initial state and the reducer are built with the store's dependencies: a state whose
  /// initializer reads `@Dependency(\.uuid)` sees `prepareDependencies`' value.
  ///
  /// - Parameters:
  ///   - initialState: The state to start from.
  ///   - reducer: The feature's reducer.
  ///   - prepareDependencies: Changes this store's dependencies (which otherwise are those of the
  ///     current task). Its reducer and effects see the changed values.
  public convenience init<R: Reducer>(
    initialState: @autoclosure () -> State,
    @ReducerBuilder<State, Action> reducer: () -> R,
    withDependencies prepareDependencies: ((inout DependencyValues) -> Void)? = nil
  ) where R.State == State, R.Action == Action {
    var dependencies = DependencyValues.current
    prepareDependencies?(&dependencies)
    dependencies.stackElementIDs = StackElementIDGenerator()
    let core = DependencyValues.with(dependencies) {
      StoreCore(initialState: initialState(), reducer: reducer(), dependencies: dependencies)
    }
    self.init(
      readState: { core.state },
      sendAction: { core.send($0) },
      addObserver: { core.addObserver($0) },
      root: core,
      rootCore: core)
  }

  private init(
    readState: @escaping @MainActor () -> State,
    sendAction: @escaping @MainActor (Action) -> SentEffects,
    addObserver: @escaping @MainActor (@escaping @MainActor () -> Void) -> StoreObservation,
    root: AnyObject,
    rootCore: StoreCore<State, Action>?
  ) {
    self.readState = readState
    self.sendAction = sendAction
    self.addObserver = addObserver
    self.root = root
    self.rootCore = rootCore
  }

  /// The current state.
  // NB: inlinable, so that a caller reads it specialized for its state: unspecialized, each
  // read looked up the generic metadata of the state it copied out.
  @inlinable
  public var state: State { rootCore?.state ?? readState() }

  /// What `read` finds in the current state, read where the state is: ``state`` copies the whole
  /// of it out, which for an app's root is a reference count for every list and text in it.
  ///
  /// NB: `read` has the state `inout` only so that it is not copied (a borrow of a class's
  /// property is a copy, since the code it calls could change the property); it must not change
  /// it: observers would not hear of it.
  ///
  /// - Parameter read: Reads a value out of the state.
  /// - Returns: What `read` returned.
  @inlinable
  package func reading<Value>(_ read: (inout State) -> Value) -> Value {
    guard let rootCore else {
      var state = readState()
      return read(&state)
    }
    return read(&rootCore.state)
  }

  /// Sends an action: runs the reducer now, then starts the effects it returned.
  ///
  /// - Parameter action: The action.
  /// - Returns: A task for the effects the action started; `await task.finish()` waits for them.
  @inlinable
  @discardableResult
  public func send(_ action: Action) -> StoreTask {
    if let rootCore { return StoreTask(rootCore.send(action)) }
    return StoreTask(sendAction(action))
  }

  /// A store for a child feature: it reads its state from this store's and sends its actions
  /// through this store, so there is one source of truth.
  ///
  /// ```swift
  /// let searchStore = appStore.scope(state: \.search, action: .case(App.Action.search))
  /// ```
  ///
  /// - Parameters:
  ///   - toChildState: Where the child's state lives.
  ///   - toChildAction: The action case that carries the child's actions.
  /// - Returns: The child store.
  public func scope<ChildState, ChildAction>(
    state toChildState: KeyPath<State, ChildState>,
    action toChildAction: CasePath<Action, ChildAction>
  ) -> Store<ChildState, ChildAction> {
    let readState = self.readState
    let sendAction = self.sendAction
    let embed = toChildAction.embed
    return Store<ChildState, ChildAction>(
      readState: { readState()[keyPath: toChildState] },
      sendAction: { sendAction(embed($0)) },
      addObserver: addObserver,
      root: root,
      rootCore: nil)
  }

  /// Calls `onChange` after every `send` (and every action an effect sends) has been processed,
  /// with the new state.
  ///
  /// - Parameter onChange: Receives the state, on the main actor.
  /// - Returns: A token; the observation lasts until it is cancelled or deallocated.
  public func observe(_ onChange: @escaping @MainActor (State) -> Void) -> StoreObservation {
    let readState = self.readState
    return addObserver { onChange(readState()) }
  }
}

extension Store where State: Sendable {
  /// The states after each processed `send`, as an asynchronous sequence.
  ///
  /// The stream ends when the consuming task is cancelled.
  public var states: AsyncStream<State> {
    let (stream, continuation) = AsyncStream<State>.makeStream(bufferingPolicy: .unbounded)
    let observation = observe { continuation.yield($0) }
    continuation.onTermination = { _ in Task { @MainActor in observation.cancel() } }
    return stream
  }
}

/// The effects an action started.
///
/// `await finish()` waits for them; `cancel()` cancels them.
public struct StoreTask: Hashable, Sendable {
  let effects: SentEffects
  var task: Task<Void, Never>? { effects.task }

  @usableFromInline
  init(_ effects: SentEffects) {
    self.effects = effects
  }

  /// Cancels the effects the action started, those of the actions its reducer queued, and,
  /// transitively, those started for the actions they sent, in the sending effect's feature or
  /// its children (never a parent's); ``finish()`` then waits only for the action's own effects
  /// to stop.
  public func cancel() {
    effects.cancel()
  }

  /// Waits until the effects have finished, including those of the actions they sent (until
  /// the task is cancelled: then only until the action's own effects have stopped).
  ///
  /// Effects that finished inside `send` (they never suspended) have nothing left to wait for:
  /// then this returns at once, without leaving the caller's actor.
  public nonisolated(nonsending) func finish() async {
    // NB: `nonisolated(nonsending)`, or every call would hop to the global executor and back.
    await task?.value
  }

  /// Whether the effects were cancelled.
  public var isCancelled: Bool { task?.isCancelled ?? false }
}

/// A state observation; cancel it (or let it go) to stop being called.
@MainActor
public final class StoreObservation {
  private var onCancel: (@MainActor () -> Void)?

  init(onCancel: @escaping @MainActor () -> Void) {
    self.onCancel = onCancel
  }

  /// Stops the observation.
  public func cancel() {
    onCancel?()
    onCancel = nil
  }

  isolated deinit {
    onCancel?()
  }
}
