import AppFeature
import Foundation
import Interchange
import LedgerClient

/// The import and export commands, of a noun (`link import`) or of the whole database
/// (`import`): the session reads or writes the file, and the Interchange feature does the rest
/// through the clients (`importSubmitted`, `exportSubmitted`).
enum InterchangeCommands {
  /// The commands on the whole database, which take no noun.
  static let all = [
    importing(
      .everything, noun: nil, formats: nil,
      summary: "Import a Loop export (JSON) of everything: links, habits and the ledger."),
    exporting(
      .everything, noun: nil, formats: nil,
      summary: "Export everything as JSON, lossless: 'import' reads it back."),
  ]

  private static let dryRun = Option(
    name: "dry-run", summary: "say what the import would do, and write nothing")
  private static let quiet = Option(name: "quiet", summary: "draw no progress bar")

  /// `--date-format` of a ledger CSV.
  fileprivate static let dateFormat = Option(
    name: "date-format", valueName: "PATTERN",
    summary: "how the CSV writes dates, such as dd.MM.yyyy (yyyy-MM-dd by default)")
  /// `--decimal-separator` of a ledger CSV.
  fileprivate static let decimalSeparator = Option(
    name: "decimal-separator", valueName: "SEPARATOR", choices: [".", ","],
    summary: "the character before the cents (. by default; , for 1.234,50)")

  /// `--rules-file` of a ledger import.
  fileprivate static let rulesFile = Option(
    name: "rules-file", valueName: "PATH",
    summary: "hledger CSV rules for a bank statement (FILE.rules when it exists)")

  /// `<noun> import <file>` (or `import <file>` with no noun): reads the file,
  /// ``Interchange/Interchange/Action/importSubmitted(_:)``, a progress bar while it runs (on a
  /// terminal, without `--quiet`), then the summary.
  ///
  /// `formats` are what `--format` takes (`nil`: no `--format`); `readsLedgerCSV` adds
  /// `--date-format`, `--decimal-separator` and `--rules-file`, and reads a bank statement's
  /// rules (``Session/statementRules(for:contents:given:format:)``).
  static func importing(
    _ scope: DataScope, noun: Noun?, formats: [String]?, readsLedgerCSV: Bool = false,
    summary: String
  ) -> Command {
    let format = formats.map {
      formatOption($0, summary: "the file's format (found from its content by default)")
    }
    return Command(
      noun: noun, verb: "import", arguments: [.file],
      options: fileOptions(format, readsLedgerCSV) + (readsLedgerCSV ? [rulesFile] : [])
        + [dryRun, quiet],
      summary: summary
    ) { session, input throws(CommandError) in
      let file = input[.file]
      let contents: Data
      do throws(InterchangeError) {
        contents = try session.readImportFile(atPath: session.path(of: file), named: file)
      } catch {
        throw CommandError(error.description)
      }
      let givenFormat = format.flatMap { input[$0] }.flatMap(FileFormat.init(rawValue:))
      let request = ImportRequest(
        scope: scope, file: file, contents: contents, format: givenFormat,
        isDryRun: input.has(dryRun),
        ledgerOptions: readsLedgerCSV ? try ledgerOptions(input) : LedgerCSVOptions(),
        rules: readsLedgerCSV
          ? try session.statementRules(
            for: file, contents: contents, given: input[rulesFile], format: givenFormat)
          : nil)
      try await session.importFile(request, quiet: input.has(quiet))
    }
  }

