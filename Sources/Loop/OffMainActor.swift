/// Runs storage work on the global concurrent executor, off the caller's actor, and returns what
/// it returns.
///
/// A client endpoint is `nonisolated(nonsending)`: it runs on its caller's actor, which in an
/// app is the main actor (a store runs its effects there). That is right for a quick call, where
/// leaving the actor and coming back would cost more than the work; an endpoint whose work can
/// take long (an import, an export, reading thousands of rows) runs it through this function
/// instead, so the main actor stays free to draw progress and answer the keyboard meanwhile:
///
/// ```swift
/// exportLinks: { try await offMainActor { try storage.get().exportLinks() } },
/// ```
///
/// The work runs in the calling task: its task-local values (the dependencies) and its
/// cancellation are those of the caller.
///
/// - Parameter work: The storage work, synchronous.
/// - Returns: What `work` returns.
/// - Throws: What `work` throws.
@concurrent
public func offMainActor<T: Sendable, Failure: Error>(
  _ work: @Sendable () throws(Failure) -> T
) async throws(Failure) -> T {
  try work()
}
