import Foundation
import Loop

/// The ref length (``Ref/length(for:)``) of a list that commands change one element at a time,
/// kept up to date instead of recomputed over every id on every command.
///
/// Each call compares the list's ids (as ``Ref/key(of:)``) with those of the previous call
/// (``ListChange``): when one id came or went, only its place among the sorted ids is looked
/// at; any other change rebuilds them. The answer is always ``Ref/length(for:)`` of the list's
/// ids.
///
/// An `IdentifiedArray` says itself when it is the previous call's list, or that list with one
/// id added or removed (its set of ids' stamp, `IDSetVersion`): then not even the ids are
/// compared.
struct RefLengthCache {
  /// The ids of the previous call's list as ``Ref/key(of:)``, in its order, in halves; `nil`
  /// when a call with an `IdentifiedArray` left them behind (the next call without one
  /// rebuilds them).
  ///
  /// NB: keys, not UUIDs: comparing two of them is two machine words, where `UUID`'s `==` cost
  /// more than the rest of a scripted `habit add`'s ref. In halves: `UInt128`'s `==` and byte
  /// swap are calls into the standard library, made for every id of the list.
  private var keys: [KeyHalves]? = []
  /// The stamp of the set of ids of the previous call's `IdentifiedArray`; `0` when the
  /// previous call had none.
  private var stamp: UInt64 = 0
  /// ``keys``, ascending.
  private var sorted = SortedKeys()
  /// ``Ref/length(forSorted:)`` of ``sorted``.
  private var length = Ref.minimumLength

  /// How many digits tell the ids of a list apart (at least ``Ref/minimumLength``).
  ///
  /// - Parameter newKeys: The list's ids as they are now, as ``Ref/key(of:)``, in order.
  /// - Returns: The ref length.
  /// - Complexity: O(*n*) comparisons of ids when one id was inserted or removed since the last
  ///   call; O(*n* log *n*) otherwise.
  mutating func length(ofKeys newKeys: [UInt128]) -> Int {
    stamp = 0
    return length(of: newKeys, key: { KeyHalves($0) })
  }

  /// How many digits tell the ids of a list apart (at least ``Ref/minimumLength``), its
  /// elements' ids read by `id`.
  ///
  /// - Parameters:
  ///   - elements: The list as it is now.
  ///   - id: An element's id.
  /// - Returns: The ref length.
  /// - Complexity: as ``length(ofKeys:)``.
  mutating func length<Element>(of elements: [Element], id: (Element) -> UUID) -> Int {
    stamp = 0
    return length(of: elements, key: { KeyHalves(of: id($0)) })
  }

  /// How many digits tell the ids of an identified list apart (at least
  /// ``Ref/minimumLength``), its elements' ids read by `id`.
  ///
  /// - Parameters:
  ///   - list: The list as it is now.
  ///   - id: An element's id.
  ///   - rawID: The list's id of an element, as a UUID.
  ///
  /// NB: `id` is `rawID` of the element's id, given apart so that a caller reads it through
  /// stored properties: `HabitHistory.id` copies the habit it reads.
  /// - Returns: The ref length.
  /// - Complexity: O(1) when the list's ids are those of the previous call; O(log *n*) when
  ///   one id was added since (see ``SortedKeys/insert(_:)``), O(*n*) comparisons when one was
  ///   removed; else as ``length(ofKeys:)``.
  mutating func length<ID, Element>(
    of list: IdentifiedArray<ID, Element>, id: (Element) -> UUID, rawID: (ID) -> UUID
  ) -> Int {
    let version = list.idSet
    defer { stamp = version.stamp }
    if stamp != 0, version.stamp == stamp { return length }
    if stamp != 0, version.parent == stamp, let change = version.change {
      // NB: the ids' order does not change their length: the ordered keys wait until a call
      // without a stamp needs them.
      keys = nil
      switch change {
      case .inserted(let inserted): insert(KeyHalves(of: rawID(inserted)).key)
      case .removed(let removed): remove(KeyHalves(of: rawID(removed)).key)
      }
      return length
    }
    return length(of: list.elements, key: { KeyHalves(of: id($0)) })
  }

  /// How many digits tell the ids of a list apart (at least ``Ref/minimumLength``), its
  /// elements' ids read as ``Ref/key(of:)`` by `key`.
  ///
  /// NB: the keys are read as they are compared with the previous call's, and only the one
  /// inserted is stored: no array of every key is made on each call.
  ///
  /// - Parameters:
  ///   - elements: The list as it is now.
  ///   - key: An element's id as ``Ref/key(of:)``, in halves.
  /// - Returns: The ref length.
  /// - Complexity: as ``length(ofKeys:)``.
  private mutating func length<Element>(
    of elements: [Element], key: (Element) -> KeyHalves
  ) -> Int {
    guard var keys else {
      rebuild(from: elements, key: key)
      return length
    }
    switch ListChange(from: keys, to: elements, id: key) {
    case .unchanged:
      break
    case .inserted(let index):
      let halves = key(elements[index])
      // NB: out of the property while it changes, so that it is not copied.
      self.keys = nil
      keys.insert(halves, at: index)
      self.keys = keys
      insert(halves.key)
    case .removed(let index):
      self.keys = nil
      let removed = keys.remove(at: index)
      self.keys = keys
      remove(removed.key)
    case .other:
      rebuild(from: elements, key: key)
    }
    return length
  }

  /// Makes every key afresh from `elements`.
  private mutating func rebuild<Element>(
    from elements: [Element], key: (Element) -> KeyHalves
  ) {
    let keys = elements.map(key)
    self.keys = keys
    let ascending = keys.map(\.key).sorted()
    sorted = SortedKeys(sorted: ascending)
    length = Ref.length(forSorted: ascending)
  }

  /// Adds `key` to ``sorted`` and the length.
  private mutating func insert(_ key: UInt128) {
    let (below, above) = sorted.insert(key)
    // NB: an id's only neighbours in sorted order are the ones it can share most digits
    // with, and splitting a pair never shortens what the pair needed.
    if let below { length = max(length, Ref.commonDigits(below, key) + 1) }
    if let above { length = max(length, Ref.commonDigits(key, above) + 1) }
    length = min(length, 32)
  }

  /// Takes `key`, which ``sorted`` holds, out of it and the length.
  private mutating func remove(_ key: UInt128) {
    sorted.remove(key)
    length = Ref.length(forSorted: sorted.keys)
  }
}

/// An id as ``Ref/key(of:)``, in two halves compared as machine words.
///
/// NB: the halves are the id's bytes as they lie in memory, read without a byte swap: the list
/// of a command is compared id by id on every command, and swapping each id's bytes into its
/// key cost as much as the comparison. Only ``key`` swaps them.
struct KeyHalves: Equatable {
  /// The id's first eight bytes, as they lie in memory.
  let first: UInt64
  /// The id's last eight bytes, as they lie in memory.
  let second: UInt64

  /// The halves of `key`.
  init(_ key: UInt128) {
    first = UInt64(truncatingIfNeeded: key >> 64).bigEndian
    second = UInt64(truncatingIfNeeded: key).bigEndian
  }

  /// The halves of `id`'s key.
  init(of id: UUID) {
    (first, second) = withUnsafeBytes(of: id.uuid) {
      ($0.loadUnaligned(as: UInt64.self), $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
    }
  }

  /// The key's first eight bytes, as a number.
  var high: UInt64 { UInt64(bigEndian: first) }

  /// The key: ``Ref/key(of:)`` of the id.
  var key: UInt128 { UInt128(high) << 64 | UInt128(UInt64(bigEndian: second)) }
}
