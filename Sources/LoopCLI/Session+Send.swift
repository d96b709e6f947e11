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
    if let message = store.state.firstErrorMessage {
      throw CommandError(message)
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

  /// Sends an action that adds one element to a list the session has loaded, and prints
  /// `message` of the element the feature answers with and its short ref, as long as the list's
  /// ids need (nothing when the feature added none).
  ///
  /// - Parameters:
  ///   - action: The action that adds.
  ///   - answer: The element added, from the feature's answer (see ``send(_:answer:)``).
  ///   - id: The element's id.
  ///   - list: The list in the state.
  ///   - ids: The list's ids, in order.
  ///   - refLengths: The cache of the list's ref length.
  ///   - message: The line printed, from the element added and its short ref.
  /// - Throws: ``CommandError`` with the error a feature shows after the action.
  func sendAdding<Element, Added>(
    _ action: AppFeature.Action, answer: @escaping (AppFeature.Action) -> Added?,
    id: (Added) -> UUID, to list: KeyPath<AppFeature.State, IdentifiedArrayOf<Element>>,
    ids: (IdentifiedArrayOf<Element>) -> [UUID],
    refLengths: ReferenceWritableKeyPath<Session, RefLengthCache>,
    message: (Added, String) -> String
  ) async throws(CommandError) {
    guard let added = try await send(action, answer: answer) else { return }
    let length = self[keyPath: refLengths].length(ofIDs: ids(store.state[keyPath: list]))
    console.print(message(added, Ref.short(id(added), length: length)))
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

  /// Shows an action to the waiting command.
  func show(_ action: AppFeature.Action) {
    watch?(action)
  }
}
