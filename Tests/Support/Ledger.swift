import LedgerClient
import LedgerClientLive
import Persistence

extension LedgerClient {
  /// A client on a fresh, empty in-memory storage: real storage, gone with the client.
  ///
  /// NB: here, so that a feature's tests run it without importing `LedgerClientLive`, which only
  /// the app's composition, the benchmarks and the tests' support import.
  ///
  /// - Returns: The client.
  public static func inMemory() -> LedgerClient {
    live(opening: .inMemory)
  }
}
