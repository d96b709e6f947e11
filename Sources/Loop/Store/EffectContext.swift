import Foundation
import Synchronization

/// A cancellation id together with the child scope (see `Effect.scoped(toChild:)`) it was
/// marked or cancelled in.
@usableFromInline
package struct ScopedEffectID: Hashable, Sendable {
  /// The id given to `cancellable(id:cancelInFlight:)` or `cancel(id:)`.
  @usableFromInline package let id: AnyHashableSendable
  /// The child scopes around it, outermost first.
  @usableFromInline package let path: [AnyHashableSendable]

  /// Creates the id `id` in the scope `path`.
  @usableFromInline
  package init(id: AnyHashableSendable, path: [AnyHashableSendable]) {
    self.id = id
    self.path = path
  }
}

/// What a running `Effect.run` knows of the store that runs it: where it runs among the child
/// scopes, and how to reach that store's effects (for `Task.cancel(id:)` and throttling).
///
/// The runtime binds it for the effect's task together with the effect's dependencies (one
/// task-local value for both, see `DependencyValues.effectContext`).
@usableFromInline
package final class EffectContext: Sendable {
  /// The child scopes the effect runs in, outermost first.
  package let path: [AnyHashableSendable]
  /// The runtime running the effect; `nil` once its store is gone.
  package weak let runtime: (any EffectCancelling)?

  /// The context of the effect running in the current task.
  ///
  /// NB: read from the task's values, never from a reducer's synchronous scope, which has none:
  /// a reducer running in an effect's task (for an action the effect sent) sees that effect.
  @usableFromInline
  package static var current: EffectContext? { DependencyValues.taskValues.effectContext }

  /// Creates the context of an effect that `runtime` runs in the scopes `path`.
  @usableFromInline
  package init(path: [AnyHashableSendable], runtime: any EffectCancelling) {
    self.path = path
    self.runtime = runtime
  }

  /// `id` as seen from this effect's scope.
  package func scoped(_ id: AnyHashableSendable) -> ScopedEffectID {
    ScopedEffectID(id: id, path: path)
  }
}

/// A store's effect runtime, as its effects reach it.
@MainActor
@usableFromInline
package protocol EffectCancelling: AnyObject, Sendable {
  /// Cancels the running effects marked with `id` in the scope `path` or in a scope inside it.
  func cancel(id: AnyHashableSendable, in path: [AnyHashableSendable])
  /// What effects keep between runs.
  nonisolated var storage: EffectStorage { get }
}

/// Values that a store's effects keep between runs, such as when a throttle last let an action
/// through; each store has its own, so tests running side by side do not share them.
@usableFromInline
package final class EffectStorage: Sendable {
  private let values = Mutex<[ScopedEffectID: any Sendable]>([:])

  /// Creates empty storage.
  package init() {}

  /// Reads and changes the value kept under `key`.
  package func withValue<Value: Sendable, R>(
    _ key: ScopedEffectID, as _: Value.Type, _ body: (inout Value?) -> R
  ) -> R {
    values.withLock { values in
      var value = values[key] as? Value
      defer { values[key] = value }
      return body(&value)
    }
  }
}

extension Task where Success == Never, Failure == Never {
  /// Suspends until the current task is cancelled, then throws `CancellationError`: TCA's
  /// `Task.never()`, for an effect that must stay alive until it is cancelled.
  ///
  /// ```swift
  /// case .onAppear:
  ///   return .run { _ in
  ///     defer { print("cancelled") }
  ///     try await Task.never()
  ///   }
  ///   .cancellable(id: CancelID.screen)
  /// ```
  ///
  /// - Throws: `CancellationError`, once the task is cancelled.
  public static func never() async throws -> Never {
    while true {
      // NB: a plain sleep, not a clock dependency: no test clock has to advance past it, and
      // it throws as soon as the task is cancelled.
      try await Task<Never, Never>.sleep(nanoseconds: .max)
    }
  }

  /// Cancels the running effects marked with `id`, from inside an effect.
  ///
  /// ```swift
  /// case .stopSubmitted:
  ///   return .run { _ in
  ///     await analytics.track("stopped")
  ///     Task.cancel(id: CancelID.timer)
  ///   }
  /// ```
  ///
  /// It reaches what ``Effect/cancel(id:)`` returned by the same reducer would: the effects of
  /// the feature that started this one, and of its children, not those of its parent or its
  /// siblings, and what ``withTaskCancellation(id:cancelInFlight:isolation:operation:)`` runs
  /// there. Called outside an effect that a store runs, it cancels what
  /// `withTaskCancellation(id:)` runs outside a store; when there is none, it reports an issue.
  ///
  /// - Parameters:
  ///   - id: The id given to `cancellable(id:cancelInFlight:)`.
  ///   - fileID: The file of the call, for the issue reported outside an effect.
  ///   - filePath: The file path of the call.
  ///   - line: The line of the call.
  ///   - column: The column of the call.
  ///   - isolation: The actor of the caller: on the main actor, where effects run, the effects
  ///     are cancelled before this returns.
  public static func cancel(
    id: some Hashable & Sendable,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    isolation: isolated (any Actor)? = #isolation
  ) {
    guard let context = EffectContext.current else {
      // NB: outside a store it reaches what `withTaskCancellation(id:)` runs outside one.
      if TaskCancellations.shared.cancel(
        TaskCancellations.Key(runtime: nil, id: AnyHashableSendable(id), path: []))
      {
        return
      }
      reportIssue(
        """
        'Task.cancel(id:)' was called at '\(fileID):\(line)' outside an effect.

        It cancels the effects of the feature whose effect calls it; here there is none, so \
        nothing was cancelled.

        To fix, call it inside an 'Effect.run', or return 'Effect.cancel(id:)' from the reducer.
        """,
        fileID: fileID, filePath: filePath, line: line, column: column)
      return
    }
    let id = AnyHashableSendable(id)
    // NB: effects run on the main actor, so this is almost always there already; from a task
    // of its own the effect started, it cancels on the main actor's next turn.
    if let isolation, isolation === MainActor.shared {
      MainActor.assumeIsolated { context.runtime?.cancel(id: id, in: context.path) }
    } else {
      Task<Void, Never> { @MainActor in context.runtime?.cancel(id: id, in: context.path) }
    }
  }
}

