import AppFeature
import Interchange

extension Session {
  /// Loads a noun's data the first time a command needs it.
  func load(_ noun: Noun) async throws(CommandError) {
    guard !loaded.contains(noun) else { return }
    try await send(appearAction(of: noun))
    loaded.insert(noun)
  }

  /// Loads a noun's data again, as its list appears.
  func reload(_ noun: Noun) async throws(CommandError) {
    try await send(appearAction(of: noun))
    loaded.insert(noun)
  }

  /// Forgets what an import changed, so that the next command needing it loads it again.
  func forgetLoaded(_ scope: DataScope) {
    switch scope {
    case .links: loaded.subtract([.link, .category])
    case .habits: loaded.remove(.habit)
    case .ledger: loaded.remove(.ledger)
    case .everything: loaded.removeAll()
    }
  }

  private func appearAction(of noun: Noun) -> AppFeature.Action {
    switch noun {
    case .link: .links(.screenSelected(.recent))
    case .category: .links(.categories(.onAppear))
    case .habit: .habits(.onAppear)
    case .ledger: .ledger(.onAppear)
    }
  }
}
