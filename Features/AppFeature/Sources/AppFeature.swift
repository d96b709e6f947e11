import Habits
import Ledger
import Loop

/// The whole app as one feature: the habit tracker and the ledger side by side, each in its own
/// part of one state, driven by the `loop` REPL through one `Store`.
///
/// ```swift
/// let store = Store(initialState: AppFeature.State()) { AppFeature() }
/// await store.send(.habits(.addHabitSubmitted(name: "Read"))).finish()
/// store.state.errorMessage  // nil: it worked
/// ```
///
/// Every feature keeps its own error message; ``State/errorMessage`` is the first one shown
/// anywhere, so a caller learns from one place whether what it sent failed, and
/// ``Action/errorsDismissed`` clears them all before the next command.
public struct AppFeature: Reducer {
  /// The app's state: one part per feature.
  public struct State: Equatable, Sendable {
    /// The habit tracker.
    public var habits: Habits.State

    /// The ledger.
    public var ledger: Ledger.State

    /// Creates the state.
    ///
    /// - Parameters:
    ///   - habits: The habit tracker's state; empty (nothing loaded) by default.
    ///   - ledger: The ledger's state; empty (nothing loaded) by default.
    public init(habits: Habits.State = Habits.State(), ledger: Ledger.State = Ledger.State()) {
      self.habits = habits
      self.ledger = ledger
    }

    /// Every error message the features show, in the order of the features (habits, then the
    /// ledger), each feature's own before its children's.
    public var errorMessages: [String] {
      [
        habits.errorMessage, habits.detail?.errorMessage, ledger.errorMessage,
        ledger.editor?.errorMessage,
      ]
      .compactMap { $0 }
    }

    /// The first of ``errorMessages``, or `nil` when no feature shows an error.
    public var errorMessage: String? { errorMessages.first }
  }

  /// What happens in the app.
  public enum Action: Equatable, Sendable {
    /// The user saw the errors shown: every feature's error message is cleared.
    case errorsDismissed
    /// The habit tracker's actions.
    case habits(Habits.Action)
    /// The ledger's actions.
    case ledger(Ledger.Action)
  }

  /// Creates the reducer.
  public init() {}

  /// The features, each on its part of the state, and the dismissal of their errors.
  public var body: some ReducerOf<Self> {
    Scope(state: \.habits, action: .case(Action.habits)) { Habits() }
    Scope(state: \.ledger, action: .case(Action.ledger)) { Ledger() }
    Reduce { state, action in
      switch action {
      case .errorsDismissed:
        // NB: the parent clears the children's messages itself: not every child has an action
        // for it, and a message must never survive into the next command.
        state.habits.errorMessage = nil
        state.habits.detail?.errorMessage = nil
        state.ledger.errorMessage = nil
        state.ledger.editor?.errorMessage = nil
        return .none
      case .habits, .ledger:
        return .none
      }
    }
  }
}
