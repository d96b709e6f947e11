import AppFeature
import Foundation
import Interchange
import LedgerClient
import Loop
import Persistence

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

  /// `<noun> import <file>` (or `import <file>` with no noun): reads the file,
  /// ``Interchange/Interchange/Action/importSubmitted(_:)``, a progress bar while it runs (on a
  /// terminal, without `--quiet`), then the summary.
  ///
  /// `formats` are what `--format` takes (`nil`: no `--format`); `readsLedgerCSV` adds
  /// `--date-format`, `--decimal-separator` and `--rules-file`, and reads a bank statement's
  /// rules (``Session/statementRules(for:contents:given:format:)``).
  static func importing(
    _ scope: DataScope, noun: Noun?, formats: [FileFormat]?, readsLedgerCSV: Bool = false,
    summary: String
  ) -> Command {
    Command(
      noun: noun, verb: "import", summary: summary, Argument("file", help: "the file to read"),
      format(formats, help: "the file's format (found from its content by default)"),
      ledgerCSVOptions(readsLedgerCSV),
      readsLedgerCSV
        ? Option(
          "rules-file", valueName: "PATH",
          help: "hledger CSV rules for a bank statement (FILE.rules when it exists)")
        : .absent(nil),
      Option(flag: "dry-run", help: "say what the import would do, and write nothing"),
      Option(flag: "quiet", help: "draw no progress bar")
    ) { session, file, format, ledgerOptions, rulesFile, isDryRun, quiet throws(CommandError) in
      let contents: Data
      do throws(InterchangeError) {
        contents = try session.readImportFile(atPath: session.path(of: file), named: file)
      } catch {
        throw CommandError(error.description)
      }
      let request = ImportRequest(
        scope: scope, file: file, contents: contents, format: format, isDryRun: isDryRun,
        ledgerOptions: ledgerOptions,
        rules: readsLedgerCSV
          ? try session.statementRules(
            for: file, contents: contents, given: rulesFile, format: format)
          : nil)
      try await session.importFile(request, quiet: quiet)
    }
  }

  /// `<noun> export <file>` (or `export <file>` with no noun):
  /// ``Interchange/Interchange/Action/exportSubmitted(_:)``, then the file is written.
  ///
  /// The options as ``importing(_:noun:formats:readsLedgerCSV:summary:)``'s, without its
  /// `--rules-file`, `--dry-run` and `--quiet`.
  static func exporting(
    _ scope: DataScope, noun: Noun?, formats: [FileFormat]?, readsLedgerCSV: Bool = false,
    summary: String
  ) -> Command {
    Command(
      noun: noun, verb: "export", summary: summary, Argument("file", help: "the file to write"),
      format(
        formats, help: "the format to write (from the file's extension by default, else json)"),
      ledgerCSVOptions(readsLedgerCSV)
    ) { session, file, format, ledgerOptions throws(CommandError) in
      let request = ExportRequest(
        scope: scope, format: format ?? .forFile(file), ledgerOptions: ledgerOptions)
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

  /// `--format` of an import or an export, taking `formats`; none when `formats` is `nil`.
  private static func format(_ formats: [FileFormat]?, help: String) -> Option<FileFormat?> {
    guard let formats else { return .absent(nil) }
    return Option(
      "format", valueName: "FORMAT", help: help, choices: formats.map { ($0.rawValue, $0) })
  }

  /// `--date-format` and `--decimal-separator` of a ledger CSV, when `readsLedgerCSV`; else
  /// none, and the default options.
  private static func ledgerCSVOptions(_ readsLedgerCSV: Bool) -> Option<LedgerCSVOptions> {
    guard readsLedgerCSV else { return .absent(LedgerCSVOptions()) }
    return Option(
      declarations: [
        Declaration(
          name: "date-format", kind: .option(valueName: "PATTERN"),
          help: "how the CSV writes dates, such as dd.MM.yyyy (yyyy-MM-dd by default)"),
        Declaration(
          name: "decimal-separator", kind: .option(valueName: "SEPARATOR"), choices: [".", ","],
          help: "the character before the cents (. by default; , for 1.234,50)"),
      ]
    ) { words throws(CommandError) in
      var options = LedgerCSVOptions()
      if let pattern = words.values["date-format"] {
        do throws(InterchangeError) {
          options.dateFormat = try DateFormat(pattern)
        } catch {
          throw .usage(error.description)
        }
      }
      if words.values["decimal-separator"] == "," { options.decimalSeparator = .comma }
      return options
    }
  }
}

extension FileFormat {
  /// The format a file's extension names: `.csv` CSV, `.html` or `.htm` a bookmark file,
  /// anything else JSON.
  static func forFile(_ file: String) -> FileFormat {
    switch PrivateFile.pathExtension(of: file).lowercased() {
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
