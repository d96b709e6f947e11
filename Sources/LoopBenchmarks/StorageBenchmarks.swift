import Foundation
import Persistence

/// The reads every storage's rows time, sent directly to the same database with the SQL Loop
/// runs for them: the baseline of ``StorageBenchmarks``.
struct DirectReads {
  /// What the baseline is called in the rows and in a disagreement ("C API, same SQL").
  var name: String
  /// The `limit` most recently viewed links.
  var recent: (_ limit: Int) throws -> [BenchLink]
  /// The links whose title contains `query`, in insertion order.
  var search: (_ query: String) throws -> [BenchLink]
  /// How many links have the id (0 or 1).
  var byID: (UUID) throws -> Int
  /// How many links have more than `minimumVisits` visits.
  var count: (_ minimumVisits: Int) throws -> Int
}

/// How many times each read repeats inside one timed run.
struct ReadRepeats {
  var recent: Int
  var search: Int
  var count: Int
}

/// The rows every storage reports (SQLite, memory, PostgreSQL), so they compare: an insert timed
/// by the storage's own benchmark, then Loop's reads on the filled storage beside the same reads
/// sent directly.
enum StorageBenchmarks {
  /// The insert's row, then each read on `context` timed beside `direct`, after checking that
  /// both return the same.
  ///
  /// - Parameters:
  ///   - insert: The times of inserting `links` in one transaction, Loop's and the baseline's.
  ///   - context: A context whose storage holds `links`.
  ///   - links: The links stored, for the lookups by id.
  ///   - direct: The same reads without Loop, on a database holding the same links.
  ///   - repeats: How many times each read repeats in a timed run.
  ///   - settings: The run's settings.
  ///   - group: The rows' group.
  /// - Returns: The insert's row, then one row per read.
  /// - Throws: ``PersistenceBenchmarks/Failure`` when the two sides disagree, or what a read
  ///   throws.
  static func rows(
    insert: (ours: Double, baseline: Double), reading context: ModelContext, links: [BenchLink],
    beside direct: DirectReads,
    repeats: ReadRepeats, settings: Settings, group: String
  ) throws -> [Measurement] {
    var checksum = 0
    let recent = try medianTimes(runs: settings.runs) {
      for _ in 0..<repeats.recent {
        checksum &+= try BenchLink.fetchMostRecentlyViewed(in: context)
      }
    } baseline: {
      for _ in 0..<repeats.recent { checksum &+= try direct.recent(6).count }
    }
    try expectSame(
      try context.fetchAll(
        BenchLink.self, sortBy: [SortDescriptor(\.lastViewedDate, order: .reverse)], limit: 6),
      try direct.recent(6), "recent", direct)

    let query = settings.quick ? "title 777" : "title 7777"
    let search = try medianTimes(runs: settings.runs) {
      for _ in 0..<repeats.search {
        checksum &+= try context.fetchAll(
          BenchLink.self, predicate: #Predicate { $0.title.contains(query) }
        ).count
      }
    } baseline: {
      for _ in 0..<repeats.search { checksum &+= try direct.search(query).count }
    }
    try expectSame(
      try context.fetchAll(BenchLink.self, predicate: #Predicate { $0.title.contains(query) }),
      try direct.search(query), "search", direct)

    let lookups = (0..<settings.size(20_000, quick: 100)).map {
      links[($0 &* 7_919) % links.count].id
    }
    let byID = try medianTimes(runs: settings.runs) {
      for id in lookups {
        checksum &+= try context.fetch(BenchLink.self, id: id) == nil ? 0 : 1
      }
    } baseline: {
      for id in lookups { checksum &+= try direct.byID(id) }
    }

    // About one link in ten has more than 86 visits (visits are the index modulo 97).
    let minimumVisits = 86
    let count = try medianTimes(runs: settings.runs) {
      for _ in 0..<repeats.count {
        checksum &+= try context.fetchCount(
          FetchDescriptor<BenchLink>(predicate: #Predicate { $0.visits > minimumVisits }))
      }
    } baseline: {
      for _ in 0..<repeats.count { checksum &+= try direct.count(minimumVisits) }
    }
    let counted = try context.fetchCount(
      FetchDescriptor<BenchLink>(predicate: #Predicate { $0.visits > minimumVisits }))
    guard counted > 0, counted == (try direct.count(minimumVisits)) else {
      throw PersistenceBenchmarks.Failure(
        description: "count: Loop and the baseline (\(direct.name)) disagree")
    }
    if checksum == 42 { print("") }  // NB: keeps the loops from being optimized away.

    return [
      Measurement(
        group: group, name: "insert \(links.count.formatted()) in one transaction",
        operations: links.count, ours: insert.ours, baseline: insert.baseline,
        baselineName: direct.name, unit: .perSecond),
      Measurement(
        group: group, name: "fetchAll by date desc, limit 6, indexed",
        operations: repeats.recent, ours: recent.ours, baseline: recent.baseline,
        baselineName: direct.name, unit: .nanoseconds),
      Measurement(
        group: group, name: "title contains '\(query)'",
        operations: repeats.search, ours: search.ours, baseline: search.baseline,
        baselineName: direct.name, unit: .milliseconds),
      Measurement(
        group: group, name: "fetch by id", operations: lookups.count,
        ours: byID.ours, baseline: byID.baseline, baselineName: direct.name,
        unit: .nanoseconds),
      Measurement(
        group: group, name: "fetchCount where visits > \(minimumVisits)",
        operations: repeats.count, ours: count.ours, baseline: count.baseline,
        baselineName: direct.name, unit: .milliseconds),
    ]
  }

  private static func expectSame(
    _ ours: [BenchLink], _ theirs: [BenchLink], _ read: String, _ direct: DirectReads
  ) throws {
    guard ours == theirs, !ours.isEmpty else {
      throw PersistenceBenchmarks.Failure(
        description: "\(read): Loop and the baseline (\(direct.name)) disagree")
    }
  }
}
