/// Runs effects for a store's core: starts their tasks, tracks which are in flight and under
/// which cancellation ids, and cancels them.
///
/// Cancellation ids are scoped to children (see ``Effect/scoped(toChild:)``): each effect runs
/// in a path of child scopes, and an id marked in a scope is registered under that scope and
/// every scope around it, so cancelling it in a scope reaches that scope and those inside.
///
/// ## What it owns
/// Every effect task it started and that has not finished, by serial number (`running`), and
/// two indexes into them: by scoped cancellation id (`cancellables`) and by child scope
/// (`scopes`). The indexes hold exactly the serials of `running` whose `keys` and `scopes` name
/// them: `track` adds an effect to all three, `finish` removes it from all three (and an empty
/// set with it), so nothing outlives the effect it names. The effects of the actions an effect
/// sends are not its own: they are started, and tracked, as those actions' effects.
///
/// ## Ordering
/// - Everything here runs on the main actor, and so does an effect until it awaits other work:
///   the tables need no lock.
/// - Serials count up in the order effects start, so `inFlight` lists them oldest first.
/// - An effect started at once runs inside `track` until it first suspends, before `track` has
///   its task. What it does meanwhile (stops working, finishes) is kept in `starting` and
///   applied when `track` records it; one that finished meanwhile is never recorded, so
///   cancelling its id later reaches nothing.
/// - A cancelled effect leaves `inFlight` at once (what it sends from then on is dropped) but
///   stays in the tables until its task has wound down and `finish` runs.
@MainActor
@usableFromInline
package final class EffectRuntime<Action>: EffectCancelling {
  /// An effect task that has not finished, with what started it.
  @usableFromInline
  package struct Running {
    /// The action whose reducer returned the effect.
    @usableFromInline package let action: Action
    /// The origin of that action (see `StoreCore`).
    @usableFromInline package let origin: Int
    /// The effect's task.
    @usableFromInline package let task: Task<Void, Never>
    /// Whether the effect's own work is still going on; once it returns, the task only waits
    /// for the effects of the actions it sent, which are tracked on their own.
    @usableFromInline var isWorking = true
    /// The ids it is registered under, to remove when it finishes.
    @usableFromInline let keys: [ScopedEffectID]
    /// The child scopes it runs in, outermost first, each as the path down to it.
    @usableFromInline let scopes: [[AnyHashableSendable]]
    /// The bag holding its cascade (see `cascade`), detached before it is cancelled by id or by
    /// scope.
    @usableFromInline let bag: TaskBag?

    /// Creates the record of a running effect.
    @inlinable
    init(
      action: Action, origin: Int, task: Task<Void, Never>, isWorking: Bool,
      keys: [ScopedEffectID], scopes: [[AnyHashableSendable]], bag: TaskBag?
    ) {
      self.action = action
      self.origin = origin
      self.task = task
      self.isWorking = isWorking
      self.keys = keys
      self.scopes = scopes
      self.bag = bag
    }
  }

  /// Where the actions of running effects go.
  @usableFromInline
  package struct Senders {
    /// Receives an action sent synchronously (`Effect.send`) while a reducer's effects start.
    @usableFromInline let now: (Action) -> Void
    /// Receives an action sent by a running effect, with the effect's origin and bag, whose
    /// cascade the action's effects join (`nil` outside one, see `cascade`); returns the task
    /// of the effects it started.
    @usableFromInline let later: @MainActor (Action, Int, TaskBag?) -> Task<Void, Never>?

    /// Creates the senders.
    @inlinable
    package init(
      now: @escaping (Action) -> Void,
      later: @escaping @MainActor (Action, Int, TaskBag?) -> Task<Void, Never>?
    ) {
      self.now = now
      self.later = later
    }
  }

  /// Where an effect is being started: the child scopes around it, and the ids marked on it.
  @usableFromInline
  struct Placement {
    @usableFromInline var path: [AnyHashableSendable]
    @usableFromInline var marks: [ScopedEffectID]

    /// Creates a placement in the scopes `path`, with the ids `marks`.
    @inlinable
    init(path: [AnyHashableSendable] = [], marks: [ScopedEffectID] = []) {
      self.path = path
      self.marks = marks
    }
  }

  /// What every effect in one returned effect's tree starts with; only its `Placement` changes
  /// on the way down.
  @usableFromInline
  struct Launch {
    /// The action whose reducer returned the effect.
    @usableFromInline let action: Action
    /// The origin of that action, which the actions the effect sends carry too.
    @usableFromInline let origin: Int
    /// Where its actions go.
    @usableFromInline let senders: Senders
    /// Whether its `Effect.run`s start at once (`Task.immediate`), inside the caller.
    @usableFromInline let immediately: Bool

    /// Creates what an effect's tree starts with.
    @inlinable
    init(action: Action, origin: Int, senders: Senders, immediately: Bool) {
      self.action = action
      self.origin = origin
      self.senders = senders
      self.immediately = immediately
    }
  }

  // NB: not private: the runtime's hot paths are inlinable, so that the store's module runs
  // them specialized for its action; unspecialized, starting an effect spent a sixth of its
  // time looking up generic metadata.
  @usableFromInline var running: [Int: Running] = [:]
  @usableFromInline var cancellables: [ScopedEffectID: Set<Int>] = [:]
  /// The running effects of each child scope, by the path down to it (never empty).
  @usableFromInline var scopes: [[AnyHashableSendable]: Set<Int>] = [:]
  @usableFromInline var nextSerial = 0
  /// The effect `track` is starting, not recorded yet: one started immediately runs until it
  /// first suspends, and may stop working or finish, before `track` gets its task.
  @usableFromInline var starting: StartingEffect?
  /// An effect `track` is starting: what happened to it before `track` got its task.
  @usableFromInline
  struct StartingEffect {
    @usableFromInline let serial: Int
    /// The ids it is registered under once recorded.
    @usableFromInline let keys: [ScopedEffectID]
    @usableFromInline var isWorking = true
    @usableFromInline var isFinished = false
    /// Whether its id was cancelled while it started (by itself, with `Task.cancel(id:)`).
    @usableFromInline var isCancelled = false
    /// Its bag (see `Running.bag`).
    ///
    /// NB: unowned: the effect's start, which sets this, holds the bag.
    @usableFromInline unowned(unsafe) let bag: TaskBag?

    @inlinable
    init(serial: Int, keys: [ScopedEffectID], bag: TaskBag?) {
      self.serial = serial
      self.keys = keys
      self.bag = bag
    }
  }

  /// The bag of the effect whose `send` is being processed, while it is: the effects started
  /// meanwhile in its scope (the bag's `path`), or in one inside it, join its cascade, which
  /// cancelling its task cancels; `rootMarker` while a store's `send` from outside any effect
  /// is (the root cascade, kept in `rootCascade`); `nil` otherwise.
  ///
  /// NB: a child's cascade never takes its parent's effects (started for the child's action by
  /// the parent's reducer, outside the child's scope): TCA's known issue
  /// `testChildParentEffectCancellation`, where cancelling a child's task cancelled them.
  ///
  /// NB: unowned, so that setting and restoring it around every action costs no reference
  /// counting: whoever sets it holds the bag until it restores it (the effect's `send`, the
  /// store's queue of sent actions, a concatenation's task, the runtime for the marker).
  @exclusivity(unchecked) @usableFromInline package unowned(unsafe) var cascade: TaskBag?

  /// The cascade of an action sent from outside any effect (a store's `send`), the root; it
  /// stands for `rootCascade`.
  @usableFromInline package let rootMarker = TaskBag(cancelsTasksWhenCancelled: false)

  /// The first effect that joined the root cascade, with its bag, while the store's `send`
  /// that set it runs; the others are in `rootCascade`.
  ///
  /// NB: kept here, not in a bag of its own, because a bag is needed only when the `send` ends
  /// with several tasks to wait for (`awaitingAll`): a single effect's task cancels its own
  /// cascade, and most sends start one effect or none (so the first is kept apart from the
  /// array, which it would cost an append and an emptying).
  @exclusivity(unchecked) @usableFromInline package var rootFirst:
    (task: Task<Void, Never>, bag: TaskBag?)?
  /// The effects after the first that joined the root cascade (see `rootFirst`).
  @exclusivity(unchecked) @usableFromInline package var rootCascade:
    [(task: Task<Void, Never>, bag: TaskBag?)] = []

  /// What effects keep between runs (a throttle's last run), by scoped id.
  @usableFromInline package nonisolated let storage = EffectStorage()

  /// Called on the main actor each time an effect task finishes.
  @usableFromInline package var onFinish: (() -> Void)?
  /// The context of the effects outside any child scope, made once: most effects run there.
  @usableFromInline var rootContext: EffectContext?

  /// Creates a runtime with nothing running.
  @usableFromInline
  package init() {}

  /// The effects whose work is still going on, oldest first.
  ///
  /// A cancelled effect is not among them, from the moment it is cancelled: what it sends
  /// afterwards is dropped, so there is nothing left to wait for, even while its task winds down.
  package var inFlight: [Running] {
    running.filter { $0.value.isWorking && !$0.value.task.isCancelled }
      .sorted { $0.key < $1.key }.map(\.value)
  }

  /// Starts `effect`, returned by the reducer for `action`.
  ///
  /// Each `Effect.run` starts at once (`Task.immediate`): it runs inside this call until it
  /// first suspends, and one that never suspends has finished when this returns. So the caller
  /// must queue the actions `senders.later` receives meanwhile, never reduce them re-entrantly.
  ///
  /// - Parameters:
  ///   - effect: The effect.
  ///   - action: The action whose reducer returned it.
  ///   - origin: The origin of that action, which the actions the effect sends carry too.
  ///   - senders: Where its actions go.
  /// - Returns: The tasks started, to await for the effect to finish.
  @inlinable
  package func start(
    _ effect: Effect<Action>, of action: Action, origin: Int, senders: Senders
  ) -> [Task<Void, Never>] {
    var tasks: [Task<Void, Never>] = []
    let launch = Launch(action: action, origin: origin, senders: senders, immediately: true)
    start(effect, launch, at: Placement(), into: &tasks)
    return tasks
  }

  /// The context of an effect this runtime runs in the child scopes `path`.
  @inlinable
  func context(at path: [AnyHashableSendable]) -> EffectContext {
    guard path.isEmpty else { return EffectContext(path: path, runtime: self) }
    if let rootContext { return rootContext }
    let context = EffectContext(path: [], runtime: self)
    rootContext = context
    return context
  }

  /// Cancels every running effect.
  package func cancelAll() {
    for entry in running.values { entry.task.cancel() }
  }

  /// Cancels every running effect and stops counting them as in flight, even before their
  /// tasks have wound down: they have been dealt with (reported, or skipped).
  package func abandonAll() {
    cancelAll()
    stopTrackingAll()
  }

  /// Stops counting the running effects as in flight, without cancelling them: they go on, and
  /// what they send is processed as before.
  package func stopTrackingAll() {
    for serial in running.keys { running[serial]?.isWorking = false }
  }

  /// Cancels the running effects marked with `id` in the scope `path` or in a scope inside it.
  ///
  /// - Parameters:
  ///   - id: The cancellation id.
  ///   - path: The child scopes, outermost first, of the effect that cancels.
  @usableFromInline
  package func cancel(id: AnyHashableSendable, in path: [AnyHashableSendable] = []) {
    let key = ScopedEffectID(id: id, path: path)
    // NB: an effect that calls `Task.cancel(id:)` with its own id before it first suspends is
    // still starting, not recorded yet: it is the current task, cancelled here at once, so its
    // next `checkCancellation()` throws (TCA's `testRunCancellation`).
    if starting?.keys.contains(key) == true, starting?.isCancelled == false {
      starting?.isCancelled = true
      starting?.bag?.detachCascade()
      withUnsafeCurrentTask { $0?.cancel() }
    }
    cancel(cancellables[key])
    TaskCancellations.shared.cancel(TaskCancellations.Key(runtime: self, id: id, path: path))
  }

  @usableFromInline
  func cancel(_ serials: Set<Int>?) {
    for serial in serials ?? [] {
      // NB: by id or by scope: the effects of the actions it sent are their own.
      running[serial]?.bag?.detachCascade()
      running[serial]?.task.cancel()
    }
  }

  @inlinable
  func start(
    _ effect: Effect<Action>, _ launch: Launch, at placement: Placement,
    into tasks: inout [Task<Void, Never>]
  ) {
    // NB: over the box's operation in place (see `Effect.map`); `.none` has no box.
    guard let storage = effect.storage else { return }
    switch storage.operation {
    case .none:
      break
    case .send(let sent):
      launch.senders.now(sent.value)
    case .run(let setup, let operation):
      // NB: the effects of the actions an effect sent are their own: cancelling this effect by
      // id does not cancel them (a parent's follow-up work survives a dismissed child), and
      // waiting for them stops when it is cancelled. Cancelling the task of the `send` that
      // started it cancels those in its scope, its cascade (see `cascade`), through its bag.
      let children = TaskBag(cancelsTasksWhenCancelled: false, path: placement.path)
      let later = launch.senders.later
      let origin = launch.origin
      let send = Send<Action> { sent in children.insert(later(sent, origin, children)) }
      // NB: one task-local value carries the effect's dependencies and its context, bound here
      // around the task's creation: the task inherits it (a copy), with nothing to push or pop in
      // the task itself, where each push cost executor switches.
      var values = setup.dependencies
      values.effectContext = context(at: placement.path)
      tasks.append(
        track(launch, at: placement, bag: children) { serial in
          // NB: the task runs on the main actor, and so does the operation (it is
          // `nonisolated(nonsending)`) until it awaits other work. Started immediately, it runs
          // inside this call until then; an action it sends meanwhile is queued by the store.
          // After that, an action it sends is processed at once, and its completion is recorded
          // before anyone awaiting it resumes.
          let work: @MainActor () async -> Void = { [weak self] in
            await operation(send)
            self?.stopWorking(serial)
            await children.awaitAll()
            self?.finish(serial)
          }
          return DependencyValues.startingTask(with: values) {
            launch.immediately
              ? immediateTask(priority: setup.priority, work)
              : Task(priority: setup.priority, operation: work)
          }
        })
    case .merge(let effects):
      for effect in effects { start(effect, launch, at: placement, into: &tasks) }
    case .concatenate(let effects):
      startConcatenation(effects, launch, at: placement, into: &tasks)
    case .cancellable(let effect, let id, let cancelInFlight):
      if cancelInFlight { cancel(id: id, in: placement.path) }
      var marked = placement
      marked.marks.append(ScopedEffectID(id: id, path: placement.path))
      start(effect, launch, at: marked, into: &tasks)
    case .cancel(let id):
      cancel(id: id, in: placement.path)
    case .child(let effect, let id):
      var inner = placement
      inner.path.append(id)
      start(effect, launch, at: inner, into: &tasks)
    case .cancelChild(let id):
      cancel(scopes[placement.path + [id]])
    case .cancelChildren(let isMatch):
      let depth = placement.path.count + 1
      for (path, serials) in scopes
      where path.count == depth && path.starts(with: placement.path) && isMatch(path[depth - 1]) {
        cancel(serials)
      }
    }
  }

  /// Starts the synchronous prefix of a concatenation now, and the rest one after another in a
  /// task, so `.concatenate(.send(a), .send(b))` behaves like two sends in order.
  ///
  /// NB: the effects after the prefix start in that task, outside any store's `send`, where an
  /// action they send is processed at once; so they start as plain tasks, as they always did:
  /// run immediately, an effect could have its own cancellation processed before it is tracked.
  @usableFromInline
  func startConcatenation(
    _ effects: [Effect<Action>], _ launch: Launch, at placement: Placement,
    into tasks: inout [Task<Void, Never>]
  ) {
    let firstAsync = effects.firstIndex { !$0.isSynchronous } ?? effects.endIndex
    for effect in effects[..<firstAsync] { start(effect, launch, at: placement, into: &tasks) }
    guard firstAsync < effects.endIndex else { return }
    let rest = Array(effects[firstAsync...])
    let later = launch.senders.later
    let origin = launch.origin
    let boxedAction = UncheckedSendable(launch.action)
    // NB: each step is tracked on its own, in the concatenation's scope but without its marks:
    // cancelling the concatenation cancels the step it is on.
    let stepPlacement = Placement(path: placement.path)
    // NB: each step joins the concatenation's cascade, so cancelling the concatenation's task
    // from its `send` reaches what the steps' actions started.
    let cascade = TaskBag(cancelsTasksWhenCancelled: false, path: placement.path)
    tasks.append(
      track(launch, at: placement, bag: cascade) { serial in
        Task { [weak self] in
          for effect in rest {
            guard !Task.isCancelled, let self else { break }
            // NB: inside the task every action, even a synchronous `.send`, is sent later.
            let step = TaskBag(cancelsTasksWhenCancelled: true)
            let sent = TaskBag(cancelsTasksWhenCancelled: false)
            let stepSenders = Senders(
              now: { sent.insert(later($0, origin, nil)) }, later: { later($0, $1, $2) })
            let stepLaunch = Launch(
              action: boxedAction.value, origin: origin, senders: stepSenders, immediately: false)
            var stepTasks: [Task<Void, Never>] = []
            unowned(unsafe) let outer = self.cascade
            self.cascade = cascade
            self.start(effect, stepLaunch, at: stepPlacement, into: &stepTasks)
            self.cascade = outer
            for task in stepTasks { step.insert(task) }
            await step.awaitAll()
            await sent.awaitAll()
          }
          self?.stopWorking(serial)
          self?.finish(serial)
        }
      })
  }

  /// Numbers the effect `makeTask` starts, runs it, and records its task under its marks and
  /// scopes, unless it finished while starting.
  @inlinable
  func track(
    _ launch: Launch, at placement: Placement, bag: TaskBag?,
    _ makeTask: (Int) -> Task<Void, Never>
  ) -> Task<Void, Never> {
    let serial = nextSerial
    nextSerial += 1
    // NB: a mark is seen from its own scope and from every scope around it.
    var keys: [ScopedEffectID] = []
    for mark in placement.marks {
      for depth in 0...mark.path.count {
        keys.append(ScopedEffectID(id: mark.id, path: Array(mark.path.prefix(depth))))
      }
    }
    let outer = starting
    starting = StartingEffect(serial: serial, keys: keys, bag: bag)
    // NB: read before the effect starts, whose sends process actions in its own cascade.
    unowned(unsafe) let joined = cascade
    let task = makeTask(serial)
    let started = starting
    starting = outer
    // NB: joined even when it finished while starting: the effects of what it sent meanwhile
    // are in its bag's cascade.
    // NB: every effect is in the root's scope.
    if joined === rootMarker {
      if rootFirst == nil {
        rootFirst = (task, bag)
      } else {
        rootCascade.append((task, bag))
      }
    } else if let joined, placement.path.starts(with: joined.path) {
      joined.insertCascading(task, bag: bag)
    }
    // NB: an effect that finished while starting has nothing left to wait for or cancel, and
    // cancelling its id later must not reach it: it is never recorded.
    if started?.isFinished == true { return task }
    if started?.isCancelled == true { task.cancel() }
    let scopePaths = placement.path.indices.map { Array(placement.path.prefix($0 + 1)) }
    running[serial] = Running(
      action: launch.action, origin: launch.origin, task: task,
      isWorking: started?.isWorking ?? true,
      keys: keys, scopes: scopePaths, bag: bag)
    for key in keys { cancellables[key, default: []].insert(serial) }
    for path in scopePaths { scopes[path, default: []].insert(serial) }
    return task
  }

  @inlinable
  func stopWorking(_ serial: Int) {
    if starting?.serial == serial {
      starting?.isWorking = false
    } else {
      running[serial]?.isWorking = false
    }
    onFinish?()
  }

  @inlinable
  func finish(_ serial: Int) {
    if starting?.serial == serial {
      starting?.isFinished = true
    } else if let entry = running.removeValue(forKey: serial) {
      for key in entry.keys {
        cancellables[key]?.remove(serial)
        if cancellables[key]?.isEmpty == true { cancellables[key] = nil }
      }
      for path in entry.scopes {
        scopes[path]?.remove(serial)
        if scopes[path]?.isEmpty == true { scopes[path] = nil }
      }
    }
    onFinish?()
  }
}

/// Starts `operation` in a task that runs synchronously on the caller until it first suspends
/// (`Task.immediate`), or, where the platform lacks it, in a plain task.
///
/// NB: the task's first part runs inside this call, where the synchronous dependency scope of a
/// store's reducer may be installed on the thread. It is cleared meanwhile: the task reads its
/// dependencies from its task-local values, which it inherits, as it does after suspending; so a
/// `withDependencies` inside an effect wins, before and after its first suspension alike.
///
/// - Parameters:
///   - priority: The task's priority.
///   - operation: The work; it runs on the main actor.
/// - Returns: The task.
@usableFromInline
package func immediateTask(
  priority: TaskPriority? = nil, _ operation: sending @escaping @MainActor () async -> Void
) -> Task<Void, Never> {
  let slot = SynchronousScopeSlot.shared
  let scope = slot.install(nil)
  defer { slot.restore(scope, replacing: nil) }
  if #available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *) {
    return Task.immediate(priority: priority, operation: operation)
  }
  return Task(priority: priority, operation: operation)
}
