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

/// Runs `body` `runs` times and returns the fastest time, in seconds.
func bestTime(runs: Int, _ body: () throws -> Void) rethrows -> Double {
  var best = Double.infinity
  for _ in 0..<runs {
    let clock = ContinuousClock()
    let elapsed = try clock.measure(body)
    let seconds =
      Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    best = min(best, seconds)
  }
  return best
}
