import Synchronization

/// Work a reducer asks the store to do after it has changed the state: send more actions, run
/// asynchronous code, cancel earlier work.
///
/// Effects are values; reducers return them and the store runs them:
///
/// ```swift
/// case .refreshSubmitted:
///   return .run { send in
///     await send(.linksResponse(try await linkClient.fetchLinks()))
///   } catch: { error, send in
///     await send(.loadFailed(error.localizedDescription))
///   }
///   .cancellable(id: CancelID.refresh, cancelInFlight: true)
/// ```
///
/// ## Debounce and throttle
/// Both are built from `.cancellable` and the injected clock, so tests drive them with a test
/// clock:
///
/// ```swift
/// // Debounce: every new query cancels the pending one; only the last survives the wait.
/// return .run { send in
///   try await clock.sleep(for: .milliseconds(300))
///   await send(.search(query))
/// }
/// .cancellable(id: CancelID.search, cancelInFlight: true)
/// ```
///
/// `Effect.debounce(id:for:clock:)` packages that recipe. `throttle(id:for:clock:latest:)` lets
/// at most one action through per interval instead, the first at once.
public struct Effect<Action>: Sendable {
  /// The work of an `Effect.run`: isolated to the main actor, where the store runs, whatever its
  /// closure captures (a `nonisolated(nonsending)` closure with a capture list was compiled
  /// `@concurrent` by Swift 6.3, swiftlang/swift#87097, and ran beside the store).
  @usableFromInline
  package typealias RunOperation = @MainActor @Sendable (Send<Action>) async -> Void

  @usableFromInline
  package enum Operation: Sendable {
    case none
    case send(UncheckedSendable<Action>)
    /// Work in a task of its own. NB: the setup travels unchanged through every wrapper of the
    /// operation (`map`, a presentation's `dismiss`, a throttle), and the store's runtime binds its
    /// dependencies when it creates the task, so the task inherits them with no push of its own.
    case run(EffectTaskSetup, RunOperation)
    case merge([Effect<Action>])
    case concatenate([Effect<Action>])
    case cancellable(Effect<Action>, id: AnyHashableSendable, cancelInFlight: Bool)
    case cancel(id: AnyHashableSendable)
    /// The effects of one child of the reducer that returned this (see
    /// ``Effect/scoped(toChild:)``).
    case child(Effect<Action>, id: AnyHashableSendable)
    /// Cancels the running effects of one child (see ``Effect/cancelChild(_:)``).
    case cancelChild(id: AnyHashableSendable)
    /// Cancels the running effects of the children whose ids satisfy the predicate.
    case cancelChildren(@Sendable (AnyHashableSendable) -> Bool)
  }

  /// The effect's operation, boxed; `nil` for `.none`.
  ///
  /// NB: most reducers return `.none` for most actions. Boxing the other operations keeps
  /// `.none` a null pointer, so returning, checking and dropping it costs next to nothing.
  @usableFromInline let storage: Storage?

  @usableFromInline
  final class Storage: Sendable {
    @usableFromInline let operation: Operation

    @usableFromInline
    init(_ operation: Operation) {
      self.operation = operation
    }
  }

  @inlinable
  init(storage: Storage?) {
    self.storage = storage
  }

  @inlinable
  package init(operation: Operation) {
    if case .none = operation {
      self.storage = nil
    } else {
      self.storage = Storage(operation)
    }
  }

  /// What the effect does.
  @inlinable
  package var operation: Operation { storage?.operation ?? .none }

  /// Whether this is `.none`.
  @inlinable
  package var isNone: Bool { storage == nil }

  /// An effect that does nothing.
  @inlinable
  public static var none: Self { Self(storage: nil) }

  /// An effect that sends `action` back into the store right after the current action.
  ///
  /// The store processes it before `send` returns, after any actions queued before it. Prefer
  /// calling shared logic directly over sending actions to yourself; `.send` is for telling a
  /// parent something (a delegate action) or starting a child's action.
  ///
  /// - Parameter action: The action to send.
  /// - Returns: The effect.
  @inlinable
  public static func send(_ action: Action) -> Self {
    Self(operation: .send(UncheckedSendable(action)))
  }

