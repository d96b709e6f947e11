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
/// ```
///
/// Every feature shows a failure the one way: as an alert in what it presents (made by
/// `AlertState.failure(_:)`), and as the typed failure of the client's response that carried it
/// (`.habits(.addResponse(.failure(error)))`), which is where a caller learns that what it sent
/// failed. The root keeps no list of failures and clears none.
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
  }

  /// What happens in the app.
  public enum Action: Equatable, Sendable {
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

  /// The features, each on its part of the state.
  public var body: some ReducerOf<Self> {
    Scope(state: \.links, action: .case(Action.links)) { LinkList() }
    Scope(state: \.habits, action: .case(Action.habits)) { Habits() }
    Scope(state: \.ledger, action: .case(Action.ledger)) { Ledger() }
    Scope(state: \.interchange, action: .case(Action.interchange)) { Interchange() }
    Reduce { _, action in
      switch action {
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
