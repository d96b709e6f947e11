import HabitClient
import LedgerClient
import LinkClient

/// Recognizes the messages of storage failures, whichever feature shows them, so that the REPL
/// can name the database file they concern.
///
/// Each client words its storage failure as a fixed sentence followed by the reason; the prefixes
/// come from the clients' own errors, so they stay right when a client rewords them.
enum StorageFailure {
  /// The fixed beginnings of the clients' storage failure messages.
  static let prefixes: [String] = [
    LinkError.storageFailed("").description,
    HabitError.storageFailed("").description,
    LedgerError.storageFailed("").description,
  ]

  /// Whether `message` reports a storage failure.
  static func isStorageFailure(_ message: String) -> Bool {
    prefixes.contains { message.hasPrefix($0) }
  }
}
