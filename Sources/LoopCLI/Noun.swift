import AppFeature
import Categories
import Habits
import Interchange
import Ledger
import LinkList

/// The nouns the REPL's commands act on, and everything the REPL knows of each: what it is
/// about, its commands, how its data loads, and which import changes it.
///
/// This is the one place in the REPL a new noun is declared: a case, and its answer in each
/// property below (the switches are exhaustive, so the compiler asks for every one). The
/// command table, `help`, tab completion, loading a noun's data and forgetting it after an
/// import all read these properties. `NounWiringTests` checks that each declared noun is also
/// wired into the app: its feature in `AppFeature` (scoped, its failures reaching the REPL) and
/// its client and models in ``AppEnvironment``.
enum Noun: String, Sendable, CaseIterable {
  case link, category, habit, ledger

  /// What the noun is about, for `help`.
  var summary: String {
    switch self {
    case .link: "web pages to keep, with comments, favorites and categories"
    case .category: "the categories links are filed in"
    case .habit: "habits to do every day, their streaks and a heat map"
    case .ledger: "income and expenses, this month's balance and a yearly report"
    }
  }

  /// The noun's commands, in the order `help` lists them; each names this noun.
  var commands: [Command] {
    switch self {
    case .link: LinkCommands.all
    case .category: CategoryCommands.all
    case .habit: HabitCommands.all
    case .ledger: LedgerCommands.all
    }
  }

  /// The action that loads the noun's data, as its list appears.
  var appearAction: AppFeature.Action {
    switch self {
    case .link: .links(.screenSelected(.recent))
    case .category: .links(.categories(.onAppear))
    case .habit: .habits(.onAppear)
    case .ledger: .ledger(.onAppear)
    }
  }

  /// The data whose import changes the noun's (an import of everything changes every noun's),
  /// or `nil` when no import writes it: after such an import, the noun's data loads again when
  /// a command next needs it.
  var importScope: DataScope? {
    switch self {
    case .link, .category: .links
    case .habit: .habits
    case .ledger: .ledger
    }
  }

  /// Whether an import of `scope` changes the noun's data.
  ///
  /// - Parameter scope: What the import covered.
  /// - Returns: `true` for an import of everything or of the noun's ``importScope``.
  func isChanged(byImportOf scope: DataScope) -> Bool {
    scope == .everything || importScope == scope
  }
}
