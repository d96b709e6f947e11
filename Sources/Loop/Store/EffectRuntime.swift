import Synchronization

/// Runs effects for a store: starts their tasks, tracks which are in flight and under which
/// cancellation ids, and cancels them.
///
/// `Store` and `TestStore` share it; they differ only in what they do with the actions effects
/// send.
@MainActor
@usableFromInline
package final class EffectRuntime<Action, Origin> {
  /// An effect task that has not finished, with what started it.
  package struct Running {
    /// What started the effect: for a store, the action whose reducer returned it.
    package let origin: Origin
    /// The effect's task.
    package let task: Task<Void, Never>
    /// Whether the effect's own work is still going on; once it returns, the task only waits
    /// for the effects of the actions it sent, which are tracked on their own.
    var isWorking = true
  }

  /// Where the actions of running effects go.
  @usableFromInline
  package struct Senders {
    /// Receives an action sent synchronously (`Effect.send`) while a reducer's effects start.
    let now: (Action) -> Void
    /// Receives an action sent by a running effect; returns the task of the effects it started.
    let later: @MainActor (Action) -> Task<Void, Never>?

    /// Creates the senders.
    ///
    /// - Parameters:
    ///   - now: Receives synchronous actions.
    ///   - later: Receives actions sent by running effects.
    package init(
      now: @escaping (Action) -> Void,
      later: @escaping @MainActor (Action) -> Task<Void, Never>?
    ) {
      self.now = now
      self.later = later
    }
  }

  private var running: [Int: Running] = [:]
  private var cancellables: [AnyHashableSendable: Set<Int>] = [:]
  private var nextSerial = 0

  /// Called on the main actor each time an effect task finishes.
  package var onFinish: (() -> Void)?

  /// Creates a runtime with nothing running.
  @usableFromInline
  package init() {}

  /// The effects whose work is still going on, oldest first.
  package var inFlight: [Running] {
    running.filter(\.value.isWorking).sorted { $0.key < $1.key }.map(\.value)
  }

  /// Starts `effect`, returned by the reducer for `origin`.
  ///
  /// - Parameters:
  ///   - effect: The effect.
  ///   - origin: The action whose reducer returned it.
  ///   - senders: Where its actions go.
  /// - Returns: The tasks started, to await for the effect to finish.
  @usableFromInline
  package func start(
    _ effect: Effect<Action>, origin: Origin, senders: Senders
  ) -> [Task<Void, Never>] {
    var tasks: [Task<Void, Never>] = []
    start(effect, origin: origin, senders: senders, ids: [], into: &tasks)
    return tasks
  }

  /// Cancels every running effect.
  package func cancelAll() {
    for entry in running.values { entry.task.cancel() }
  }

  /// Cancels every running effect and stops counting them as in flight, even before their
  /// tasks have wound down: they have been dealt with (reported, or skipped).
  package func abandonAll() {
    cancelAll()
    for serial in running.keys { running[serial]?.isWorking = false }
  }

  /// Cancels the running effects marked with `id`.
  ///
  /// - Parameter id: The cancellation id.
  package func cancel(id: AnyHashableSendable) {
    for serial in cancellables[id] ?? [] { running[serial]?.task.cancel() }
  }

  private func start(
    _ effect: Effect<Action>,
    origin: Origin,
    senders: Senders,
    ids: [AnyHashableSendable],
    into tasks: inout [Task<Void, Never>]
  ) {
    switch effect.operation {
    case .none:
      break
    case .send(let action):
      senders.now(action.value)
    case .run(let priority, let operation):
      // NB: the effects of the actions an effect sent are their own: cancelling this effect
      // does not cancel them (a parent's follow-up work survives a dismissed child).
      let children = TaskBag(cancelsTasksWhenCancelled: false)
      let later = senders.later
      let send = Send<Action> { action in children.insert(later(action)) }
      tasks.append(
        track(origin: origin, ids: ids) { serial in
          // NB: the task runs on the main actor, and so does the operation (it is
          // `nonisolated(nonsending)`) until it awaits other work. An action it sends is then
          // processed at once, and its completion is recorded before anyone awaiting it resumes.
          Task(priority: priority) { [weak self] in
            await operation(send)
            self?.stopWorking(serial)
            await children.awaitAll()
            self?.finish(serial, ids: ids)
          }
        })
    case .merge(let effects):
      for effect in effects {
        start(effect, origin: origin, senders: senders, ids: ids, into: &tasks)
      }
    case .concatenate(let effects):
      startConcatenation(effects, origin: origin, senders: senders, ids: ids, into: &tasks)
    case .cancellable(let effect, let id, let cancelInFlight):
      if cancelInFlight { cancel(id: id) }
      start(effect, origin: origin, senders: senders, ids: ids + [id], into: &tasks)
    case .cancel(let id):
      cancel(id: id)
    case .cancelMatching(let isMatch):
      for (id, serials) in cancellables where isMatch(id) {
        for serial in serials { running[serial]?.task.cancel() }
      }
    }
  }

  /// Starts the synchronous prefix of a concatenation now, and the rest one after another in a
  /// task, so `.concatenate(.send(a), .send(b))` behaves like two sends in order.
  private func startConcatenation(
    _ effects: [Effect<Action>],
    origin: Origin,
    senders: Senders,
    ids: [AnyHashableSendable],
    into tasks: inout [Task<Void, Never>]
  ) {
    let firstAsync = effects.firstIndex { !$0.isSynchronous } ?? effects.endIndex
    for effect in effects[..<firstAsync] {
      start(effect, origin: origin, senders: senders, ids: ids, into: &tasks)
    }
    guard firstAsync < effects.endIndex else { return }
    let rest = Array(effects[firstAsync...])
    let later = senders.later
    let origin = UncheckedSendable(origin)
    tasks.append(
      track(origin: origin.value, ids: ids) { serial in
        Task { [weak self] in
          for effect in rest {
            guard !Task.isCancelled, let self else { break }
            // NB: inside the task every action, even a synchronous `.send`, is sent later.
            let step = TaskBag(cancelsTasksWhenCancelled: true)
            let sent = TaskBag(cancelsTasksWhenCancelled: false)
            let stepSenders = Senders(now: { sent.insert(later($0)) }, later: { later($0) })
            for task in self.start(effect, origin: origin.value, senders: stepSenders) {
              step.insert(task)
            }
            await step.awaitAll()
            await sent.awaitAll()
          }
          self?.stopWorking(serial)
          self?.finish(serial, ids: ids)
        }
      })
  }

  private func track(
    origin: Origin, ids: [AnyHashableSendable], _ makeTask: (Int) -> Task<Void, Never>
  ) -> Task<Void, Never> {
    let serial = nextSerial
    nextSerial += 1
    let task = makeTask(serial)
    running[serial] = Running(origin: origin, task: task)
    for id in ids { cancellables[id, default: []].insert(serial) }
    return task
  }

  private func stopWorking(_ serial: Int) {
    running[serial]?.isWorking = false
    onFinish?()
  }

  private func finish(_ serial: Int, ids: [AnyHashableSendable]) {
    running[serial] = nil
    for id in ids {
      cancellables[id]?.remove(serial)
      if cancellables[id]?.isEmpty == true { cancellables[id] = nil }
    }
    onFinish?()
  }
}

