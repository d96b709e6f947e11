import Foundation

/// One row of the table: the same work done through Loop and by its baseline (the physical
/// limit of that work), timed side by side in the same run.
struct Measurement: Encodable {
  /// How a row's costs are shown.
  enum Unit: String, Encodable {
    /// Nanoseconds per operation.
    case nanoseconds = "ns/op"
    /// Milliseconds per operation.
    case milliseconds = "ms/op"
    /// Operations per second.
    case perSecond = "ops/s"
  }

  /// The group the row belongs to, such as "Store".
  var group: String
  /// What was measured.
  var name: String
  /// How many operations one timing covers.
  var operations: Int
  /// Median seconds for `operations` through Loop.
  var ours: Double
  /// Median seconds for `operations` done by the baseline.
  var baseline: Double
  /// What the baseline is.
  var baselineName: String
  /// How the row's cost is shown.
  var unit: Unit
  /// How the cost grows with size, such as "100k/1k 1.04x", when the row has sizes.
  var growth: String?
  /// The peak memory of each side, such as "32 MB vs 6 MB", when each ran as a process.
  var peakMemory: String?

  /// How many times slower Loop is than the baseline (1.0 is as fast).
  var ratio: Double { ours / baseline }

  /// Loop's cost in the row's unit.
  var oursCost: Double { cost(ours) }

  /// The baseline's cost in the row's unit.
  var baselineCost: Double { cost(baseline) }

  private func cost(_ seconds: Double) -> Double {
    switch unit {
    case .nanoseconds: seconds / Double(operations) * 1e9
    case .milliseconds: seconds / Double(operations) * 1e3
    case .perSecond: Double(operations) / seconds
    }
  }

  enum CodingKeys: String, CodingKey {
    case group, name, operations, unit, growth, peakMemory, baselineName
    case oursCost = "ours"
    case baselineCost = "baseline"
    case ratio
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(group, forKey: .group)
    try container.encode(name, forKey: .name)
    try container.encode(operations, forKey: .operations)
    try container.encode(unit, forKey: .unit)
    try container.encodeIfPresent(growth, forKey: .growth)
    try container.encodeIfPresent(peakMemory, forKey: .peakMemory)
    try container.encode(baselineName, forKey: .baselineName)
    try container.encode(oursCost, forKey: .oursCost)
    try container.encode(baselineCost, forKey: .baselineCost)
    try container.encode(ratio, forKey: .ratio)
  }
}

/// How long to run: `--quick` runs everything once on small sizes.
struct Settings {
  var quick: Bool
  /// Runs only the rows whose names contain this text (`--filter`), for profiling one row.
  var filter: String?

  /// Whether the row called `name` runs.
  func includes(_ name: String) -> Bool { filter.map { name.contains($0) } ?? true }

  /// Timed runs per measurement (after one warm-up run of each side).
  var runs: Int { quick ? 1 : 7 }

  /// Timed runs for the measurements that take seconds each, which vary less between runs and
  /// would otherwise take the whole run past two minutes.
  var longRuns: Int { quick ? 1 : 3 }

  /// `full` normally, `small` with `--quick`.
  func size(_ full: Int, quick small: Int) -> Int { quick ? small : full }
}

/// The median time of `ours` and of `baseline`, in seconds, each warmed up once, then timed
/// alternately `runs` times, so a burst of load on the machine hits both sides alike.
func medianTimes(
  runs: Int, ours: () throws -> Void, baseline: () throws -> Void
) rethrows -> (ours: Double, baseline: Double) {
  try ours()
  try baseline()
  var oursTimes: [Double] = []
  var baselineTimes: [Double] = []
  for _ in 0..<runs {
    oursTimes.append(try seconds(ours))
    baselineTimes.append(try seconds(baseline))
  }
  return (median(oursTimes), median(baselineTimes))
}

/// The median time of asynchronous `ours` and `baseline`, as `medianTimes(runs:ours:baseline:)`;
/// without the warm-up runs when `warmUp` is false (for work long enough to warm itself up).
@MainActor
func medianTimes(
  runs: Int, warmUp: Bool = true, ours: () async throws -> Void,
  baseline: () async throws -> Void
) async rethrows -> (ours: Double, baseline: Double) {
  if warmUp {
    try await ours()
    try await baseline()
  }
  var oursTimes: [Double] = []
  var baselineTimes: [Double] = []
  for _ in 0..<runs {
    var start = ContinuousClock.now
    try await ours()
    oursTimes.append(seconds(ContinuousClock.now - start))
    start = ContinuousClock.now
    try await baseline()
    baselineTimes.append(seconds(ContinuousClock.now - start))
  }
  return (median(oursTimes), median(baselineTimes))
}

private func seconds(_ body: () throws -> Void) rethrows -> Double {
  let start = ContinuousClock.now
  try body()
  return seconds(ContinuousClock.now - start)
}

private func seconds(_ duration: Duration) -> Double {
  Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

private func median(_ values: [Double]) -> Double {
  let sorted = values.sorted()
  let middle = sorted.count / 2
  return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// The measurements as an aligned text table, grouped.
func formatTable(_ measurements: [Measurement]) -> String {
  let header = ["what", "loop", "baseline", "ratio", "growth", "peak memory"]
  var rows: [[String]] = []
  var group = ""
  for measurement in measurements {
    if measurement.group != group {
      group = measurement.group
      rows.append(["[\(group)]", "", "", "", "", ""])
    }
    rows.append([
      "  " + measurement.name,
      format(measurement.oursCost, measurement.unit),
      "\(format(measurement.baselineCost, measurement.unit)) (\(measurement.baselineName))",
      String(format: "%.2fx", measurement.ratio),
      measurement.growth ?? "",
      measurement.peakMemory ?? "",
    ])
  }
  let widths = header.indices.map { column in
    ([header] + rows).map { $0[column].count }.max() ?? 0
  }
  return ([header] + rows).map { row in
    row.enumerated().map { column, cell in
      let padding = String(repeating: " ", count: widths[column] - cell.count)
      return column == 0 || column == 2 ? cell + padding : padding + cell
    }.joined(separator: "  ").trimmingCharacters(in: .whitespaces)
  }.joined(separator: "\n")
}

private func format(_ value: Double, _ unit: Measurement.Unit) -> String {
  let number =
    value >= 100
    ? Int(value.rounded()).formatted(
      .number.grouping(.automatic).locale(Locale(identifier: "en_US")))
    : String(format: value < 1 ? "%.3f" : "%.2f", value)
  return "\(number) \(unit.rawValue)"
}