  /// An effect that runs asynchronous work, which may send any number of actions.
  ///
  /// The operation starts at once, inside the store's `send` that returned it: in a task started
  /// with `Task.immediate`, it runs synchronously on the store's actor (the main actor) until it
  /// first suspends, that is until it awaits work isolated elsewhere: a clock, an actor, a
  /// `@concurrent` function. A `nonisolated(nonsending)` function or closure, which is what
  /// Loop's client endpoints are, is not elsewhere: it runs on the main actor too, up to its own
  /// first suspension. Actions it sends before then are queued
  /// behind the current action and every action queued synchronously (`Effect.send`), and
  /// processed before `send` returns, never re-entrantly; so an effect that never suspends (its
  /// client answered from memory, say) has finished, its actions processed, when `send` returns.
  /// After a suspension it resumes on the main actor, and `send` delivers each action at once,
  /// in order: an effect whose last step is a `send` has finished by the time anyone awaiting
  /// that action resumes, so tests never race with the tail of an effect. It reads the
  /// dependencies in effect where it was created (in a reducer: the store's, with any
  /// `.dependency(_:_:)` or `withDependencies` around it), whenever it runs, and
  /// `withDependencies` inside it changes them for it alone. (Inside `concatenate`, an effect
  /// that follows an asynchronous one starts later, in the concatenation's own task, once that
  /// one has finished.)
  ///
  /// The operation is isolated to the main actor, however its closure captures (`self` and the
  /// reducer's `@Dependency` properties, or a capture list): it never runs beside the store.
  ///
  /// Long work must leave the main actor, or the app stops drawing and answering the keyboard
  /// while it runs: do not do it directly in the operation, nor in a `nonisolated(nonsending)`
  /// endpoint. A client moves heavy work off the main actor in its endpoint: the endpoint awaits
  /// a `@concurrent` function (`offMainActor(_:)` runs storage work that way), or
  /// a storage actor that owns the data. The operation then suspends at that call, and resumes
  /// on the main actor with the answer.
  ///
  /// ```swift
  /// // In the live client: the work runs on the global concurrent executor.
  /// exportLinks: { try await offMainActor { try storage.get().exportLinks() } },
  /// ```
  ///
  /// Cancelling the effect (``cancellable(id:cancelInFlight:)``, or the task `send` returned)
  /// cancels the task the operation runs in, and the work it awaits sees `Task.isCancelled`;
  /// long work checks it between steps. Actions sent after the effect was cancelled are
  /// dropped. An action sent after the operation returned (by a task it started and did not
  /// wait for) is reported as a runtime issue, then delivered. An error thrown by the
  /// operation goes to `catch` when given; otherwise it is reported as a runtime issue (a test
  /// failure under test), because a silently swallowed error is a bug. Cancellation errors are
  /// not reported.
  ///
  /// - Parameters:
  ///   - priority: The priority of the task that runs the operation.
  ///   - operation: The work. It receives a `Send` to deliver actions.
  ///   - handler: Turns an error thrown by `operation` into actions.
  ///   - fileID: The file of the call, for reports.
  ///   - filePath: The file path of the call, for reports.
  ///   - line: The line of the call, for reports.
  ///   - column: The column of the call, for reports.
  /// - Returns: The effect.
  // NB: inlinable, so that a feature's module builds its effects specialized for its actions
  // (unspecialized, making, merging and dropping each one looked up `Effect<Action>`'s metadata),
  // and the location is kept as the compiler's static strings until a report needs it.
  @inlinable
  public static func run(
    priority: TaskPriority? = nil,
    operation: @MainActor @escaping @Sendable (_ send: Send<Action>) async throws -> Void,
    catch handler: (
      @MainActor @Sendable (_ error: any Error, _ send: Send<Action>) async -> Void
    )? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> Self {
    let site = EffectSite(fileID: fileID, filePath: filePath, line: line, column: column)
    // NB: captured now, so the effect keeps the dependencies of the reducer that created it
    // rather than those of whatever starts its task; the runtime binds them in the task.
    let setup = EffectTaskSetup(priority: priority, dependencies: DependencyValues.current)
    return Self(
      operation: .run(setup) { runtimeSend in
        // NB: a `send` escaped into a task the operation did not wait for can still be called
        // once the effect has finished: reported where the `.run` was made, and delivered.
        let completion = EffectCompletion()
        let send = Send<Action> { action in
          if completion.isCompleted { site.reportSentFromCompletedEffect(action) }
          runtimeSend.deliverUnlessCancelled(action)
        }
        defer { completion.complete() }
        do {
          try await operation(send)
        } catch is CancellationError {
          return
        } catch {
          if let handler {
            await handler(error, send)
          } else if !Task.isCancelled {
            site.reportUnhandledError(error)
          }
        }
      })
  }

  /// Runs several effects at the same time.
  @inlinable
  public static func merge(_ effects: Self...) -> Self { merge(effects) }

  /// Runs several effects at the same time.
  ///
  /// - Parameter effects: The effects.
  /// - Returns: An effect that finishes when all of them have.
  // NB: inlinable, as `merge(with:)` is, so that a reducer merging effects on every action
  // runs it specialized for its actions: unspecialized, it looked up the metadata of the array
  // and the operation each time.
  @inlinable
  public static func merge(_ effects: [Self]) -> Self {
    let live = effects.filter { !$0.isNone }
    return live.count == 1 ? live[0] : Self(operation: live.isEmpty ? .none : .merge(live))
  }

  /// Runs several effects one after another: each starts when the previous one has finished,
  /// including the effects of the actions it sent.
  public static func concatenate(_ effects: Self...) -> Self { concatenate(effects) }

  /// Runs several effects one after another: each starts when the previous one has finished,
  /// including the effects of the actions it sent.
  ///
  /// - Parameter effects: The effects, in order.
  /// - Returns: The effect.
  public static func concatenate(_ effects: [Self]) -> Self {
    let live = effects.filter { !$0.isNone }
    return live.count == 1 ? live[0] : Self(operation: live.isEmpty ? .none : .concatenate(live))
  }

  /// Runs this effect merged with another.
  ///
  /// - Parameter other: The other effect.
  /// - Returns: The merged effect.
  @inlinable
  public func merge(with other: Self) -> Self {
    // NB: reducers merge on every action; most effects are `.none`, so skip the array.
    if isNone { return other }
    if other.isNone { return self }
    return Self(operation: .merge([self, other]))
  }

  /// Runs this effect, then another.
  ///
  /// - Parameter next: The effect to run after this one finishes.
  /// - Returns: The concatenated effect.
  @inlinable
  public func concatenate(with next: Self) -> Self {
    if isNone { return next }
    if next.isNone { return self }
    return Self(operation: .concatenate([self, next]))
  }

  /// Makes this effect cancellable with `Effect.cancel(id:)`.
  ///
  /// An id belongs to the feature whose reducer returns the effect: a child that `ifLet`,
  /// `forEach` or a presentation runs marks and cancels its own effects, and its descendants',
  /// never its parent's or a sibling's (two rows of one list, each with
  /// `.cancellable(id: CancelID.timer)`, each have their own timer); a parent's
  /// ``cancel(id:)`` reaches the effects its children marked with the id, as well as its own.
  ///
  /// - Parameters:
  ///   - id: Any hashable, sendable value. Effects with equal ids are cancelled together.
  ///   - cancelInFlight: When `true`, effects already running with this id are cancelled before
  ///     this one starts (the recipe for debounce and "latest request wins").
  /// - Returns: The cancellable effect.
  @inlinable
  public func cancellable(id: some Hashable & Sendable, cancelInFlight: Bool = false) -> Self {
    // NB: nothing can be running from an effect that starts no task.
    if isNone || (!cancelInFlight && isSynchronous) { return self }
    return Self(
      operation: .cancellable(self, id: AnyHashableSendable(id), cancelInFlight: cancelInFlight))
  }

  /// An effect that cancels every running effect marked with `id` by this feature or its
  /// children (see ``cancellable(id:cancelInFlight:)``).
  ///
  /// The effects it cancels count as finished at once: a test may end right after the action
  /// that returned this, and nothing they send afterwards reaches the store.
  ///
  /// - Parameter id: The id given to `cancellable(id:cancelInFlight:)`.
  /// - Returns: The effect.
  public static func cancel(id: some Hashable & Sendable) -> Self {
    Self(operation: .cancel(id: AnyHashableSendable(id)))
  }

  /// Transforms the actions this effect sends.
  ///
  /// Scoping reducers use this to embed a child's actions in the parent's action.
  ///
  /// - Parameter transform: Turns this effect's actions into another type.
  /// - Returns: The transformed effect.
  @inlinable
  public func map<NewAction>(
    _ transform: @escaping @Sendable (Action) -> NewAction
  ) -> Effect<NewAction> {
    // NB: a parent maps its child's effect on every action, and most are `.none`; with the
    // switch in a function of its own, this check stays small enough to inline into the parent
    // (loop-bench: `send through 3 Scopes` ~25% faster).
    guard let storage else { return .none }
    return Self.map(storage, transform)
  }

  /// The work of ``map(_:)`` for an effect that is not `.none`.
  @inlinable
  static func map<NewAction>(
    _ storage: Storage, _ transform: @escaping @Sendable (Action) -> NewAction
  ) -> Effect<NewAction> {
    // NB: switching over the box's operation in place binds only the payload it uses; copying
    // the operation out first copied and destroyed the whole enum through its value witnesses.
    switch storage.operation {
    case .none:
      return .none
    case .send(let action):
      return .send(transform(action.value))
    case .run(let setup, let operation):
      return Effect<NewAction>(
        operation: .run(setup) { send in
          await operation(Send { action in send.deliverUnlessCancelled(transform(action)) })
        })
    case .merge(let effects):
      return Effect<NewAction>(operation: .merge(effects.map { $0.map(transform) }))
    case .concatenate(let effects):
      return Effect<NewAction>(operation: .concatenate(effects.map { $0.map(transform) }))
    case .cancellable(let effect, let id, let cancelInFlight):
      return Effect<NewAction>(
        operation: .cancellable(effect.map(transform), id: id, cancelInFlight: cancelInFlight))
    case .cancel(let id):
      return Effect<NewAction>(operation: .cancel(id: id))
    case .child(let effect, let id):
      return Effect<NewAction>(operation: .child(effect.map(transform), id: id))
    case .cancelChild(let id):
      return Effect<NewAction>(operation: .cancelChild(id: id))
    case .cancelChildren(let isMatch):
      return Effect<NewAction>(operation: .cancelChildren(isMatch))
    }
  }

  /// Whether running this effect needs no task: it only sends actions and cancels.
  @usableFromInline
  package var isSynchronous: Bool {
    switch operation {
    case .none, .send, .cancel, .cancelChild, .cancelChildren: true
    case .run: false
    case .merge(let effects), .concatenate(let effects): effects.allSatisfy(\.isSynchronous)
    case .cancellable(let effect, _, _), .child(let effect, _): effect.isSynchronous
    }
  }
}

/// What the task of an `Effect.run` starts with, besides its operation.
@usableFromInline
package struct EffectTaskSetup: Sendable {
  /// The priority of the task.
  @usableFromInline package let priority: TaskPriority?
  /// The dependencies the operation runs with: those where the `.run` was made.
  @usableFromInline package let dependencies: DependencyValues

  /// Creates the setup of a task with `priority` and `dependencies`.
  @inlinable
  package init(priority: TaskPriority?, dependencies: DependencyValues) {
    self.priority = priority
    self.dependencies = dependencies
  }
}

/// Runs an effect's work with a task-local value bound.
///
/// NB: effects run on the main actor, where their runtime is isolated. `TaskLocal.withValue`
/// takes the actor it runs on, and a closure formed in a `nonisolated(nonsending)` operation is
/// not isolated to its caller: left to themselves, both would run on the global executor, and
/// the effect would finish after the actions it sent had been processed. Both are pinned to the
/// main actor, where switching to it costs nothing.
///
/// - Parameters:
///   - local: The task-local value's projection.
///   - value: Its value for `operation`.
///   - operation: The effect's work.
package nonisolated(nonsending) func withEffectTaskLocal<Value: Sendable>(
  _ local: TaskLocal<Value>, _ value: Value,
  operation: @MainActor @Sendable () async -> Void
) async {
  await local.withValue(value, operation: operation, isolation: MainActor.shared)
}

/// Where an `Effect.run` was made, as the compiler wrote it; turned into an `IssueLocation`
/// only when something is reported there.
@usableFromInline
struct EffectSite: Sendable {
  @usableFromInline let fileID: StaticString
  @usableFromInline let filePath: StaticString
  @usableFromInline let line: UInt
  @usableFromInline let column: UInt

