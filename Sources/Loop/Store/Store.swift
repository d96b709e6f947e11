/// Holds a feature's state, runs its reducer for each action, and runs the effects it returns.
///
/// ```swift
/// let store = Store(initialState: Counter.State()) { Counter() }
/// store.send(.incrementTapped)
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
///   queued, not those of actions its effects sent: those are their own, as when an effect is
///   cancelled by id (`Effect.cancel(id:)`, `cancelInFlight`), which never reaches them either.
///   Cancelling an effect that has finished (say while it started) does nothing.
/// - When the store is deallocated, its running effects are cancelled.
@MainActor
public final class Store<State, Action> {
  private let readState: @MainActor () -> State
  @usableFromInline let sendAction: @MainActor (Action) -> Task<Void, Never>?
  private let addObserver: @MainActor (@escaping @MainActor () -> Void) -> StoreObservation
  private let root: AnyObject
  /// The root's core, for a store that is not scoped: sending to it directly lets the compiler
  /// specialize the whole send for the feature's types.
  @usableFromInline let rootCore: RootCore<State, Action>?

  /// Creates a store running `reducer` from `initialState`.
  ///
  /// - Parameters:
  ///   - initialState: The state to start from.
  ///   - reducer: The feature's reducer.
  ///   - prepareDependencies: Changes this store's dependencies (which otherwise are those of the
  ///     current task). Its reducer and effects see the changed values.
  public convenience init<R: Reducer>(
    initialState: State,
    @ReducerBuilder<State, Action> reducer: () -> R,
    withDependencies prepareDependencies: ((inout DependencyValues) -> Void)? = nil
  ) where R.State == State, R.Action == Action {
    var dependencies = DependencyValues.current
    prepareDependencies?(&dependencies)
    let core = RootCore(
      initialState: initialState, reducer: reducer(), dependencies: dependencies)
    self.init(
      readState: { core.state },
      sendAction: { core.send($0) },
      addObserver: { core.addObserver($0) },
      root: core,
      rootCore: core)
  }

  private init(
    readState: @escaping @MainActor () -> State,
    sendAction: @escaping @MainActor (Action) -> Task<Void, Never>?,
    addObserver: @escaping @MainActor (@escaping @MainActor () -> Void) -> StoreObservation,
    root: AnyObject,
    rootCore: RootCore<State, Action>?
  ) {
    self.readState = readState
    self.sendAction = sendAction
    self.addObserver = addObserver
    self.root = root
    self.rootCore = rootCore
  }

  /// The current state.
  public var state: State { rootCore?.state ?? readState() }

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
  let task: Task<Void, Never>?

  @usableFromInline
  init(_ task: Task<Void, Never>?) {
    self.task = task
  }

  /// Cancels the effects the action started, and those of the actions its reducer queued; the
  /// effects of actions its effects sent keep running.
  public func cancel() {
    task?.cancel()
  }

  /// Waits until the effects have finished, including those of the actions they sent.
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

/// The root of a store tree: the state, the reducer, the queue, the effects.
///
/// NB: `send` is `@inlinable` so that a feature's module compiles it specialized for its own
/// state and action; unspecialized, each send spends most of its time looking up generic
/// metadata at run time.
@MainActor
@usableFromInline
final class RootCore<State, Action> {
  // NB: only the main actor touches these, one send at a time, so the run-time exclusivity
  // checks Swift would make on each access of a class property are dropped.
  @usableFromInline @exclusivity(unchecked) var state: State
  @usableFromInline let reduce: (inout State, Action) -> Effect<Action>
  @usableFromInline let dependencies: DependencyScope
  @usableFromInline let runtime = EffectRuntime<Action, Action>()
  @usableFromInline @exclusivity(unchecked) var queue: [Action] = []
  /// Actions effects sent while starting, inside a `send`: they run after `queue` drains.
  @usableFromInline @exclusivity(unchecked) var sentQueue: [Action] = []
  @usableFromInline @exclusivity(unchecked) var isSending = false
  @usableFromInline @exclusivity(unchecked) var observers: [Int: @MainActor () -> Void] = [:]
  private var nextObserver = 0

