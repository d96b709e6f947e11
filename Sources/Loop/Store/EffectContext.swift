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
  /// siblings. Called outside an effect that a store runs, it cancels nothing and reports an
  /// issue.
  ///
  /// - Parameters:
  ///   - id: The id given to `cancellable(id:cancelInFlight:)`.
  ///   - fileID: The file of the call, for the issue reported outside an effect.
  ///   - filePath: The file path of the call.
  ///   - line: The line of the call.
  ///   - column: The column of the call.
  public static func cancel(
    id: some Hashable & Sendable,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    guard let context = EffectContext.current else {
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
    if Thread.isMainThread {
      MainActor.assumeIsolated { context.runtime?.cancel(id: id, in: context.path) }
    } else {
      Task<Void, Never> { @MainActor in context.runtime?.cancel(id: id, in: context.path) }
    }
  }
}
