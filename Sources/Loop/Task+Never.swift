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
}
