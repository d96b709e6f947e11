extension Result where Failure: StorageFailing {
  /// Runs a client call and captures its outcome, turning whatever it throws into the domain's
  /// error (``StorageFailing/captured(_:duplicateID:notFound:uniqueViolation:)``): the error
  /// itself when it is one, otherwise ``StorageFailing/storageFailed(_:)`` with its description.
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
  // NB: `body` is `nonisolated(nonsending)` too: a plain `() async` closure runs on the global
  // executor, so every effect would hop off the main actor and back (two thread wake-ups).
  // Inlinable, so that a feature's effect runs it specialized for its result: unspecialized,
  // each call looked up the generic metadata of the result it made.
  @inlinable
  public nonisolated(nonsending) init(
    catching body: nonisolated(nonsending) () async throws -> Success
  ) async {
    do {
      self = .success(try await body())
    } catch {
      self = .failure(.captured(error))
    }
  }
}
