import AppFeature
import Interchange

extension Session {
  /// Loads a noun's data the first time a command needs it.
  func load(_ noun: Noun) async throws(CommandError) {
    guard !loaded.contains(noun) else { return }
    try await send(noun.appearAction)
    loaded.insert(noun)
  }

  /// Loads a noun's data again, as its list appears.
  func reload(_ noun: Noun) async throws(CommandError) {
    try await send(noun.appearAction)
    loaded.insert(noun)
  }

  /// Forgets what an import changed, so that the next command needing it loads it again.
  func forgetLoaded(_ scope: DataScope) {
    loaded = loaded.filter { !$0.isChanged(byImportOf: scope) }
  }
}
