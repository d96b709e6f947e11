import AppFeature
import Foundation
import Interchange
import LedgerClient
import Loop
import Persistence

extension Session {
  /// Sends ``Interchange/Interchange/Action/importSubmitted(_:)`` with a progress bar while it
  /// runs (on a terminal, unless `quiet`), then prints the summary.
  func importFile(_ request: ImportRequest, quiet: Bool) async throws(CommandError) {
    // NB: timed on the clock from before any recording: the bar's readings are not the app's,
    // and a replay, which draws no bar, must not find them among the import's.
    let clock = (recording?.baseEnvironment ?? environment).continuousClock
    let display =
      configuration.showsProgress && !quiet
      ? ProgressDisplay(console: console, elapsed: stopwatch(clock)) : nil
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
      // NB: `send` returns once the import's effect has ended, its transaction rolled back.
      if error.isCancellation { throw .cancelled("Cancelled: nothing imported.") }
      throw CommandError(error.message, hints: rejectionHints())
    }
    guard let report = store.state.interchange.report else { return }
    if !report.isDryRun { forgetLoaded(request.scope) }
    display?.clear()
    printSummary(of: report)
  }

  /// The rules of the bank statement `file`: those `given` with `--rules-file`, else
  /// `FILE.rules` when it exists; `nil` for Loop's own ledger CSV or a Loop export, or without
  /// a rules file (the import then infers them).
  func statementRules(
    for file: String, contents: Data, given: String?, format: FileFormat?
  ) throws(CommandError) -> CSVRules? {
    do throws(InterchangeError) {
      let rulesFile: String
      let data: Data
      if let given {
        rulesFile = given
        data = try readImportFile(atPath: path(of: given), named: given)
      } else {
        // NB: only a statement looks for rules: Loop's own files import as they always did.
        let start = String(decoding: contents.prefix(65_536), as: UTF8.self)
        guard (format ?? FileFormat.detect(in: start)) == .csv, !LedgerCSV.isLoopCSV(start) else {
          return nil
        }
        rulesFile = file + ".rules"
        guard let found = try readImportFileIfPresent(atPath: path(of: rulesFile), named: rulesFile)
        else { return nil }
        data = found
      }
      return try CSVRules(parsing: ImportFile.text(of: data, file: rulesFile), file: rulesFile)
    } catch {
      throw CommandError(error.description)
    }
  }

  /// The path of a file the user named: relative paths start at the configured directory.
  func path(of file: String) -> String {
    guard let directory = configuration.currentDirectory, !file.hasPrefix("/") else {
      return file
    }
    return PrivateFile.joined(directory, file)
  }

  /// One hint line per row a failed import rejected (the first ten).
  func rejectionHints() -> [String] {
    guard case .rowsRejected(_, let rows) = store.state.interchange.failure else { return [] }
    return lines(for: rows)
  }

  /// `line 12: why` (or `line 12 skipped: why`), for the first ten rows, then how many more.
  func lines(for rows: [ImportRejection], skipped: Bool = false) -> [String] {
    let label = skipped ? " skipped" : ""
    let shown = rows.prefix(Self.rejectionsShown).map { "line \($0.line)\(label): \($0.reason)" }
    let more = rows.count - shown.count
    return shown + (more > 0 ? ["… and \(more) more"] : [])
  }

  /// How many rejected rows a summary lists.
  static let rejectionsShown = 10

  /// The closing summary: imported, skipped, rejected with reasons, and the rate.
  ///
  /// A dry run of a bank statement without rules first prints the rules inferred, and the
  /// summary as comments: what it prints is a rules file (`--dry-run > FILE.rules`).
  func printSummary(of report: ImportReport) {
    var prefix = ""
    if report.isDryRun, let rules = report.inferredRules {
      for line in rules.text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
        console.print(String(line))
      }
      prefix = "# "
    }
    console.print(prefix + report.summary)
    for line in lines(for: report.rejected) { console.print("\(prefix)  \(line)") }
    for line in lines(for: report.skipped, skipped: true) { console.print("\(prefix)  \(line)") }
    if report.isDryRun { console.print(prefix + "Nothing was written (--dry-run).") }
    if let rate = report.rate {
      let components = report.duration.components
      let seconds = Double(components.seconds) + Double(components.attoseconds) / 1e18
      console.print(
        "\(prefix)\(grouped(report.entries)) entries in \(String(format: "%.2f", seconds)) s: "
          + "\(grouped(Int(rate))) a second.")
    }
  }
}
