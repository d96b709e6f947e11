import AppFeature
import Foundation
import Loop

extension Session {
  /// Sends an action, waits for the effects it started (and the actions they sent), and fails
  /// with the first failure a client's response carried meanwhile (``AnswerTap/failure``).
  ///
  /// When the command is cancelled (Ctrl-C), the effects are cancelled, and this waits for them
  /// to wind down (an import's transaction to roll back) before it throws
  /// ``CommandError/cancelled(_:)``.
  func send(_ action: AppFeature.Action) async throws(CommandError) {
    answers.isSending = true
    try await finish(store.send(action))
  }

  /// Waits for the effects of an action sent with `store.send` (the command did something
  /// meanwhile, say printed a page while the next one loads), and fails as ``send(_:)`` does.
  func finish(_ task: StoreTask) async throws(CommandError) {
    await withTaskCancellationHandler {
      await task.finish()
    } onCancel: {
      task.cancel()
    }
    if Task.isCancelled { throw .cancelled() }
    if let failure = answers.takeFailure() {
      throw CommandError(String(describing: failure))
    }
  }

  /// Sends an action, as ``send(_:)``, and returns the answer it led to: what `answer` finds in
  /// the first action processed meanwhile that it matches (say the client's response), or `nil`
  /// when none did.
  ///
  /// ```swift
  /// let saved = try await session.send(.links(.addLinkSubmitted(draft))) {
  ///   if case .links(.addLinkResponse(.success(let saved))) = $0 { saved } else { nil }
  /// }
  /// ```
  ///
  /// A command reads its result here, from the feature's answer, rather than from a field of
  /// the state kept for it.
  func send<Answer>(
    _ action: AppFeature.Action, answer: @escaping (AppFeature.Action) -> Answer?
  ) async throws(CommandError) -> Answer? {
    var found: Answer?
    answers.watch = { action in
      if found == nil { found = answer(action) }
    }
    defer { answers.watch = nil }
    try await send(action)
    return found
  }
}

/// Shows each action the store processed to the command waiting for an answer
/// (``Session/send(_:answer:)``), if any, and keeps the first failure a client's response
/// carried, which the command then reports (``Session/finish(_:)``).
///
/// NB: `@unchecked Sendable`: the store's reducers and the session's commands both run on the
/// main actor, the only place ``watch`` is read or written.
final class AnswerTap: @unchecked Sendable {
  /// What the waiting command looks at each action with; `nil` when none waits.
  var watch: ((AppFeature.Action) -> Void)?

  /// Whether the next action shown is the one a command sends, which carries no client's
  /// response: it is not looked through for a failure.
  ///
  /// NB: the store's reducers see an action sent first, before anything it leads to.
  var isSending = false

  /// The first failure an action carried since the last ``takeFailure()``: the typed error of
  /// a client's response (`.addResponse(.failure(error))`), found at any depth of the action.
  private(set) var failure: (any Error)?

  /// Shows an action to the waiting command, and keeps the failure it carries, if it is the
  /// first.
  func show(_ action: AppFeature.Action) {
    if isSending {
      isSending = false
    } else if failure == nil {
      failure = carriedFailure(in: action)
    }
    watch?(action)
  }

  /// Returns the failure kept since the last call, and forgets it.
  func takeFailure() -> (any Error)? {
    defer { failure = nil }
    return failure
  }

  /// The failure an action carries: the error of a `Result` among the associated values of the
  /// enum cases it is made of (a feature's action wraps its child's), whatever the client, found
  /// by a `NestedSearch` (`NestedSearch.resultFailures()`), which reads a case's payload without
  /// `Mirror`.
  ///
  /// NB: one search for every action: it learns once which cases of which actions may carry a
  /// `Result`, and passes by the others without reading their payloads. A success (most
  /// answers) is passed by on its tag, with nothing copied out of it or cast.
  func carriedFailure(in action: AppFeature.Action) -> (any Error)? {
    failures.first(in: action, find: { $0 as? any Error })
  }

  private let failures = NestedSearch.resultFailures()
}
