import Foundation
import Persistence
import TestSupport
import Testing

/// Generated cases (odd values, predicates answered in SQL, in Swift or on every row, sorts,
/// windows from 0 to `Int.max`, writes that fail) run on every backend (in memory, an SQLite
/// file, PostgreSQL) and on a plain Swift array (``ReferenceStore``): the same models in the same
/// order, bit for bit, or the same errors at the same operations.
///
/// CI runs a fixed seed. A longer run: `LOOP_DIFFERENTIAL_CASES=100000 swift test --filter
/// DifferentialTests` (with `LOOP_DIFFERENTIAL_SEED` for another seed); a failure prints the
/// seed, the case's number (`LOOP_DIFFERENTIAL_CASE` replays it alone) and the smallest case
/// that still fails.
@Suite struct DifferentialTests {
  static let environment = ProcessInfo.processInfo.environment

  /// The seed of the run: fixed unless `LOOP_DIFFERENTIAL_SEED` says otherwise.
  static let seed = environment["LOOP_DIFFERENTIAL_SEED"].flatMap { UInt64($0) } ?? 2_024

  /// The cases to run: `LOOP_DIFFERENTIAL_CASE` alone, else the first `LOOP_DIFFERENTIAL_CASES`
  /// (1,500 by default: seconds in a debug build).
  static let cases: Range<Int> = {
    if let only = environment["LOOP_DIFFERENTIAL_CASE"].flatMap({ Int($0) }) {
      return only..<(only + 1)
    }
    return 0..<(environment["LOOP_DIFFERENTIAL_CASES"].flatMap { Int($0) } ?? 1_500)
  }()

  @Test func generatedCasesAgreeOnEveryBackendAndTheReference() throws {
    let runner = try DifferentialRunner()
    let start = ContinuousClock.now
    if let report = runner.run(seed: Self.seed, cases: Self.cases) {
      Issue.record(Comment(rawValue: report))
    }
    print(
      "DifferentialTests: cases \(Self.cases) of seed \(Self.seed) on "
        + "\(Backend.allCases.map(\.rawValue).joined(separator: ", ")) and the reference in "
        + "\(ContinuousClock.now - start)")
  }

  /// The harness itself: a reference that ignores offsets is caught, and the report names the
  /// seed and shrinks the case to an insert and a read with an offset.
  @Test func aDisagreementIsReportedWithItsSeedAndTheSmallestCase() throws {
    let runner = try DifferentialRunner(ignoresOffsets: true)
    let report = try #require(runner.run(seed: 7, cases: 0..<500))
    #expect(report.hasPrefix("The backends and the reference disagree on generated case "))
    #expect(report.contains(" of seed 7.\nReplay it with LOOP_DIFFERENTIAL_SEED=7 "))
    #expect(report.contains("The smallest case that still disagrees (2 operations, "))
    let lines = report.split(separator: "\n")
    let insert = try #require(lines.firstIndex { $0.hasPrefix("insert(Sample(id: ") })
    let read = lines[insert + 1]
    #expect(read.hasPrefix("fetch(fetchOffset: ") || read.hasPrefix("fetchCount(fetchOffset: "))
    #expect(report.contains("  reference: "))
  }
}
