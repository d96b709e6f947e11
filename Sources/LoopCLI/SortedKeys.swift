/// Ids as ``Ref/key(of:)``, ascending, that take one key at a time and say between which two
/// it went.
///
/// The keys are kept in runs of at most ``runCapacity``, each ascending and all in order: an
/// insertion moves the keys after it in its run, not every key after it in the list. (With one
/// array, each id a 10,000-command script added moved up to 27 KB of keys, and evicted what
/// the next command's storage call had in the cache.)
struct SortedKeys {
  /// The most keys a run holds; a fuller one is split in halves.
  static let runCapacity = 128

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
    let run = min(firstRun(endingAtOrAbove: key), runs.count - 1)
    let index = Self.firstIndex(atOrAbove: key, in: runs[run])
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
    let run = firstRun(endingAtOrAbove: key)
    precondition(run < runs.count, "removing a key that was never inserted")
    let index = Self.firstIndex(atOrAbove: key, in: runs[run])
    precondition(runs[run][index] == key, "removing a key that was never inserted")
    runs[run].remove(at: index)
    if runs[run].isEmpty { runs.remove(at: run) }
  }

  /// The index of the first run whose last key is not below `key`, or the count of runs.
  ///
  /// NB: two searches written out, not one taking a closure: the closure was called for every
  /// step, and cost more than the moves that runs save.
  private func firstRun(endingAtOrAbove key: UInt128) -> Int {
    var low = 0
    var high = runs.count
    while low < high {
      let middle = (low + high) / 2
      if let last = runs[middle].last, last < key { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// The index of the first key of `run` not below `key`, or its count.
  private static func firstIndex(atOrAbove key: UInt128, in run: [UInt128]) -> Int {
    var low = 0
    var high = run.count
    while low < high {
      let middle = (low + high) / 2
      if run[middle] < key { low = middle + 1 } else { high = middle }
    }
    return low
  }
}
