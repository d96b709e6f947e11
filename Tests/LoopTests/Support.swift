import Loop

/// Suspends until the task is cancelled.
func waitForCancellation() async {
  while !Task.isCancelled {
    try? await Task.sleep(for: .seconds(3600))
  }
}

/// A presented child: it edits a text, closes itself with `dismiss`, and runs an effect until it
/// is cancelled.
struct Note: Reducer {
  struct State: Equatable, Identifiable {
    var id = 1
    var text = ""
  }

  enum Action: Equatable {
    case closeTapped, finished, longTask
    case textChanged(String)
  }

  @Dependency(\.dismiss) var dismiss

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .closeTapped:
      return .run { _ in await dismiss() }
    case .finished:
      state.text = "finished"
      return .none
    case .longTask:
      return .run { send in
        await waitForCancellation()
        await send(.finished)
      }
    case .textChanged(let text):
      state.text = text
      return .none
    }
  }
}
