import Foundation
import Synchronization

/// Notes which shared roots change, and what they held before, for a test store, a recorder or
/// a replayer.
///
/// A test store puts one in its dependencies (a recording store too,
/// ``StoreCore/trackingSharedChanges()``), so every `withLock` its reducer and its effects
/// run reaches it; a `withLock` in the test itself does not (that is the test setting things up).
/// For each root changed, it keeps the value last asserted (at first, the value before the first
/// change), and whether the root changed since the store last took a snapshot.
package final class SharedChangeTracker: @unchecked Sendable {
  private struct Entry {
    let root: any SharedRoot
    var asserted: Any
    var isChangedSinceSnapshot: Bool
  }

  private let lock = NSLock()
  private var entries: [ObjectIdentifier: Entry] = [:]
  /// The order roots were first changed in, for messages.
  private var order: [ObjectIdentifier] = []

  /// How many trackers exist: while none does, a `withLock` skips looking for one.
  static let count = Atomic<Int>(0)

  /// Creates a tracker with nothing changed.
  package init() {
    Self.count.add(1, ordering: .relaxed)
  }

  deinit {
    Self.count.subtract(1, ordering: .relaxed)
  }

  /// The tracker of the current dependencies, if any.
  static var current: SharedChangeTracker? {
    guard count.load(ordering: .relaxed) > 0 else { return nil }
    return DependencyValues.current[SharedChangeTrackerKey.self]
  }

  /// Notes that `root` is about to change.
  func willChange(_ root: any SharedRoot) {
    let id = ObjectIdentifier(root)
    let isNew = lock.withLock {
      entries[id]?.isChangedSinceSnapshot = true
      return entries[id] == nil
    }
    guard isNew else { return }
    // NB: a root's value is read outside the tracker's lock, here and below: a `withLock`
    // nested in another holds the outer root's lock when it reaches the tracker, so the tracker
    // must never wait for a root's lock while holding its own.
    let value = root.anyValue
    lock.withLock {
      guard entries[id] == nil else { return }
      entries[id] = Entry(root: root, asserted: value, isChangedSinceSnapshot: true)
      order.append(id)
    }
  }

  /// The roots changed so far, in the order they first changed, with what the tracker knows.
  private var current: [(id: ObjectIdentifier, entry: Entry)] {
    lock.withLock { order.compactMap { id in entries[id].map { (id, $0) } } }
  }

  /// The live values of the roots changed so far; they count as seen by the snapshot.
  package func snapshot() -> SharedValues {
    let values = SharedValues()
    let tracked = current
    lock.withLock {
      for (id, _) in tracked { entries[id]?.isChangedSinceSnapshot = false }
    }
    for (_, entry) in tracked { values[entry.root] = entry.root.anyValue }
    return values
  }

  /// The values last asserted of the roots changed so far, or of those `snapshot` has a value
  /// for.
  ///
  /// NB: a root changed after `snapshot` was taken reads live on both sides of an assertion
  /// against it, so the change is not put down to the action the snapshot was taken after.
  package func asserted(for snapshot: SharedValues? = nil) -> SharedValues {
    let values = SharedValues()
    for (_, entry) in current where snapshot.map({ $0[entry.root] != nil }) ?? true {
      values[entry.root] = entry.asserted
    }
    return values
  }

  /// Records `values` as asserted.
  package func assert(_ values: SharedValues) {
    lock.withLock {
      for root in values.roots {
        guard let value = values[root] else { continue }
        entries[ObjectIdentifier(root)]?.asserted = value
      }
    }
  }

  /// Takes the live value as asserted for each root that no reducer or effect changed since the
  /// last snapshot: the test itself changed it, which needs no assertion.
  package func acceptChangesOutsideTheStore() {
    let live = current.filter { !$0.entry.isChangedSinceSnapshot }
      .map { ($0.id, $0.entry.root.anyValue) }
    lock.withLock {
      for (id, value) in live where entries[id]?.isChangedSinceSnapshot == false {
        entries[id]?.asserted = value
      }
    }
  }

  /// The roots an effect changed after the last snapshot, as (asserted, live) values; `nil`
  /// when there are none, or their values look the same.
  package func changesSinceSnapshot() -> (asserted: SharedValues, live: SharedValues)? {
    let asserted = SharedValues()
    let live = SharedValues()
    var changed = false
    for (_, entry) in current where entry.isChangedSinceSnapshot {
      let value = entry.root.anyValue
      asserted[entry.root] = entry.asserted
      live[entry.root] = value
      let isSame =
        Diff.areEqual(entry.asserted, value) ?? (Diff.dump(entry.asserted) == Diff.dump(value))
      if !isSame { changed = true }
    }
    return changed ? (asserted, live) : nil
  }

  /// Takes the roots changed since the last snapshot as asserted at their live values: the test
  /// store reported them.
  package func forgetChangesSinceSnapshot() {
    let live = current.filter(\.entry.isChangedSinceSnapshot)
      .map { ($0.id, $0.entry.root.anyValue) }
    lock.withLock {
      for (id, value) in live {
        entries[id]?.asserted = value
        entries[id]?.isChangedSinceSnapshot = false
      }
    }
  }
}

extension SharedChangeTracker {
  /// The change an action made to `state`, its shared values included.
  ///
  /// Each side reads the shared values as they were: before, as of the last step (what
  /// ``assert(_:)`` last took); after, live. From then on the live values count as the last
  /// step's.
  ///
  /// NB: the state before and after an action hold the same shared references, so a diff of the
  /// two alone reads one live value on both sides and shows no change.
  ///
  /// - Returns: The change (`nil` for none), and the shared values before and after it.
  package func step<State>(from previous: State, to state: State) -> (
    change: String?, before: SharedValues, after: SharedValues
  ) {
    let before = asserted()
    let after = snapshot()
    let change = SharedAssertion.run(before, against: after) { Diff.lines(previous, state) }
    assert(after)
    return (change, before, after)
  }
}

extension StoreCore {
  /// Installs a tracker of shared changes in the core's dependencies, so that every `withLock`
  /// its reducer and the effects it starts from now on run is noted; returns it.
  ///
  /// A recorder and a replayer use it to see the change an action made to shared state. While no
  /// tracker exists, a `withLock` looks for none: a store that does not record pays nothing.
  package func trackingSharedChanges() -> SharedChangeTracker {
    var values = dependencies.values
    let tracker = SharedChangeTracker()
    values[SharedChangeTrackerKey.self] = tracker
    dependencies = DependencyScope(values)
    return tracker
  }

  /// Removes the tracker ``trackingSharedChanges()`` installed.
  package func stopTrackingSharedChanges() {
    guard dependencies.values[SharedChangeTrackerKey.self] != nil else { return }
    var values = dependencies.values
    values[SharedChangeTrackerKey.self] = nil
    dependencies = DependencyScope(values)
  }
}

/// The tracker a test store, or a recording or replayed store, installs; `nil` everywhere else.
package enum SharedChangeTrackerKey: DependencyKey {
  package static var liveValue: SharedChangeTracker? { nil }
  package static var testValue: SharedChangeTracker? { nil }
}
