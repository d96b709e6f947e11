import AppFeature
import Foundation
import Interchange
import LedgerClient

// The import and export commands: the session reads or writes the file, and the Interchange
// feature does the rest through the clients (`importSubmitted`, `exportSubmitted`).
extension Session {
  /// `link import`, `ledger import`, `import`: reads the file,
  /// ``Interchange/Interchange/Action/importSubmitted(_:)``, a progress bar while it runs (on a
  /// terminal, without `--quiet`), then the summary.
  func importFile(_ invocation: Invocation, into scope: DataScope) async throws(CommandError) {
    let file = invocation[argument: "file"] ?? ""
    let contents: Data
    do {
      contents = try readImportFile(atPath: path(of: file), named: file)
    } catch {
      throw CommandError(error.description)
    }
    let request = ImportRequest(
      scope: scope, file: file, contents: contents,
      format: invocation[option: "format"].flatMap(FileFormat.init(rawValue:)),
      isDryRun: invocation.has("dry-run"), ledgerOptions: try ledgerOptions(invocation))

    let display =
      configuration.showsProgress && !invocation.has("quiet")
      ? ProgressDisplay(console: console, elapsed: stopwatch(environment.continuousClock)) : nil
    let observation = display.map { display in
      store.observe { display.show($0.interchange.progress) }
    }
    defer {
      observation?.cancel()
      display?.clear()
    }
    do {
      try await send(.interchange(.importSubmitted(request)))
    } catch {
      throw CommandError(error.message, hints: rejectionHints())
    }
    guard let report = store.state.interchange.report else { return }
    if !report.isDryRun { forgetLoaded(scope) }
    display?.clear()
    printSummary(of: report)
  }

  /// `link export`, `habit export`, `ledger export`, `export`:
  /// ``Interchange/Interchange/Action/exportSubmitted(_:)``, then the file is written.
  func exportFile(_ invocation: Invocation, of scope: DataScope) async throws(CommandError) {
    let file = invocation[argument: "file"] ?? ""
    let format = invocation[option: "format"].flatMap(FileFormat.init(rawValue:)) ?? .forFile(file)
    let request = ExportRequest(
      scope: scope, format: format, ledgerOptions: try ledgerOptions(invocation))
    try await send(.interchange(.exportSubmitted(request)))
    guard let exported = store.state.interchange.exportedFile else { return }
    do {
      try writeExportFile(exported, toPath: path(of: file), named: file)
    } catch {
      throw CommandError(error.description)
    }
    console.print("Exported \(exported.counts.description) to '\(file)' (\(exported.format)).")
  }

  // MARK: - Helpers

  /// The path of a file the user named: relative paths start at the configured directory.
  private func path(of file: String) -> String {
    guard let directory = configuration.currentDirectory, !file.hasPrefix("/") else {
      return file
    }
    return (directory as NSString).appendingPathComponent(file)
  }

  /// `--date-format` and `--decimal-separator`.
  private func ledgerOptions(_ invocation: Invocation) throws(CommandError) -> LedgerCSVOptions {
    var options = LedgerCSVOptions()
    if let pattern = invocation[option: "date-format"] {
      do {
        options.dateFormat = try DateFormat(pattern)
      } catch {
        throw invocation.spec.usageError(error.description)
      }
    }
    if invocation[option: "decimal-separator"] == "," { options.decimalSeparator = .comma }
    return options
  }

  /// One hint line per row a failed import rejected (the first ten).
  private func rejectionHints() -> [String] {
    guard case .rowsRejected(_, let rows) = store.state.interchange.failure else { return [] }
    return lines(for: rows)
  }

  /// `line 12: why`, for the first ten rows, then how many more.
  private func lines(for rows: [ImportRejection]) -> [String] {
    let shown = rows.prefix(Self.rejectionsShown).map { "line \($0.line): \($0.reason)" }
    let more = rows.count - shown.count
    return shown + (more > 0 ? ["… and \(more) more"] : [])
  }

  /// How many rejected rows a summary lists.
  private static let rejectionsShown = 10

  /// Forgets what an import changed, so that the next command needing it loads it again.
  private func forgetLoaded(_ scope: DataScope) {
    switch scope {
    case .links: loaded.subtract([.link, .category])
    case .habits: loaded.remove(.habit)
    case .ledger: loaded.remove(.ledger)
    case .everything: loaded.removeAll()
    }
  }

  /// The closing summary: imported, skipped, rejected with reasons, and the rate.
  private func printSummary(of report: ImportReport) {
    console.print(report.summary)
    for line in lines(for: report.rejected) { console.print("  \(line)") }
    if report.isDryRun { console.print("Nothing was written (--dry-run).") }
    if let rate = report.rate {
      let components = report.duration.components
      let seconds = Double(components.seconds) + Double(components.attoseconds) / 1e18
      console.print(
        "\(grouped(report.entries)) entries in \(String(format: "%.2f", seconds)) s: "
          + "\(grouped(Int(rate))) a second.")
    }
  }
}

extension FileFormat {
  /// The format a file's extension names: `.csv` CSV, `.html` or `.htm` a bookmark file,
  /// anything else JSON.
  static func forFile(_ file: String) -> FileFormat {
    switch (file as NSString).pathExtension.lowercased() {
    case "csv": .csv
    case "html", "htm": .html
    default: .json
    }
  }
}

/// A number with its thousands grouped by commas: `100,000`.
func grouped(_ number: Int) -> String {
  let digits = String(number.magnitude)
  var text = ""
  for (offset, digit) in digits.enumerated() {
    if offset > 0 && (digits.count - offset) % 3 == 0 { text.append(",") }
    text.append(digit)
  }
  return (number < 0 ? "-" : "") + text
}

/// A function that tells how long ago it was made, on `clock`.
func stopwatch<C: Clock<Duration>>(_ clock: C) -> @Sendable () -> Duration {
  let start = clock.now
  return { start.duration(to: clock.now) }
}