  /// Creates the site of a call.
  @inlinable
  init(fileID: StaticString, filePath: StaticString, line: UInt, column: UInt) {
    self.fileID = fileID
    self.filePath = filePath
    self.line = line
    self.column = column
  }

  var location: IssueLocation {
    IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Reports an action sent after the effect's operation returned.
  ///
  /// - Parameter action: The action.
  @MainActor
  @usableFromInline
  func reportSentFromCompletedEffect(_ action: Any) {
    let location = location
    IssueReporting.current.reportIssue(
      """
      An action was sent from a completed effect:

          \(Diff.dump(action).indentingContinuationLines(by: 4))

      The 'Effect.run' returned from '\(location.fileIDAndLine)' had finished: its 'send' \
      was called from a task the operation started and did not wait for.

      To fix, make the operation wait for everything that sends (await the task, or use \
      a task group), so that it returns only when it is done sending.
      """,
      at: location)
  }

  /// Reports an error the operation threw and nothing handled.
  ///
  /// - Parameter error: The error.
  @usableFromInline
  func reportUnhandledError(_ error: any Error) {
    let location = location
    IssueReporting.current.reportIssue(
      """
      An 'Effect.run' returned from '\(location.fileIDAndLine)' threw an unhandled error:

          \(error)

      To fix, handle the error with the 'catch' parameter of 'Effect.run', or catch it inside \
      the operation.
      """,
      at: location)
  }
}

extension Effect {
  /// Runs `operation` after `duration` has passed on `clock` without another effect with the
  /// same `id` starting: the debounce recipe.
  ///
  /// - Parameters:
  ///   - id: The id shared by the debounced effects.
  ///   - duration: How long to wait for quiet.
  ///   - clock: The clock to wait on; pass the `continuousClock` dependency so tests control it.
  ///   - operation: The work to run after the wait.
  /// - Returns: The effect.
  public static func debounce(
    id: some Hashable & Sendable,
    for duration: Duration,
    clock: any Clock<Duration>,
    operation: @MainActor @escaping @Sendable (_ send: Send<Action>) async throws -> Void
  ) -> Self {
    Self.run { send in
      try await clock.sleep(for: duration)
      try await operation(send)
    }
    .cancellable(id: id, cancelInFlight: true)
  }
}

/// Delivers actions from an effect back to the store, on the main actor.
///
/// ```swift
/// return .run { send in
///   for await value in stream { await send(.valueChanged(value)) }
/// }
/// ```
///
/// Calls after the effect has been cancelled are ignored, so a cancelled effect never changes
/// the state.
@MainActor
public struct Send<Action>: Sendable {
  @usableFromInline let deliver: @MainActor (Action) -> Void

