import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

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

/// The last stamp of the last block of stamps a thread took.
private let lastIDSetStamp = Atomic<UInt64>(0)

/// How many stamps a thread takes at once.
///
/// NB: a locked add for each stamp cost a listing of 200,000 links 2% of its time (each link
/// appended takes a stamp), as it waits for the thread's stores to drain. A thread takes a block
/// with one, then counts within it with no atomic at all.
private let idSetStampsPerBlock: UInt64 = 4_096

/// This thread's block of stamps: the last given, then the block's last.
private let threadIDSetStamps: pthread_key_t = {
  var key = pthread_key_t()
  let status = pthread_key_create(&key) { free($0) }
  precondition(status == 0, "IDSetVersion: no thread-specific key for stamps (error \(status))")
  return key
}()

/// A stamp no ``IDSetVersion`` had before.
@usableFromInline
func nextIDSetStamp() -> UInt64 {
  let block: UnsafeMutablePointer<UInt64>
  if let existing = pthread_getspecific(threadIDSetStamps) {
    block = existing.assumingMemoryBound(to: UInt64.self)
  } else {
    // NB: malloc'd, as the key's destructor frees it when the thread ends.
    guard let fresh = malloc(2 * MemoryLayout<UInt64>.stride) else {
      fatalError("IDSetVersion: out of memory for a thread's stamps")
    }
    block = fresh.initializeMemory(as: UInt64.self, repeating: 0, count: 2)
    pthread_setspecific(threadIDSetStamps, fresh)
  }
  if block[0] == block[1] {
    let last = lastIDSetStamp.wrappingAdd(idSetStampsPerBlock, ordering: .relaxed).newValue
    block[0] = last &- idSetStampsPerBlock
    block[1] = last
  }
  block[0] &+= 1
  return block[0]
}
