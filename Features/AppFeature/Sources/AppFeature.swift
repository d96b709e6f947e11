// NB: `LinkList.State()`'s default arguments are compiled here, and make a `Categories.State`.
import Categories
import Habits
import Interchange
import Ledger
import LinkList
import Loop

/// The whole app as one feature: the links (with their categories), the habit tracker, the
/// ledger, and importing and exporting them, each in its own part of one state, driven by the
/// `loop` REPL through one `Store`.
///
/// ```swift
/// let store = Store(initialState: AppFeature.State()) { AppFeature() }
/// await store.send(.habits(.addSubmitted(name: "Read"))).finish()
/// store.state.firstErrorMessage  // nil: it worked
/// ```
///
/// Every feature lists its error messages (its own and its children's) and clears them;
/// ``State/errorMessages`` joins the lists, so a caller learns from one place whether what it
/// sent failed, and ``Action/errorsDismissed`` clears them all before the next command.
///
/// The root only composes: what a text interface asks of the links (a ref lookup, a preview)
/// is ``LinkList/LinkLookup``'s, inside the links part. Nothing is loaded until asked: a
/// database with 100,000 links opens without reading one.
public struct AppFeature: Reducer {
  /// The app's state: one part per feature.
  public struct State: Equatable, Sendable {
    /// The links and their categories.
    public var links: LinkList.State

    /// The habit tracker.
    public var habits: Habits.State

    /// The ledger.
    public var ledger: Ledger.State

    /// Imports and exports.
    public var interchange: Interchange.State

    /// Creates the state; nothing is loaded by default.
    public init(
      links: LinkList.State = LinkList.State(), habits: Habits.State = Habits.State(),
      ledger: Ledger.State = Ledger.State(), interchange: Interchange.State = Interchange.State()
    ) {
      self.links = links
      self.habits = habits
      self.ledger = ledger
      self.interchange = interchange
    }

    /// Every error message shown: the links' ``LinkList/LinkList/State/errorMessages`` (the
    /// habits, the categories and the ledger show their failures as alerts; imports and exports
    /// answer theirs in their responses).
    public var errorMessages: [String] {
      links.errorMessages
    }

    /// The first of ``errorMessages``, or `nil` when nothing failed.
    public var firstErrorMessage: String? {
      links.errorMessages.first
    }
  }

  /// What happens in the app.
  public enum Action: Equatable, Sendable {
    /// The user saw the errors shown: every feature's error message is cleared.
    case errorsDismissed
    /// The habit tracker's actions.
    case habits(Habits.Action)
    /// The imports' and exports' actions.
    case interchange(Interchange.Action)
    /// The ledger's actions.
    case ledger(Ledger.Action)
    /// The links' actions.
    case links(LinkList.Action)
  }

  /// Creates the reducer.
  public init() {}

  /// The features, each on its part of the state; then the dismissal of their errors.
  public var body: some ReducerOf<Self> {
    Scope(state: \.links, action: .case(Action.links)) { LinkList() }
    Scope(state: \.habits, action: .case(Action.habits)) { Habits() }
    Scope(state: \.ledger, action: .case(Action.ledger)) { Ledger() }
    Scope(state: \.interchange, action: .case(Action.interchange)) { Interchange() }
    Reduce { state, action in
      switch action {
      case .errorsDismissed:
        // NB: the state clears the messages, not an action per feature: not every feature has
        // one, and a message must never survive into the next command.
        state.links.dismissErrors()
        return .none

      case .interchange(.delegate(.reload)):
        // NB: nothing is reloaded here: the REPL loads a noun's data when a command next needs
        // it, and forgets what it loaded when an import changes it (a full reload of 100,000
        // imported links would be wasted on a command that shows six).
        return .none

      case .habits, .interchange, .ledger, .links:
        return .none
      }
    }
  }
}
