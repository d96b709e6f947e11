// NB: one extension, each initializer constrained on its own: two extensions with different
// constraints are two extension blocks to DocC, of which only one gets the type's page.
extension Result {
  /// Runs `body` and captures its outcome, for an async throwing call: TCA's (and
  /// swift-concurrency-extras') async `Result(catching:)`.
  ///
  /// ```swift
  /// return .run { send in
  ///   await send(.factResponse(Result { try await factClient.fetch(count) }))
  /// }
  /// ```
  ///
  /// A domain whose error adopts ``StorageFailing`` gets its own error instead, from
  /// ``init(catching:)-97w9q``.
  ///
  /// - Parameter body: The call.
  @inlinable
  public nonisolated(nonsending) init(
    catching body: nonisolated(nonsending) () async throws -> Success
  ) async where Failure == any Error {
    self = await captureResult(of: body) { $0 }
  }

  /// Runs a client call and captures its outcome, turning whatever it throws into the domain's
  /// error (``StorageFailing/captured(_:)``): the error itself when it is one, otherwise
  /// ``StorageFailing/storageFailed(_:)`` with its description.
  ///
  /// A feature's effect sends the outcome back as an action, whichever domain it calls:
  ///
  /// ```swift
  /// await send(.linksResponse(Result { try await linkClient.fetchLinks() }))
  /// await send(.habitsResponse(Result { try await habitClient.fetchHistories() }))
  /// ```
  ///
  /// A client throws only its domain's error; anything else (an unimplemented endpoint in a
  /// test) still reaches the user as a sentence.
  ///
  /// - Parameter body: The call.
  @inlinable
  public nonisolated(nonsending) init(
    catching body: nonisolated(nonsending) () async throws -> Success
  ) async where Failure: StorageFailing {
    self = await captureResult(of: body, Failure.captured)
  }
}

/// Runs `body` and captures its outcome, turning what it throws into `Failure` with `failure`:
/// what both `Result.init(catching:)`s do.
// NB: `body` is `nonisolated(nonsending)`: a plain `() async` closure runs on the global
// executor, so every effect would hop off the store's actor and back (two thread wake-ups).
// Inlinable, so that a feature's effect runs it specialized for its result: unspecialized,
// each call looked up the generic metadata of the result it made. A function, not a static
// method of `Result`, so that the documentation shows no extension without public members.
@inlinable
nonisolated(nonsending) func captureResult<Success, Failure>(
  of body: nonisolated(nonsending) () async throws -> Success,
  _ failure: (any Error) -> Failure
) async -> Result<Success, Failure> {
  do {
    return .success(try await body())
  } catch {
    return .failure(failure(error))
  }
}
