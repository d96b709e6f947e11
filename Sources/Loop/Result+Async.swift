extension Result where Failure == any Error {
  /// Runs `body` and captures its outcome, for an async throwing call: TCA's (and
  /// swift-concurrency-extras') async `Result(catching:)`.
  ///
  /// ```swift
  /// return .run { send in
  ///   await send(.factResponse(Result { try await factClient.fetch(count) }))
  /// }
  /// ```
  ///
  /// A domain whose error adopts Persistence's `StorageFailing` gets its own error instead,
  /// from Persistence's `Result(catching:)`.
  ///
  /// - Parameter body: The call.
  // NB: `nonisolated(nonsending)`, like Persistence's, so an effect's call does not hop off the
  // store's actor and back.
  @inlinable
  public nonisolated(nonsending) init(
    catching body: nonisolated(nonsending) () async throws -> Success
  ) async {
    do {
      self = .success(try await body())
    } catch {
      self = .failure(error)
    }
  }
}