  /// Creates a `Send` that hands each action to `deliver`.
  @inlinable
  public nonisolated init(_ deliver: @escaping @MainActor (Action) -> Void) {
    self.deliver = deliver
  }

  /// Sends an action back into the store, unless the effect has been cancelled.
  ///
  /// An effect's operation runs on the main actor, so this is a direct call: the action is
  /// processed before it returns.
  ///
  /// - Parameter action: The action.
  // NB: `async`, though it never suspends on the main actor: an operation is isolated to the
  // main actor, and `await send(action)`, the way every TCA effect writes it, would otherwise
  // warn that nothing is awaited.
  @inlinable
  public func callAsFunction(_ action: Action) async {
    deliverUnlessCancelled(action)
  }

  /// Sends an action back into the store at once, unless the effect has been cancelled.
  @inlinable
  package func deliverUnlessCancelled(_ action: Action) {
    guard !Task.isCancelled else { return }
    deliver(action)
  }
}

/// Whether an `Effect.run`'s operation has returned, so its `send` can tell when it is used too
/// late.
///
/// NB: atomic rather than isolated to the main actor, where it is only ever used: the operation
/// that marks it is `nonisolated(nonsending)`, and entering a main-actor closure to mark it cost
/// the effect's task two executor switches.
@usableFromInline
final class EffectCompletion: Sendable {
  @usableFromInline let flag = Atomic<Bool>(false)

  @inlinable
  init() {}

  /// Whether the operation has returned.
  @inlinable
  var isCompleted: Bool { flag.load(ordering: .acquiring) }

  /// Records that the operation has returned.
  @inlinable
  func complete() { flag.store(true, ordering: .releasing) }
}

/// A box that lets a value cross into a `Sendable` context.
///
/// NB: effects carry actions to the main actor, where the store runs them; actions need not be
/// `Sendable` themselves, as in TCA. The box is only unwrapped on the store's actor.
@usableFromInline
package struct UncheckedSendable<Value>: @unchecked Sendable {
  @usableFromInline package let value: Value

  @inlinable
  package init(_ value: Value) {
    self.value = value
  }
}
