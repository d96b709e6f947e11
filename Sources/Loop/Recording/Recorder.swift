import Foundation
import Synchronization

/// Records what a store processes, and the values its dependencies hand out, as a
/// ``Recording``.
///
/// ```swift
/// let recorder = Recorder()
/// let store = Store(initialState: Counter.State()) { Counter() } withDependencies: {
///   $0.date = recorder.recording($0.date)
///   $0.uuid = recorder.recording($0.uuid)
/// }
/// store.record(into: recorder)
/// store.send(.incrementSubmitted)
/// let recording = Recording(entries: recorder.takeEntries())
/// ```
///
/// Entries collect until ``takeEntries()`` takes them, so an app can write them out as it goes
/// (after each command, say) and keep nothing in memory. A store that is not recording pays one
/// `nil` check per action, and a `withLock` on shared state looks for a tracker only while one
/// is recording.
public final class Recorder: Sendable {
  private let entries = Mutex<[Recording.Entry]>([])

  /// Creates a recorder with nothing recorded.
  public init() {}

  /// Takes the entries recorded since the last call, in order.
  ///
  /// - Returns: The entries.
  public func takeEntries() -> [Recording.Entry] {
    entries.withLock { entries in
      defer { entries.removeAll() }
      return entries
    }
  }

  /// Records an entry.
  ///
  /// Use it for what a replay needs besides the store's steps: the inputs that drove the app
  /// (``Recording/Entry/input(_:)``), and the values it chooses to record
  /// (``Recording/Entry/value(name:_:)``), such as the contents of a file it read.
  ///
  /// - Parameter entry: The entry.
  public func record(_ entry: Recording.Entry) {
    entries.withLock { $0.append(entry) }
  }

  /// A date generator that records each date `generator` hands out, as a `date` value.
  ///
  /// - Parameter generator: The generator to record.
  /// - Returns: The recording generator.
  public func recording(_ generator: DateGenerator) -> DateGenerator {
    DateGenerator { [self] in
      let date = generator.now
      record(.value(name: "date", RecordedValues.text(of: date)))
      return date
    }
  }

  /// A UUID generator that records each UUID `generator` hands out, as a `uuid` value.
  ///
  /// - Parameter generator: The generator to record.
  /// - Returns: The recording generator.
  public func recording(_ generator: UUIDGenerator) -> UUIDGenerator {
    UUIDGenerator { [self] in
      let uuid = generator()
      record(.value(name: "uuid", uuid.uuidString))
      return uuid
    }
  }
}

extension Store {
  /// Records every action this store processes from now on into `recorder`, with the change it
  /// made to the state (its shared values included); `nil` stops recording.
  ///
  /// The current state is recorded first, in full. Only a store made with
  /// `init(initialState:reducer:withDependencies:)` records, not a scoped one: a recording
  /// follows the one root store every action goes through.
  ///
  /// - Parameter recorder: Where the steps go, or `nil` to stop.
  public func record(into recorder: Recorder?) {
    guard let rootCore else {
      preconditionFailure("Record the root store, not one made by 'scope(state:action:)'.")
    }
    rootCore.stopTrackingSharedChanges()
    guard let recorder else {
      rootCore.didProcess = nil
      return
    }
    var previous = rootCore.state
    recorder.record(.initialState(Diff.dump(previous)))
    // NB: a change to shared state is recorded with the action whose reducer made it; one an
    // effect made, with the next action processed.
    let sharedChanges = rootCore.trackingSharedChanges()
    rootCore.didProcess = { processed, state in
      recorder.record(
        .step(
          action: Diff.dump(processed.action), isReceived: processed.isReceived,
          change: sharedChanges.step(from: previous, to: state).change))
      previous = state
    }
  }
}
