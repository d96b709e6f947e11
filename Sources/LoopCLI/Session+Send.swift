import AppFeature
import Foundation
import Loop

extension Session {
  /// Sends an action, waits for the effects it started (and the actions they sent), and fails
  /// with the error a feature then shows.
  ///
  /// When the command is cancelled (Ctrl-C), the effects are cancelled, and this waits for them
  /// to wind down (an import's transaction to roll back) before it throws
  /// ``CommandError/cancelled(_:)``.
  func send(_ action: AppFeature.Action) async throws(CommandError) {
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
    if let message = store.reading({ $0.firstErrorMessage }) {
      throw CommandError(message)
    }
    answers.shownWithoutError = answers.shown
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
/// (``Session/send(_:answer:)``), if any.
///
/// NB: `@unchecked Sendable`: the store's reducers and the session's commands both run on the
/// main actor, the only place ``watch`` is read or written.
final class AnswerTap: @unchecked Sendable {
  /// What the waiting command looks at each action with; `nil` when none waits.
  var watch: ((AppFeature.Action) -> Void)?
  /// How many actions the store processed.
  private(set) var shown = 0
  /// ``shown`` when the state was last seen to show no error, or `nil`.
  ///
  /// NB: the state changes only as actions are processed: while ``shown`` is still this, it
  /// shows no error, and the next command need not read it (a copy of the whole app's state,
  /// and every feature's messages) to know.
  var shownWithoutError: Int?

  /// Shows an action to the waiting command.
  func show(_ action: AppFeature.Action) {
    shown &+= 1
    watch?(action)
  }

  /// Whether the state may show an error: some action was processed since it last showed none.
  var mayShowError: Bool { shownWithoutError != shown }
}
