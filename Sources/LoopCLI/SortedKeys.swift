/// Ids as ``Ref/key(of:)``, ascending, that take one key at a time and say between which two
/// it went.
///
/// The keys are kept in runs of at most ``runCapacity``, each ascending and all in order: an
/// insertion moves the keys after it in its run, not every key after it in the list. (With one
/// array, each id a 10,000-command script added moved up to 27 KB of keys, and evicted what
/// the next command's storage call had in the cache.)
struct SortedKeys {
  /// The most keys a run holds; a fuller one is split in halves.
  static let runCapacity = 512

  /// The runs: none empty, each ascending, each run's keys below the next run's.
  private var runs: [[UInt128]] = []

  /// No keys.
  init() {}

  /// The keys of `sorted`, which is ascending.
  init(sorted: [UInt128]) {
    let half = Self.runCapacity / 2
    runs = stride(from: 0, to: sorted.count, by: half).map {
      Array(sorted[$0..<min($0 + half, sorted.count)])
    }
  }

  /// Every key, ascending.
  var keys: FlattenSequence<[[UInt128]]> { runs.joined() }

  /// How many runs the keys are in.
  var runCount: Int { runs.count }

  /// Inserts `key`.
  ///
  /// - Returns: The keys now just below and just above it, if any.
  /// - Complexity: O(log *n*) comparisons; moves of at most ``runCapacity`` keys, and of
  ///   *n* / ``runCapacity`` runs when its run is split.
  mutating func insert(_ key: UInt128) -> (below: UInt128?, above: UInt128?) {
    guard !runs.isEmpty else {
      runs = [[key]]
      return (nil, nil)
    }
    // NB: the first run that ends at or above the key takes it; past every run, the last.
    let run = min(
      Self.firstIndex(in: runs.count) { runs[$0].last.map { $0 >= key } ?? true }, runs.count - 1)
    let index = Self.firstIndex(in: runs[run].count) { runs[run][$0] >= key }
    let below = index > 0 ? runs[run][index - 1] : run > 0 ? runs[run - 1].last : nil
    let above =
      index < runs[run].count
      ? runs[run][index] : run + 1 < runs.count ? runs[run + 1].first : nil
    runs[run].insert(key, at: index)
    if runs[run].count > Self.runCapacity {
      let upper = Array(runs[run][(Self.runCapacity / 2)...])
      runs[run].removeSubrange((Self.runCapacity / 2)...)
      runs.insert(upper, at: run + 1)
    }
    return (below, above)
  }

  /// Removes `key`, which the keys hold.
  ///
  /// - Complexity: as ``insert(_:)``.
  mutating func remove(_ key: UInt128) {
    let run = Self.firstIndex(in: runs.count) { runs[$0].last.map { $0 >= key } ?? true }
    precondition(run < runs.count, "removing a key that was never inserted")
    let index = Self.firstIndex(in: runs[run].count) { runs[run][$0] >= key }
    precondition(runs[run][index] == key, "removing a key that was never inserted")
    runs[run].remove(at: index)
    if runs[run].isEmpty { runs.remove(at: run) }
  }

  /// The first index below `count` for which `isAtOrAbove` holds, or `count`, for a
  /// predicate that once true stays true.
  private static func firstIndex(in count: Int, where isAtOrAbove: (Int) -> Bool) -> Int {
    var low = 0
    var high = count
    while low < high {
      let middle = (low + high) / 2
      if isAtOrAbove(middle) { high = middle } else { low = middle + 1 }
    }
    return low
  }
}
