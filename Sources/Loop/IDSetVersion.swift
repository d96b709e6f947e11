import Synchronization

/// A process-unique mark of an `IdentifiedArray`'s set of ids, and how that set came from the
/// one before it.
///
/// Every change that may add or remove an id gives the array a fresh ``stamp``; copies share
/// theirs until they change. So two arrays with one stamp hold the same ids, whatever their
/// order, and code that keeps something computed from a list's ids (the REPL's ref lengths)
/// knows in O(1) that the list is the one it saw, or that one plus or minus a single id.
@usableFromInline
package struct IDSetVersion<ID> {
  /// How the set of ids came from the one stamped ``parent``.
  @usableFromInline
  package enum Change {
    /// The id was added.
    case inserted(ID)
    /// The id was removed.
    case removed(ID)
  }

  /// Fresh for every change that may add or remove an id; never `0`.
  @usableFromInline package let stamp: UInt64
  /// The stamp of the set this one came from by ``change``; `0` when not known.
  @usableFromInline package let parent: UInt64
  /// The one id added or removed since ``parent``, when that is all that changed.
  @usableFromInline package let change: Change?

  /// A fresh stamp, with nothing known of the set before it.
  @inlinable
  init() {
    self.init(stamp: nextIDSetStamp(), parent: 0, change: nil)
  }

  @usableFromInline
  init(stamp: UInt64, parent: UInt64, change: Change?) {
    self.stamp = stamp
    self.parent = parent
    self.change = change
  }

  /// The version after `change`, made to this one's set.
  @inlinable
  func changed(by change: Change) -> Self {
    Self(stamp: nextIDSetStamp(), parent: stamp, change: change)
  }
}

extension IDSetVersion: Sendable where ID: Sendable {}
extension IDSetVersion.Change: Sendable where ID: Sendable {}

/// The last stamp given to an ``IDSetVersion``.
private let lastIDSetStamp = Atomic<UInt64>(0)

/// A stamp no ``IDSetVersion`` had before.
@usableFromInline
func nextIDSetStamp() -> UInt64 {
  lastIDSetStamp.wrappingAdd(1, ordering: .relaxed).newValue
}
