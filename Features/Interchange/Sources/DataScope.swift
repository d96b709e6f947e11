/// What an import or an export covers: one domain, or everything.
public enum DataScope: String, Equatable, Sendable, CaseIterable, Codable, CustomStringConvertible {
  /// Links, with their categories and comments.
  case links
  /// Habits and their completions.
  case habits
  /// The ledger's transactions.
  case ledger
  /// The whole database: every domain.
  case everything

  /// The word for it in a sentence: `links`, `habits`, `ledger`, `everything`.
  public var description: String { rawValue }

  /// What it holds, as a noun for sentences: `links`, `habits`, `ledger transactions`, `data`.
  var noun: String {
    switch self {
    case .links: "links"
    case .habits: "habits"
    case .ledger: "ledger transactions"
    case .everything: "data"
    }
  }
}
