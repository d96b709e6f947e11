import Foundation

/// How long a connection waits for a lock another connection holds: as long as that one keeps
/// writing, and up to ``patience`` when it does not.
///
/// NB: SQLite's own busy timeout gives up after a fixed time, but a writer holds the lock for as
/// long as its transaction lasts: an import of 100,000 links, one transaction, takes seconds, and
/// a minute on a loaded machine. Giving up then reached the user as "database is locked". The
/// writer's progress shows in the files: its transaction spills pages into the write-ahead log
/// (which grows), a checkpoint writes the database file. A holder that stops making progress
/// (a stopped process) is given up on after ``patience``, as the fixed timeout did.
final class BusyWait {
  /// How long to wait without seeing the lock holder write.
  static let patience: Duration = .seconds(10)

  /// Whether to wait at all: `false` gives up on every lock at once.
  var isWaiting = true
  private let files: [String]
  private var lastProgress = ContinuousClock.now
  private var lastSeen: [FileState] = []

  /// A file's size and modification time: what changes when it is written.
  private struct FileState: Equatable {
    var size: Int?
    var modified: Date?
  }

  init(path: String) {
    files = [path, path + "-wal"]
  }

  /// Whether to try again, after sleeping a little; `attempts` is 0 for the first call of a
  /// wait.
  func shouldRetry(after attempts: Int32) -> Bool {
    guard isWaiting else { return false }
    let now = ContinuousClock.now
    let seen = files.map(Self.state)
    if attempts == 0 || seen != lastSeen {
      lastSeen = seen
      lastProgress = now
    } else if now - lastProgress > Self.patience {
      return false
    }
    // 1, 2, 4, … 32, then 50 milliseconds between tries, as SQLite's own timeout backs off.
    usleep(attempts < 6 ? UInt32(1_000 << attempts) : 50_000)
    return true
  }

  private static func state(of path: String) -> FileState {
    let attributes = try? FileManager.default.attributesOfItem(atPath: path)
    return FileState(
      size: attributes?[.size] as? Int, modified: attributes?[.modificationDate] as? Date)
  }
}