/// Operations running under ``withTaskCancellation(id:cancelInFlight:isolation:operation:)``, by
/// the store whose effect runs them (none outside a store) and scoped id, so that cancelling the
/// id there reaches them.
package final class TaskCancellations: Sendable {
  /// Where an operation is registered: a store's runtime (or none) and a scoped id.
  package struct Key: Hashable, Sendable {
    let runtime: ObjectIdentifier?
    let id: ScopedEffectID
  }

  /// The operations of every store and of none.
  package static let shared = TaskCancellations()

  private let entries = Mutex<(next: Int, byKey: [Key: [Int: @Sendable () -> Void]])>((0, [:]))

  /// Registers `cancel` under `keys`; returns the token that removes it.
  func insert(_ cancel: @escaping @Sendable () -> Void, under keys: [Key]) -> Int {
    entries.withLock { entries in
      let token = entries.next
      entries.next += 1
      for key in keys { entries.byKey[key, default: [:]][token] = cancel }
      return token
    }
  }

  /// Removes what `insert` registered under `keys` with `token`.
  func remove(_ token: Int, under keys: [Key]) {
    entries.withLock { entries in
      for key in keys {
        entries.byKey[key]?[token] = nil
        if entries.byKey[key]?.isEmpty == true { entries.byKey[key] = nil }
      }
    }
  }

  /// Cancels the operations registered under `key`; returns whether there were any.
  @discardableResult
  package func cancel(_ key: Key) -> Bool {
    let cancels = entries.withLock { $0.byKey[key].map { Array($0.values) } ?? [] }
    for cancel in cancels { cancel() }
    return !cancels.isEmpty
  }
}

extension TaskCancellations.Key {
  /// `id` in the scope `path` of `runtime`'s effects, or outside any store.
  package init(
    runtime: (any EffectCancelling)?, id: AnyHashableSendable, path: [AnyHashableSendable]
  ) {
    self.runtime = runtime.map { ObjectIdentifier($0) }
    self.id = ScopedEffectID(id: id, path: path)
  }
}

/// Runs `operation` so that cancelling `id` cancels it, inside an effect or anywhere else.
///
/// Inside an effect that a store runs, the id belongs to that effect's feature, as the ids of
/// ``Effect/cancellable(id:cancelInFlight:)`` do: ``Effect/cancel(id:)`` returned by the feature
/// (or its parent) and `Task.cancel(id:)` in its effects cancel the operation. Outside a store,
/// `Task.cancel(id:)` called outside a store cancels it.
///
/// ```swift
/// return .run { send in
///   try await withTaskCancellation(id: CancelID.search, cancelInFlight: true) {
///     try await clock.sleep(for: .milliseconds(300))
///     await send(.searchResponse(try await searchClient.search(query)))
///   }
/// }
/// ```
///
/// The operation runs in a task of its own, which is cancelled when the caller's task is.
///
/// - Parameters:
///   - id: Any hashable, sendable value.
///   - cancelInFlight: When `true`, operations already running under `id` (in the same feature,
///     or outside any store) are cancelled before this one starts.
///   - isolation: The actor of the caller, where the operation is registered.
///   - operation: The work.
/// - Returns: What the operation returned.
/// - Throws: What the operation threw; a `CancellationError` when it was cancelled and threw it.
public func withTaskCancellation<T: Sendable, Failure: Error>(
  id: some Hashable & Sendable,
  cancelInFlight: Bool = false,
  isolation: isolated (any Actor)? = #isolation,
  operation: @escaping @Sendable () async throws(Failure) -> T
) async throws(Failure) -> T {
  let id = AnyHashableSendable(id)
  let context = EffectContext.current
  let runtime = context?.runtime
  let path = context?.path ?? []
  // NB: seen from its own scope and every scope around it, as an effect's mark is.
  let keys = (0...path.count).map {
    TaskCancellations.Key(runtime: runtime, id: id, path: Array(path.prefix($0)))
  }
  if cancelInFlight { TaskCancellations.shared.cancel(keys[path.count]) }
  let task = Task<Result<T, Failure>, Never> {
    do throws(Failure) {
      return .success(try await operation())
    } catch {
      return .failure(error)
    }
  }
  let token = TaskCancellations.shared.insert({ task.cancel() }, under: keys)
  defer { TaskCancellations.shared.remove(token, under: keys) }
  return try await withTaskCancellationHandler {
    await task.value
  } onCancel: {
    task.cancel()
  }.get()
}
