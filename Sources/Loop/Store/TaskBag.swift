import Synchronization

/// A task that waits for `tasks`, then for `sent`; cancelling it cancels `tasks` (and, through
/// them, what they cascade to, see `TaskBag.cancelCascade()`), and stops its waiting for `sent`.
///
/// It starts immediately, so when every task has already finished (effects that never
/// suspended), it has too by the time it is returned.
///
/// - Parameters:
///   - tasks: The effects an action started, with those of the actions its reducer sent.
///   - sent: The effects of actions its effects sent while starting: cancelling this task reaches
///     them only through the effects that sent them (their cascades), so never a parent's.
///   - cascade: The bag whose cascade holds `tasks` with their bags: cancelling this task
///     cancels it, so the effects of what finished effects sent are reached too.
/// - Returns: The task, or `nil` when there is nothing to wait for; the only task when there is
///   one to wait for and nothing that cancelling must leave alone.
@MainActor
@usableFromInline
package func awaitingAll(
  _ tasks: [Task<Void, Never>], then sent: [Task<Void, Never>] = [], cascade: TaskBag? = nil
) -> Task<Void, Never>? {
  if sent.isEmpty, tasks.count <= 1 { return tasks.first }
  let sentBag = TaskBag(cancelsTasksWhenCancelled: false)
  for task in sent { sentBag.insert(task) }
  return immediateTask {
    await withTaskCancellationHandler {
      for task in tasks { await task.value }
      await sentBag.awaitAll()
    } onCancel: {
      cascade?.cancelCascade()
      for task in tasks { task.cancel() }
    }
  }
}

/// Tasks to await together.
///
/// When the awaiting task is cancelled, the bag either cancels them all, including tasks added
/// after the cancellation, or stops waiting for them and leaves them running.
///
/// An effect's bag also holds its *cascade*: the effects started, in the effect's own scope or
/// one inside it, for the actions it sent. Cancelling the task of the `send` that started the
/// effect cancels them (`cancelCascade()`, through `SentEffects`); cancelling the effect by id
/// or by scope does not (`detachCascade()` first).
@usableFromInline
package final class TaskBag: Sendable {
  private let state = Mutex<
    (
      tasks: [Task<Void, Never>], isCancelled: Bool,
      cascade: [(task: Task<Void, Never>, bag: TaskBag?)], isCascadeCancelled: Bool,
      isDetached: Bool
    )
  >(([], false, [], false, false))
  private let cancelsTasksWhenCancelled: Bool
  /// For an effect's bag, the child scopes the effect runs in, outermost first: the effects
  /// started for the actions it sends join its cascade only in this scope or one inside it.
  @usableFromInline let path: [AnyHashableSendable]

  /// Creates an empty bag.
  ///
  /// - Parameters:
  ///   - cancelsTasksWhenCancelled: Whether cancelling the task that awaits the bag cancels the
  ///     tasks in it too; otherwise that task stops waiting for them, and they go on.
  ///   - path: For an effect's bag, the child scopes the effect runs in.
  @usableFromInline
  init(cancelsTasksWhenCancelled: Bool, path: [AnyHashableSendable] = []) {
    self.cancelsTasksWhenCancelled = cancelsTasksWhenCancelled
    self.path = path
  }

  /// Adds a task to the bag.
  @usableFromInline
  func insert(_ task: Task<Void, Never>?) {
    guard let task else { return }
    let isCancelled = state.withLock { state in
      state.tasks.append(task)
      return state.isCancelled
    }
    if isCancelled && cancelsTasksWhenCancelled { task.cancel() }
  }

  /// Adds an effect, with its own bag, to the cascade: cancelled with the others by
  /// `cancelCascade()`, at once when the cascade has been cancelled already.
  ///
  /// NB: the effect's bag is kept, and cancelled with it: the cascade is reached through the
  /// bags, never through the tasks, because the effect may have finished by then (one that sent
  /// an action and returned) while the effects of what it sent still run.
  @usableFromInline
  func insertCascading(_ task: Task<Void, Never>, bag: TaskBag?) {
    let isCancelled = state.withLock { state in
      if !state.isCascadeCancelled { state.cascade.append((task, bag)) }
      return state.isCascadeCancelled
    }
    if isCancelled {
      bag?.cancelCascade()
      task.cancel()
    }
  }

  /// Cancels the cascade, and what is added to it later, unless the cascade was detached.
  ///
  /// NB: it goes down the bags of the cascade's effects at once, on the thread that cancels, so
  /// the whole cascade is cancelled when this returns.
  @usableFromInline
  func cancelCascade() {
    let entries = state.withLock { state -> [(task: Task<Void, Never>, bag: TaskBag?)] in
      guard !state.isDetached else { return [] }
      state.isCascadeCancelled = true
      defer { state.cascade = [] }
      return state.cascade
    }
    for entry in entries {
      entry.bag?.cancelCascade()
      entry.task.cancel()
    }
  }

  /// Makes `cancelCascade()` do nothing: the effect is being cancelled by id or by scope, which
  /// never reaches the effects of the actions it sent.
  @usableFromInline
  func detachCascade() {
    state.withLock { state in
      state.isDetached = true
      state.cascade = []
    }
  }

  /// Waits for every task in the bag; when the current task is cancelled, cancels them too if
  /// the bag was made to, else stops waiting.
  ///
  /// NB: returns without suspending when the bag is empty, so an effect that sent no action with
  /// effects of its own finishes without giving up the main actor.
  @usableFromInline
  nonisolated(nonsending) func awaitAll() async {
    guard state.withLock({ !$0.tasks.isEmpty }) else { return }
    guard cancelsTasksWhenCancelled else { return await awaitEachUntilCancelled() }
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

  /// Waits for every task, or until the current task is cancelled, whichever comes first.
  ///
  /// NB: awaiting a task's value cannot be interrupted, so a task of its own awaits them, and
  /// this waits for that task or for the cancellation.
  private nonisolated(nonsending) func awaitEachUntilCancelled() async {
    guard !Task.isCancelled else { return }
    let waiter = ResumeOnce()
    Task { [self] in
      await awaitEach()
      waiter.resume()
    }
    await withTaskCancellationHandler {
      await waiter.wait()
    } onCancel: {
      waiter.resume()
    }
  }
}

/// A wait that the first of several events ends.
private final class ResumeOnce: Sendable {
  private let state = Mutex<(continuation: CheckedContinuation<Void, Never>?, isDone: Bool)>(
    (nil, false))

  /// Waits until `resume()` has been called, before or during the wait.
  nonisolated(nonsending) func wait() async {
    await withCheckedContinuation { continuation in
      let isDone = state.withLock { state in
        if !state.isDone { state.continuation = continuation }
        return state.isDone
      }
      if isDone { continuation.resume() }
    }
  }

  /// Ends the wait; later calls do nothing.
  func resume() {
    let continuation = state.withLock { state in
      defer { state = (nil, true) }
      return state.continuation
    }
    continuation?.resume()
  }
}
