/// One benchmark: the same work done through Loop and directly, timed in the same run.
struct Measurement {
  /// What was measured.
  var name: String
  /// How many operations (rows, queries) one timing covers.
  var operations: Int
  /// Seconds for `operations` through Loop (best of the runs).
  var ours: Double
  /// Seconds for `operations` done directly (best of the runs).
  var baseline: Double

  /// How many times slower Loop is than the baseline (1.0 is as fast).
  var ratio: Double { ours / baseline }

  /// Operations per second through Loop.
  var oursRate: Double { Double(operations) / ours }

  /// Operations per second done directly.
  var baselineRate: Double { Double(operations) / baseline }
}

/// The measurements as an aligned text table.
func formatTable(_ measurements: [Measurement]) -> String {
  func number(_ value: Double) -> String {
    value >= 100 ? String(Int(value.rounded())) : String((value * 100).rounded() / 100)
  }
  let header = ["benchmark", "ops", "loop ops/s", "direct ops/s", "ratio"]
  let rows = measurements.map { measurement in
    [
      measurement.name, String(measurement.operations), number(measurement.oursRate),
      number(measurement.baselineRate), number(measurement.ratio) + "x",
    ]
  }
  let widths = header.indices.map { column in
    ([header] + rows).map { $0[column].count }.max() ?? 0
  }
  return ([header] + rows).map { row in
    row.enumerated().map { column, cell in
      let padding = String(repeating: " ", count: widths[column] - cell.count)
      return column == 0 ? cell + padding : padding + cell
    }.joined(separator: "  ")
  }.joined(separator: "\n")
}

/// The fastest time of `ours` and of `baseline`, in seconds, timed alternately `runs` times each.
///
/// Alternating keeps a burst of load on the machine from favouring one side.
func bestTimes(
  runs: Int, ours: () throws -> Void, baseline: () throws -> Void
) rethrows -> (ours: Double, baseline: Double) {
  func seconds(_ body: () throws -> Void) rethrows -> Double {
    let elapsed = try ContinuousClock().measure(body)
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
  }
  var best = (ours: Double.infinity, baseline: Double.infinity)
  for _ in 0..<runs {
    best.ours = min(best.ours, try seconds(ours))
    best.baseline = min(best.baseline, try seconds(baseline))
  }
  return best
}