  init<R: Reducer>(initialState: State, reducer: R, dependencies: DependencyValues)
  where R.State == State, R.Action == Action {
    self.state = initialState
    self.reduce = reducer.reduceFunction
    self.dependencies = DependencyScope(dependencies)
  }

  isolated deinit {
    runtime.cancelAll()
  }

  @inlinable
  func send(_ action: Action) -> Task<Void, Never>? {
    // NB: an action sent while another is processed waits in the queue for the running loop.
    guard !isSending else {
      queue.append(action)
      return nil
    }
    isSending = true
    let effect = dependencies.run { reduce(&state, action) }
    var tasks: [Task<Void, Never>] = []
    if !effect.isNone { tasks = start(effect, of: action) }
    var sentTasks: [Task<Void, Never>] = []
    if !queue.isEmpty || !sentQueue.isEmpty { drainQueues(into: &tasks, sent: &sentTasks) }
    isSending = false
    if !observers.isEmpty { notifyObservers() }
    if sentTasks.isEmpty, tasks.count <= 1 { return tasks.first }
    return awaitingAll(tasks, then: sentTasks)
  }

  /// Starts the effects of `action`; their tasks inherit the store's dependencies.
  @usableFromInline
  func start(_ effect: Effect<Action>, of action: Action) -> [Task<Void, Never>] {
    dependencies.runStartingTasks {
      runtime.start(effect, origin: action, senders: senders)
    }
  }

  @usableFromInline
  func notifyObservers() {
    for observer in observers.values { observer() }
  }

  /// Processes the queued actions until none is left: those queued synchronously (by reducers)
  /// first, in order; then each action effects sent while starting, in the order sent, with
  /// the actions its reducer queued.
  ///
  /// The effects of the actions effects sent go in `sentTasks`: they belong to the effects that
  /// sent them, not to the action being sent, so cancelling that action's effects must not reach
  /// them (see `StoreTask.cancel()`).
  ///
  /// NB: effects' actions come after the whole synchronous queue, the order they had when
  /// effects started in tasks of their own (each task ran after the `send`, in the order started).
  @usableFromInline
  func drainQueues(
    into tasks: inout [Task<Void, Never>], sent sentTasks: inout [Task<Void, Never>]
  ) {
    var next = 0
    var nextSent = 0
    while true {
      if next < queue.count {
        next += 1
        if nextSent == 0 {
          process(queue[next - 1], into: &tasks)
        } else {
          process(queue[next - 1], into: &sentTasks)
        }
      } else if nextSent < sentQueue.count {
        nextSent += 1
        process(sentQueue[nextSent - 1], into: &sentTasks)
      } else {
        break
      }
    }
    queue.removeAll(keepingCapacity: true)
    sentQueue.removeAll(keepingCapacity: true)
  }

  /// Runs the reducer for a queued action and starts its effects.
  private func process(_ action: Action, into tasks: inout [Task<Void, Never>]) {
    let effect = dependencies.run { reduce(&state, action) }
    if !effect.isNone { tasks += start(effect, of: action) }
  }

  /// Where the actions of this store's effects go; made once, not for every effect started.
  lazy var senders = EffectRuntime<Action, Action>.Senders(
    now: { [unowned self] in queue.append($0) },
    later: { [weak self] in self?.receive($0) })

  /// Takes an action an effect sent: queued when the effect is starting inside a `send` (the
  /// reducers never run re-entrantly), else processed now.
  func receive(_ action: Action) -> Task<Void, Never>? {
    guard !isSending else {
      sentQueue.append(action)
      return nil
    }
    return send(action)
  }

  func addObserver(_ observer: @escaping @MainActor () -> Void) -> StoreObservation {
    let key = nextObserver
    nextObserver += 1
    observers[key] = observer
    return StoreObservation { [weak self] in self?.observers[key] = nil }
  }
}
