import Interchange

/// The line a terminal shows while an import writes: a bar, the count, the rate and the time
/// left.
///
/// ```text
/// [██████████░░░░░░░░░░░░░░]  45,000/100,000  31,204/s  0:02 left
/// ```
enum ProgressBar {
  /// How many characters the bar has.
  static let width = 24

  /// The line for `processed` of `total` entries after `elapsed`.
  ///
  /// The rate and the time left appear once a tenth of a second has passed and something was
  /// written.
  static func line(processed: Int, total: Int, elapsed: Duration) -> String {
    let fraction = total > 0 ? min(1, Double(processed) / Double(total)) : 0
    let filled = Int((fraction * Double(width)).rounded(.down))
    var line =
      "[" + String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
      + "]  \(grouped(processed))/\(grouped(total))"
    let components = elapsed.components
    let seconds = Double(components.seconds) + Double(components.attoseconds) / 1e18
    guard seconds >= 0.1, processed > 0 else { return line }
    let rate = Double(processed) / seconds
    line += "  \(grouped(Int(rate)))/s"
    let left = Int((Double(max(0, total - processed)) / rate).rounded(.up))
    line += "  \(clock(left)) left"
    return line
  }

  /// `0:05`, `12:34`, `1:02:03`.
  static func clock(_ seconds: Int) -> String {
    func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    let hours = seconds / 3_600
    let minutes = seconds / 60 % 60
    let rest = seconds % 60
    return hours > 0 ? "\(hours):\(two(minutes)):\(two(rest))" : "\(minutes):\(two(rest))"
  }
}

/// Draws an import's progress on one line of standard error, rewriting it in place.
@MainActor
final class ProgressDisplay {
  private let console: Console
  private let elapsed: @Sendable () -> Duration
  private var shown: ImportProgress?

  /// A display drawing on `console`'s standard error (a terminal), timed by `elapsed`.
  init(console: Console, elapsed: @escaping @Sendable () -> Duration) {
    self.console = console
    self.elapsed = elapsed
  }

  /// Draws the progress, when it changed.
  func show(_ progress: ImportProgress?) {
    guard let progress, progress != shown, progress.total > 0 else { return }
    shown = progress
    let line = ProgressBar.line(
      processed: progress.processed, total: progress.total, elapsed: elapsed())
    // NB: `\r` goes back to the start of the line, `ESC [K` erases what a longer line left.
    console.writeError("\r\(line)\u{1B}[K")
  }

  /// Erases the line, if anything was drawn.
  func clear() {
    guard shown != nil else { return }
    shown = nil
    console.writeError("\r\u{1B}[K")
  }
}
