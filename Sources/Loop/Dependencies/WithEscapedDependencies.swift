/// Carries the current dependencies into code that escapes the current task: a callback, a
/// completion handler, a queue.
///
/// Dependencies follow tasks; a callback that a system API calls later runs outside them. Take
/// the dependencies with you and reinstate them there:
///
/// ```swift
/// return .run { send in
///   withEscapedDependencies { dependencies in
///     player.onFinish = {
///       dependencies.yield {
///         @Dependency(\.date) var date  // the effect's, not the live one
///         log.append(date.now)
///       }
///     }
///   }
/// }
/// ```
///
/// - Parameter operation: Receives the dependencies in effect here, to reinstate later.
/// - Returns: What `operation` returned.
/// - Throws: What `operation` threw.
@discardableResult
public func withEscapedDependencies<R>(
  _ operation: (DependencyValues.Continuation) throws -> R
) rethrows -> R {
  try operation(DependencyValues.Continuation(values: .current))
}

/// Carries the current dependencies into asynchronous code that escapes the current task.
///
/// - Parameters:
///   - isolation: The actor the operation runs on.
///   - operation: Receives the dependencies in effect here, to reinstate later.
/// - Returns: What `operation` returned.
/// - Throws: What `operation` threw.
@discardableResult
public func withEscapedDependencies<R>(
  isolation: isolated (any Actor)? = #isolation,
  _ operation: (DependencyValues.Continuation) async throws -> R
) async rethrows -> R {
  try await operation(DependencyValues.Continuation(values: .current))
}

extension DependencyValues {
  /// Dependencies taken by `withEscapedDependencies`, to reinstate with `yield`.
  ///
  /// ```swift
  /// withEscapedDependencies { dependencies in
  ///   queue.async { dependencies.yield { work() } }
  /// }
  /// ```
  public struct Continuation: Sendable {
    let values: DependencyValues

    /// Runs `operation` with the dependencies taken, for it and the tasks it starts.
    ///
    /// - Parameter operation: The code to run.
    /// - Returns: What `operation` returned.
    /// - Throws: What `operation` threw.
    public func yield<R>(_ operation: () throws -> R) rethrows -> R {
      try DependencyValues.with(values, operation: operation)
    }

    /// Runs asynchronous `operation` with the dependencies taken, for it and the tasks it
    /// starts.
    ///
    /// - Parameters:
    ///   - isolation: The actor the operation runs on.
    ///   - operation: The code to run.
    /// - Returns: What `operation` returned.
    /// - Throws: What `operation` threw.
    public func yield<R>(
      isolation: isolated (any Actor)? = #isolation,
      _ operation: () async throws -> R
    ) async rethrows -> R {
      try await DependencyValues.$taskValues.withValue(
        values.inCurrentEffect(), operation: operation)
    }
  }
}
