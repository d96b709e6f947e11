import Foundation

/// The shortest prefix that tells ids apart, taken over ids added in ascending order: one more
/// than the most leading hexadecimal digits two neighbours share, at least 1 and at most 32.
///
/// NB: in sorted order an id shares the most digits with a neighbour, so comparing neighbours
/// finds the longest prefix any two ids share.
package struct IDPrefix {
  private var previous: UInt128?
  private var shared = 0

  /// No ids yet.
  package init() {}

  /// The digits the ids added so far need.
  package var length: Int { min(shared + 1, 32) }

  /// Adds the next id in ascending order, as its ``key(of:)``.
  package mutating func add(_ key: UInt128) {
    if let previous { shared = max(shared, (previous ^ key).leadingZeroBitCount / 4) }
    previous = key
  }

  /// The digits `key` needs beside its neighbours in ascending order, the closest key below it
  /// and the closest above (`nil` when there is none): one more than it shares with the closer
  /// of them, at least 1 and at most 32.
  @inlinable
  package static func length(of key: UInt128, between below: UInt128?, and above: UInt128?) -> Int {
    let sharedBits = max(
      below.map { ($0 ^ key).leadingZeroBitCount } ?? 0,
      above.map { ($0 ^ key).leadingZeroBitCount } ?? 0)
    return min(sharedBits / 4 + 1, 32)
  }

  /// A UUID's 16 bytes as one number, so that its hexadecimal digits are the number's, from the
  /// most significant.
  @inlinable
  package static func key(of uuid: UUID) -> UInt128 {
    withUnsafeBytes(of: uuid.uuid) { UInt128(bigEndian: $0.loadUnaligned(as: UInt128.self)) }
  }

  /// The key of 16 bytes at `bytes`, as ``key(of:)`` makes it of the UUID they store.
  @inlinable
  package static func key(ofBytes bytes: UnsafeRawPointer) -> UInt128 {
    UInt128(bigEndian: bytes.loadUnaligned(as: UInt128.self))
  }

  /// The digits `key` needs beside its neighbours among `sorted` (ascending keys, which may hold
  /// `key` itself).
  package static func length(of key: UInt128, among sorted: [UInt128]) -> Int {
    // NB: the first key not below `key`, then the first above it.
    let index = sorted.partitioningIndex { $0 >= key }
    let above = index < sorted.count && sorted[index] == key ? index + 1 : index
    return length(
      of: key, between: index > 0 ? sorted[index - 1] : nil,
      and: above < sorted.count ? sorted[above] : nil)
  }

  /// The digits every one of `sorted` (ascending keys) needs beside the others.
  package static func length(ofAll sorted: [UInt128]) -> Int {
    var prefix = IDPrefix()
    for key in sorted { prefix.add(key) }
    return prefix.length
  }
}

extension Collection {
  /// The index of the first element for which `belongsToSecondPart` is true, where every
  /// element after it is too (a binary search).
  ///
  /// - Complexity: O(log *n*) calls of `belongsToSecondPart`.
  ///
  /// NB: inlinable, so that Persistence's in-memory backend, which searches its sorted rows with
  /// it on every lookup, gets it specialized for its collections, as it did when it was its own.
  @inlinable
  package func partitioningIndex(where belongsToSecondPart: (Element) -> Bool) -> Index {
    var low = startIndex
    var count = self.count
    while count > 0 {
      let half = count / 2
      let middle = index(low, offsetBy: half)
      if belongsToSecondPart(self[middle]) {
        count = half
      } else {
        low = index(after: middle)
        count -= half + 1
      }
    }
    return low
  }
}