/// Tasks to await together; cancelling the awaiting task cancels them all, including tasks
/// added after the cancellation.
final class TaskBag: Sendable {
  private let state = Mutex<(tasks: [Task<Void, Never>], isCancelled: Bool)>(([], false))
  private let cancelsTasksWhenCancelled: Bool

  /// Creates an empty bag.
  ///
  /// - Parameter cancelsTasksWhenCancelled: Whether cancelling the task that awaits the bag
  ///   cancels the tasks in it too; otherwise it keeps waiting for them to finish on their own.
  init(cancelsTasksWhenCancelled: Bool) {
    self.cancelsTasksWhenCancelled = cancelsTasksWhenCancelled
  }

  /// Adds a task to the bag.
  func insert(_ task: Task<Void, Never>?) {
    guard let task else { return }
    let isCancelled = state.withLock { state in
      state.tasks.append(task)
      return state.isCancelled
    }
    if isCancelled && cancelsTasksWhenCancelled { task.cancel() }
  }

  /// Waits for every task in the bag; when the current task is cancelled, cancels them too if
  /// the bag was made to.
  ///
  /// NB: returns without suspending when the bag is empty, so an effect that sent no action with
  /// effects of its own finishes without giving up the main actor.
  nonisolated(nonsending) func awaitAll() async {
    guard state.withLock({ !$0.tasks.isEmpty }) else { return }
    guard cancelsTasksWhenCancelled else { return await awaitEach() }
    await withTaskCancellationHandler {
      await awaitEach()
    } onCancel: {
      let tasks = state.withLock { state in
        state.isCancelled = true
        return state.tasks
      }
      for task in tasks { task.cancel() }
    }
  }

  private nonisolated(nonsending) func awaitEach() async {
    var index = 0
    while let task = state.withLock({ index < $0.tasks.count ? $0.tasks[index] : nil }) {
      await task.value
      index += 1
    }
  }
}