  /// `<noun> export <file>` (or `export <file>` with no noun):
  /// ``Interchange/Interchange/Action/exportSubmitted(_:)``, then the file is written.
  ///
  /// The options as ``importing(_:noun:formats:readsLedgerCSV:summary:)``'s, without its
  /// `--dry-run` and `--quiet`.
  static func exporting(
    _ scope: DataScope, noun: Noun?, formats: [String]?, readsLedgerCSV: Bool = false,
    summary: String
  ) -> Command {
    let format = formats.map {
      formatOption(
        $0, summary: "the format to write (from the file's extension by default, else json)")
    }
    return Command(
      noun: noun, verb: "export", arguments: [.file], options: fileOptions(format, readsLedgerCSV),
      summary: summary
    ) { session, input throws(CommandError) in
      let file = input[.file]
      let request = ExportRequest(
        scope: scope,
        format: format.flatMap { input[$0] }.flatMap(FileFormat.init(rawValue:))
          ?? .forFile(file),
        ledgerOptions: readsLedgerCSV ? try ledgerOptions(input) : LedgerCSVOptions())
      try await session.send(.interchange(.exportSubmitted(request)))
      guard let exported = session.store.state.interchange.exportedFile else { return }
      do throws(InterchangeError) {
        try session.writeExportFile(exported, toPath: session.path(of: file), named: file)
      } catch {
        throw CommandError(error.description)
      }
      session.console.print(
        "Exported \(exported.counts.description) to '\(file)' (\(exported.format)).")
    }
  }

  /// `--format` of an import or an export, taking `formats`.
  private static func formatOption(_ formats: [String], summary: String) -> Option {
    Option(name: "format", valueName: "FORMAT", choices: formats, summary: summary)
  }

  /// `--format` (if any), then the ledger CSV's options when `readsLedgerCSV`.
  private static func fileOptions(_ format: Option?, _ readsLedgerCSV: Bool) -> [Option] {
    (format.map { [$0] } ?? []) + (readsLedgerCSV ? [dateFormat, decimalSeparator] : [])
  }

  /// `--date-format` and `--decimal-separator`.
  private static func ledgerOptions(_ input: Invocation) throws(CommandError) -> LedgerCSVOptions {
    var options = LedgerCSVOptions()
    if let pattern = input[dateFormat] {
      do {
        options.dateFormat = try DateFormat(pattern)
      } catch {
        throw input.command.usageError(error.description)
      }
    }
    if input[decimalSeparator] == "," { options.decimalSeparator = .comma }
    return options
  }
}

extension Session {
  /// Sends ``Interchange/Interchange/Action/importSubmitted(_:)`` with a progress bar while it
  /// runs (on a terminal, unless `quiet`), then prints the summary.
  fileprivate func importFile(_ request: ImportRequest, quiet: Bool) async throws(CommandError) {
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
  fileprivate func statementRules(
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
  fileprivate func path(of file: String) -> String {
    guard let directory = configuration.currentDirectory, !file.hasPrefix("/") else {
      return file
    }
    return (directory as NSString).appendingPathComponent(file)
  }

  /// One hint line per row a failed import rejected (the first ten).
  fileprivate func rejectionHints() -> [String] {
    guard case .rowsRejected(_, let rows) = store.state.interchange.failure else { return [] }
    return lines(for: rows)
  }

  /// `line 12: why` (or `line 12 skipped: why`), for the first ten rows, then how many more.
  fileprivate func lines(for rows: [ImportRejection], skipped: Bool = false) -> [String] {
    let label = skipped ? " skipped" : ""
    let shown = rows.prefix(Self.rejectionsShown).map { "line \($0.line)\(label): \($0.reason)" }
    let more = rows.count - shown.count
    return shown + (more > 0 ? ["… and \(more) more"] : [])
  }

  /// How many rejected rows a summary lists.
  fileprivate static let rejectionsShown = 10

  /// Forgets what an import changed, so that the next command needing it loads it again.
  fileprivate func forgetLoaded(_ scope: DataScope) {
    loaded = loaded.filter { !$0.isChanged(byImportOf: scope) }
  }

  /// The closing summary: imported, skipped, rejected with reasons, and the rate.
  ///
  /// A dry run of a bank statement without rules first prints the rules inferred, and the
  /// summary as comments: what it prints is a rules file (`--dry-run > FILE.rules`).
  fileprivate func printSummary(of report: ImportReport) {
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
