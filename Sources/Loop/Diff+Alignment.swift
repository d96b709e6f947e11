extension Diff {
  /// A run of two aligned sequences: a matched pair, or the unmatched elements between pairs.
  enum Segment: Equatable {
    case match(Int, Int)
    case gap(Range<Int>, Range<Int>)
  }

  /// Matches equal elements of two sequences: their common prefix and suffix, then a longest
  /// common subsequence of the rest when it is small enough.
  ///
  /// - Parameters:
  ///   - oldCount: The length of the old sequence.
  ///   - newCount: The length of the new sequence.
  ///   - isSame: Whether the old element at an offset equals the new one at another.
  ///   - keys: Numbers for the elements of an old and a new range, equal for equal elements;
  ///     asked for only when the middle is aligned by LCS.
  /// - Returns: The matched offsets in increasing order, and whether the middle was aligned
  ///   exactly (`false` when it was too big and is left to pair by position).
  /// - Complexity: O(*n* + *m*), plus O(*n* × *m*) when that is under ``alignmentLimit``.
  static func align(
    oldCount: Int, newCount: Int, isSame: (Int, Int) -> Bool,
    keys: (Range<Int>, Range<Int>) -> ([Int], [Int])
  ) -> (pairs: [(Int, Int)], exact: Bool) {
    var prefix = 0
    while prefix < min(oldCount, newCount), isSame(prefix, prefix) { prefix += 1 }
    var suffix = 0
    while suffix < min(oldCount, newCount) - prefix,
      isSame(oldCount - 1 - suffix, newCount - 1 - suffix)
    {
      suffix += 1
    }
    let oldMiddle = prefix..<(oldCount - suffix)
    let newMiddle = prefix..<(newCount - suffix)
    var pairs = (0..<prefix).map { ($0, $0) }
    let exact =
      oldMiddle.isEmpty || newMiddle.isEmpty
      || oldMiddle.count * newMiddle.count <= alignmentLimit
    if exact, !oldMiddle.isEmpty, !newMiddle.isEmpty {
      let (oldKeys, newKeys) = keys(oldMiddle, newMiddle)
      pairs += longestCommonSubsequence(oldKeys, newKeys).map {
        ($0.0 + prefix, $0.1 + prefix)
      }
    }
    pairs += (0..<suffix).map { (oldCount - suffix + $0, newCount - suffix + $0) }
    return (pairs, exact)
  }

  /// Splits two sequences into their matched pairs and the gaps between them.
  ///
  /// - Parameters:
  ///   - pairs: Matched offsets, increasing in both sequences.
  ///   - oldCount: The length of the old sequence.
  ///   - newCount: The length of the new sequence.
  /// - Returns: The pairs and gaps in order; a gap holds at least one unmatched element.
  static func segments(_ pairs: [(Int, Int)], oldCount: Int, newCount: Int) -> [Segment] {
    var segments: [Segment] = []
    var oldStart = 0
    var newStart = 0
    for (oldOffset, newOffset) in pairs + [(oldCount, newCount)] {
      if oldStart < oldOffset || newStart < newOffset {
        segments.append(.gap(oldStart..<oldOffset, newStart..<newOffset))
      }
      if oldOffset < oldCount { segments.append(.match(oldOffset, newOffset)) }
      oldStart = oldOffset + 1
      newStart = newOffset + 1
    }
    return segments
  }

  /// The offsets of a longest common subsequence of two short sequences.
  ///
  /// - Complexity: O(*n* × *m*) time and memory; callers keep *n* × *m* under
  ///   ``alignmentLimit``.
  static func longestCommonSubsequence(_ old: [Int], _ new: [Int]) -> [(Int, Int)] {
    let width = new.count + 1
    // lengths[i * width + j] is the LCS length of old[i...] and new[j...].
    var lengths = [Int](repeating: 0, count: (old.count + 1) * width)
    for oldOffset in old.indices.reversed() {
      for newOffset in new.indices.reversed() {
        let here = oldOffset * width + newOffset
        lengths[here] =
          old[oldOffset] == new[newOffset]
          ? lengths[here + width + 1] + 1
          : max(lengths[here + width], lengths[here + 1])
      }
    }
    var pairs: [(Int, Int)] = []
    var oldOffset = 0
    var newOffset = 0
    while oldOffset < old.count, newOffset < new.count {
      let here = oldOffset * width + newOffset
      if old[oldOffset] == new[newOffset] {
        pairs.append((oldOffset, newOffset))
        oldOffset += 1
        newOffset += 1
      } else if lengths[here + width] >= lengths[here + 1] {
        oldOffset += 1
      } else {
        newOffset += 1
      }
    }
    return pairs
  }

  /// The offsets of a longest strictly increasing subsequence of `values`.
  ///
  /// - Complexity: O(*n*) when `values` is already increasing, else O(*n* log *n*).
  static func longestIncreasingSubsequence(_ values: [Int]) -> [Int] {
    if values.indices.dropFirst().allSatisfy({ values[$0 - 1] < values[$0] }) {
      return Array(values.indices)
    }
    // tails[k] is the offset of the smallest last value of an increasing run of length k + 1.
    var tails: [Int] = []
    var previous = Array(repeating: -1, count: values.count)
    for (offset, value) in values.enumerated() {
      var low = 0
      var high = tails.count
      while low < high {
        let middle = (low + high) / 2
        if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
      }
      if low > 0 { previous[offset] = tails[low - 1] }
      if low == tails.count { tails.append(offset) } else { tails[low] = offset }
    }
    var result: [Int] = []
    var current = tails.last ?? -1
    while current >= 0 {
      result.append(current)
      current = previous[current]
    }
    return result.reversed()
  }
}
