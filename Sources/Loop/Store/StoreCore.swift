/// The engine of a store: its state, its reducer, the queues of actions waiting their turn, and
/// its running effects.
///
/// A `Store` sends its actions to one, and so does a `TestStore`, which checks each action the
/// core processed through ``didProcess``; so the ordering rules (see `Store`) exist once, here.
///
/// Each action sent from outside comes with an *origin*, a number the sender chooses (a `Store`
/// gives 0; a `TestStore` the index of its `send` call). Everything the action leads to carries
/// it: the actions its reducer queues, the effects it starts, the actions those effects send, and
/// so on. Only the effects an action started run inside its `send`, so every action processed
/// there shares its origin.
///
/// ## What it owns
/// The state (it alone writes it, through the reducer), the dependencies its reducer runs with,
/// the two queues, the observers, and the `EffectRuntime` of its effects, which it cancels when
/// it goes.
///
/// ## Ordering (how `Store`'s guarantees are kept)
/// - `isSending` is `true` exactly while `process` runs; an action that arrives meanwhile is
///   queued, never reduced re-entrantly: in `queue` when a reducer returned it (`Effect.send`)
///   or someone sent it to the store, in `sentQueue` when an effect sent it while starting.
/// - `drainQueues` empties `queue` in order, then `sentQueue` in order, going back to `queue`
///   each time an action from `sentQueue` queued more.
/// - `didProcess` sees each action right after its reducer ran, before its effects start.
/// - Observers are told once per `send` from outside, after both queues are empty.
///
/// ## Why the unchecked exclusivity is sound, and where it stops
/// Only the main actor touches the `@exclusivity(unchecked)` properties, and `process` touches
/// them one access at a time: the reducer's `inout` access to `state` ends before `didProcess`
/// reads it, and an action sent meanwhile only appends to a queue. NB: a reducer must not read
/// its own store's `state` while it runs (it has it `inout`): Swift's check would trap on that
/// overlap; here it would read the state half changed.
///
/// NB: `send` is `@inlinable` so that a feature's module compiles it specialized for its own
/// state and action; unspecialized, each send spends most of its time looking up generic
/// metadata at run time.
@MainActor
@usableFromInline
package final class StoreCore<State, Action> {
  // NB: only the main actor touches these, one send at a time, so the run-time exclusivity
  // checks Swift would make on each access of a class property are dropped.
  /// The state after every action processed so far.
  @usableFromInline @exclusivity(unchecked) package internal(set) var state: State
  @usableFromInline let reduce: (inout State, Action) -> Effect<Action>
  /// The dependencies the reducer runs with and new effects start with; replacing them reaches
  /// the next action processed, not the effects already running.
  @usableFromInline @exclusivity(unchecked) package var dependencies: DependencyScope {
    didSet { scope = Unmanaged.passUnretained(dependencies).toOpaque() }
  }
  // NB: `dependencies`, unretained, to install around each reducer call: a class reference read
  // from a `var` is retained and released around the call (the reducer could replace it), which
  // made a plain send measurably slower in loop-bench. `dependencies` keeps the scope alive.
  @usableFromInline @exclusivity(unchecked) var scope: UnsafeMutableRawPointer
  /// Where `scope` is installed around each reducer call.
  @usableFromInline let scopeSlot = SynchronousScopeSlot.shared
  /// The running effects.
  @usableFromInline package let runtime = EffectRuntime<Action>()
  /// Called after the reducer processed an action, sent or received, with the state right after
  /// it.
  ///
  /// It runs before the action's effects start. A `TestStore` checks a feature through it; a
  /// plain store leaves it `nil`, and pays one check per action for it.
  @usableFromInline @exclusivity(unchecked) package var didProcess:
    (@MainActor (ProcessedAction<Action>, State) -> Void)?
  @usableFromInline @exclusivity(unchecked) var queue: [Action] = []
  /// Actions effects sent while starting, inside a `send`: they run after `queue` drains.
  @usableFromInline @exclusivity(unchecked) var sentQueue: [Action] = []
  /// The cascade each action of `sentQueue` was sent in (see `EffectRuntime.cascade`): its
  /// effects, and those of the actions its reducer queues, join it when they start.
  ///
  /// NB: an array of its own, not pairs in `sentQueue`: emptying an array of pairs destroyed
  /// each through the runtime's generic tuple witnesses.
  @usableFromInline @exclusivity(unchecked) var sentCascades: [TaskBag?] = []
  @usableFromInline @exclusivity(unchecked) var isSending = false
  @usableFromInline @exclusivity(unchecked) var observers: [Int: @MainActor () -> Void] = [:]
  private var nextObserver = 0

  /// Creates a core running `reducer` from `initialState`, with `dependencies`.
  package init<R: Reducer>(initialState: State, reducer: R, dependencies: DependencyValues)
  where R.State == State, R.Action == Action {
    self.state = initialState
    self.reduce = reducer.reduceFunction
    let scope = DependencyScope(dependencies)
    self.dependencies = scope
    self.scope = Unmanaged.passUnretained(scope).toOpaque()
  }

  isolated deinit {
    runtime.cancelAll()
  }

  /// Processes an action sent from outside, then every action it queued, and starts their
  /// effects.
  ///
  /// - Parameters:
  ///   - action: The action.
  ///   - origin: The origin the action and everything it leads to carry.
  /// - Returns: A task awaiting the effects started (`nil` when none is left running), and
  ///   the cascade that cancelling it must cancel too.
  @inlinable
  package func send(_ action: Action, origin: Int = 0) -> SentEffects {
    process(action, isReceived: false, origin: origin)
  }

  @inlinable
  func process(_ action: Action, isReceived: Bool, origin: Int) -> SentEffects {
    // NB: an action sent while another is processed waits in the queue for the running loop.
    guard !isSending else {
      queue.append(action)
      return SentEffects(task: nil, cascade: nil)
    }
    isSending = true
    let effect = runReducer(action)
    if let didProcess {
      didProcess(ProcessedAction(action: action, isReceived: isReceived, origin: origin), state)
    }
    // NB: an action sent from outside any effect's `send` starts a cascade of its own, the
    // root, which the returned task cancels (see `EffectRuntime.cascade`); only when something
    // may start.
    let isRoot = (!effect.isNone || !queue.isEmpty) && runtime.cascade == nil
    if isRoot { runtime.cascade = runtime.rootMarker }
    var tasks: [Task<Void, Never>] = []
    if !effect.isNone { tasks = start(effect, of: action, origin: origin) }
    var sentTasks: [Task<Void, Never>] = []
    if !queue.isEmpty || !sentQueue.isEmpty {
      drainQueues(origin: origin, into: &tasks, sent: &sentTasks)
    }
    let isSingle = sentTasks.isEmpty && tasks.count <= 1
    var root: TaskBag?
    if isRoot {
      runtime.cascade = nil
      if let first = runtime.rootFirst {
        runtime.rootFirst = nil
        // NB: one effect's own bag is its cascade; a bag of the root only when there are more.
        if isSingle, runtime.rootCascade.isEmpty {
          root = first.bag
        } else {
          let bag = TaskBag(cancelsTasksWhenCancelled: false)
          bag.insertCascading(first.task, bag: first.bag)
          for joined in runtime.rootCascade { bag.insertCascading(joined.task, bag: joined.bag) }
          runtime.rootCascade.removeAll(keepingCapacity: true)
          root = bag
        }
      }
    }
    isSending = false
    if !observers.isEmpty { notifyObservers() }
    if isSingle { return SentEffects(task: tasks.first, cascade: root) }
    return SentEffects(task: awaitingAll(tasks, then: sentTasks, cascade: root), cascade: root)
  }

  /// Runs the reducer for `action`, with the core's dependencies visible to it.
  @inlinable
  func runReducer(_ action: Action) -> Effect<Action> {
    let scope = self.scope
    let previous = scopeSlot.install(scope)
    defer { scopeSlot.restore(previous, replacing: scope) }
    return reduce(&state, action)
  }

  /// Starts the effects of `action`.
  ///
  /// NB: no dependencies are bound around this: the runtime binds for each `Effect.run`'s task
  /// those the effect captured where it was made (the reducer's, which are the core's unless the
  /// reducer changed them).
  // NB: inlinable, as `send` is, so that the runtime starts effects specialized for the
  // store's actions.
  @inlinable
  func start(_ effect: Effect<Action>, of action: Action, origin: Int) -> [Task<Void, Never>] {
    runtime.start(effect, of: action, origin: origin, senders: senders)
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
  // NB: inlinable, as `send` is, so that it runs specialized for the store's actions:
  // unspecialized, each queued action looked up the metadata of the queues it reads.
  @inlinable
  func drainQueues(
    origin: Int, into tasks: inout [Task<Void, Never>], sent sentTasks: inout [Task<Void, Never>]
  ) {
    var next = 0
    var nextSent = 0
    unowned(unsafe) let outerCascade = runtime.cascade
    defer { runtime.cascade = outerCascade }
    while true {
      if next < queue.count {
        next += 1
        if nextSent == 0 {
          processQueued(queue[next - 1], origin: origin, into: &tasks)
        } else {
          processQueued(queue[next - 1], origin: origin, into: &sentTasks)
        }
      } else if nextSent < sentQueue.count {
        nextSent += 1
        // NB: the actions its reducer queues, drained next, stay in the same cascade.
        runtime.cascade = sentCascades[nextSent - 1]
        processQueued(sentQueue[nextSent - 1], origin: origin, into: &sentTasks)
      } else {
        break
      }
    }
    queue.removeAll(keepingCapacity: true)
    sentQueue.removeAll(keepingCapacity: true)
    sentCascades.removeAll(keepingCapacity: true)
  }

  /// Runs the reducer for a queued action and starts its effects.
  @inlinable
  func processQueued(
    _ action: Action, origin: Int, into tasks: inout [Task<Void, Never>]
  ) {
    let effect = runReducer(action)
    if let didProcess {
      didProcess(ProcessedAction(action: action, isReceived: true, origin: origin), state)
    }
    if !effect.isNone { tasks += start(effect, of: action, origin: origin) }
  }

  /// ``senders``, once made.
  @usableFromInline @exclusivity(unchecked) var madeSenders: EffectRuntime<Action>.Senders?

  /// Where the actions of this core's effects go; made once, not for every effect started.
  ///
  /// NB: made in inlinable code, so that the actions effects send are received by code
  /// specialized for the store's actions (a `lazy var` is compiled once, unspecialized).
  @inlinable
  var senders: EffectRuntime<Action>.Senders {
    if let madeSenders { return madeSenders }
    let senders = EffectRuntime<Action>.Senders(
      now: { [unowned self] in queue.append($0) },
      later: { [weak self] in self?.receive($0, origin: $1, cascade: $2) })
    madeSenders = senders
    return senders
  }

  /// Takes an action an effect sent, in the effect's cascade: queued when the effect is starting
  /// inside a `send` (the reducers never run re-entrantly), else processed now.
  @inlinable
  func receive(
    _ action: Action, origin: Int, cascade: TaskBag?
  ) -> Task<Void, Never>? {
    guard !isSending else {
      sentQueue.append(action)
      sentCascades.append(cascade)
      return nil
    }
    unowned(unsafe) let outer = runtime.cascade
    runtime.cascade = cascade
    defer { runtime.cascade = outer }
    return process(action, isReceived: true, origin: origin).task
  }

  func addObserver(_ observer: @escaping @MainActor () -> Void) -> StoreObservation {
    let key = nextObserver
    nextObserver += 1
    observers[key] = observer
    return StoreObservation { [weak self] in self?.observers[key] = nil }
  }
}

/// An action a store's core processed, as ``StoreCore/didProcess`` sees it.
@usableFromInline
package struct ProcessedAction<Action> {
  /// The action.
  @usableFromInline package let action: Action
  /// Whether an effect (or `Effect.send`) sent it, rather than the core's caller.
  ///
  /// NB: an action sent to the core while it processes another (by a reducer calling a store)
  /// waits in the queue with those of `Effect.send`, and counts as received.
  @usableFromInline package let isReceived: Bool
  /// The origin given with the `send` that led to it.
  @usableFromInline package let origin: Int

  @inlinable
  init(action: Action, isReceived: Bool, origin: Int) {
    self.action = action
    self.isReceived = isReceived
    self.origin = origin
  }
}

/// What a store's `send` started: the task that waits for its effects, and the cascade that
/// cancelling them cancels too (see `EffectRuntime.cascade`).
///
/// NB: cancelling reaches a cascade through its bags, never through a cancellation handler in
/// each effect's task: a handler cost every effect, and only a `send`'s task ever cancels one.
@usableFromInline
package struct SentEffects: Hashable, Sendable {
  /// The task; `nil` when nothing is left running.
  @usableFromInline package let task: Task<Void, Never>?
  /// The cascade to cancel with it; `nil` when nothing joined one.
  @usableFromInline package let cascade: TaskBag?

  @inlinable
  init(task: Task<Void, Never>?, cascade: TaskBag?) {
    self.task = task
    self.cascade = cascade
  }

  /// Whether two stand for the same effects: the same task.
  @inlinable
  package static func == (lhs: Self, rhs: Self) -> Bool { lhs.task == rhs.task }

  /// Hashes the task.
  @inlinable
  package func hash(into hasher: inout Hasher) { hasher.combine(task) }

  /// Cancels the task and its cascade.
  @inlinable
  package func cancel() {
    cascade?.cancelCascade()
    task?.cancel()
  }
}
