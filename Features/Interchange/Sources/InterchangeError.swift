import Foundation
import HabitClient
import LedgerClient
import LinkClient

/// Every way an import or an export fails: the file, its format, its rows, or a client.
///
/// Each case names the file and, where it can, the line; ``description`` is one sentence (two
/// when there is a fix to suggest) that can be shown as is. A failed import wrote nothing.
///
/// ```swift
/// InterchangeError.emptyFile(file: "bookmarks.html").description
/// // "'bookmarks.html' is empty."
/// ```
public enum InterchangeError: Error, Equatable, Sendable, CustomStringConvertible,
  LocalizedError
{
  /// The file could not be read (it is missing, a folder, or not readable); `reason` says why.
  case unreadableFile(file: String, reason: String)
  /// The file is larger than ``ImportFile/sizeLimit`` (`bytes` is its size); it was not read.
  case fileTooLarge(file: String, bytes: Int)
  /// The file has no content, or only whitespace.
  case emptyFile(file: String)
  /// The file holds NUL bytes: it is not text (or is UTF-16 without a byte order mark).
  case binaryFile(file: String)
  /// The file starts with a UTF-16 (or UTF-32) byte order mark; Loop reads UTF-8.
  case utf16(file: String)
  /// The file is not valid UTF-8: `line` holds `byte`, which starts no UTF-8 character (a
  /// Latin-1 or Windows-1252 file, usually).
  case notUTF8(file: String, line: Int, byte: UInt8)
  /// The file is not in `format` (as detected or as given with `--format`); `reason` says why.
  case notFormat(file: String, format: FileFormat, reason: String)
  /// The file ends in the middle of something (a quoted CSV field, a bookmark folder, a JSON
  /// object) opened on `line`; it was probably cut short.
  case truncated(file: String, line: Int, reason: String)
  /// A CSV record is malformed at `line` (for example text after a closing quote).
  case malformedCSV(file: String, line: Int, reason: String)
  /// A CSV header lacks a required column, names one twice, or names one the import does not
  /// know.
  case invalidHeader(file: String, reason: String)
  /// A Loop export of a newer `version` than this Loop reads.
  case unsupportedVersion(file: String, version: Int)
  /// A Loop export whose content does not decode; `reason` names the entry.
  case invalidExport(file: String, reason: String)
  /// Rows of a ledger import are invalid, each with its line and reason; nothing was imported.
  /// The description names the lines (the reason too, for a single row); show the reasons
  /// from the rejections.
  case rowsRejected(file: String, [ImportRejection])
  /// A `--date-format` that is not made of `yyyy`, `MM` (or `M`), `dd` (or `d`) and separators.
  case invalidDateFormat(String)
  /// A rules file (hledger's CSV rules) holds a rule Loop does not support or cannot read, at
  /// `line`, or lacks something (a date, an amount) when `line` is `nil`.
  case invalidRules(file: String, line: Int?, reason: String)
  /// A bank statement without rules whose layout Loop could not find; `reason` says what is
  /// missing (which column) or unclear.
  case unknownStatementLayout(file: String, reason: String)
  /// A Loop export holds nothing of `scope` (a ledger's export given to `link import`).
  case nothingToImport(file: String, scope: DataScope)
  /// The import cannot read `format` into `scope` (a bookmark file into the ledger).
  case cannotImport(FileFormat, into: DataScope)
  /// The export cannot write `scope` as `format` (the whole database as CSV).
  case cannotExport(DataScope, as: FileFormat)
  /// The exported file could not be written; `reason` says why.
  case unwritableFile(file: String, reason: String)
  /// The links client failed.
  case links(LinkError)
  /// The habits client failed.
  case habits(HabitError)
  /// The ledger client failed.
  case ledger(LedgerError)

  /// Wraps any error: itself, a client's error in its case, anything else as an unreadable
  /// file with its description.
  ///
  /// - Parameters:
  ///   - error: The error.
  ///   - file: The file concerned, for errors that are none of the known ones.
  public init(_ error: any Error, file: String) {
    switch error {
    case let error as InterchangeError: self = error
    case let error as LinkError: self = .links(error)
    case let error as HabitError: self = .habits(error)
    case let error as LedgerError: self = .ledger(error)
    default: self = .unreadableFile(file: file, reason: String(describing: error))
    }
  }

  /// What went wrong, as a sentence with the file (and line) in it.
  public var description: String {
    switch self {
    case .unreadableFile(let file, let reason):
      return "Cannot read '\(file)': \(reason)."
    case .fileTooLarge(let file, let bytes):
      let tenths = (bytes * 10 + 524_288) / 1_048_576
      let megabytes = "\(tenths / 10).\(tenths % 10)"
      return
        "'\(file)' is \(megabytes) MB, over the limit of \(ImportFile.sizeLimit / 1_048_576) MB: "
        + "split it into smaller files."
    case .emptyFile(let file):
      return "'\(file)' is empty."
    case .binaryFile(let file):
      return "'\(file)' is not a text file (it holds NUL bytes, as binary files and UTF-16 do)."
    case .utf16(let file):
      return "'\(file)' is encoded in UTF-16: save it as UTF-8 and import it again."
    case .notUTF8(let file, let line, let byte):
      return
        "'\(file)' is not UTF-8: line \(line) holds the byte \(hex(byte))\(latin1(byte)). "
        + "Save it as UTF-8 and import it again."
    case .notFormat(let file, let format, let reason):
      return "'\(file)' is not a \(format) file: \(reason)."
    case .truncated(let file, let line, let reason):
      return "'\(file)' ends early: \(reason) (line \(line)). It may be cut short; export it again."
    case .malformedCSV(let file, let line, let reason):
      return "'\(file)' line \(line): \(reason)."
    case .invalidHeader(let file, let reason):
      return "'\(file)' has an invalid header: \(reason)."
    case .unsupportedVersion(let file, let version):
      return
        "'\(file)' is a Loop export of version \(version); this Loop reads version "
        + "\(LoopExport.currentVersion): update Loop to import it."
    case .invalidExport(let file, let reason):
      return "'\(file)' is not a valid Loop export: \(reason)."
    case .rowsRejected(let file, let rejections):
      if rejections.count == 1, let only = rejections.first {
        return
          "Line \(only.line) of '\(file)' is invalid, so nothing was imported: "
          + "\(only.reason.hasSuffix(".") ? String(only.reason.dropLast()) : only.reason)."
      }
      let lines = rejections.prefix(5).map { "\($0.line)" }
      let more = rejections.count > 5 ? ", …" : ""
      return
        "\(rejections.count) rows of '\(file)' are invalid (lines \(lines.joined(separator: ", "))"
        + "\(more)), so nothing was imported."
    case .invalidDateFormat(let format):
      return
        "'\(format)' is not a date format: use yyyy, MM and dd with separators, such as "
        + "'yyyy-MM-dd', 'dd.MM.yyyy' or 'MM/dd/yyyy'."
    case .invalidRules(let file, let line, let reason):
      return "\(line.map { "Line \($0) of " } ?? "")'\(file)': \(reason)."
    case .unknownStatementLayout(let file, let reason):
      return
        "Loop cannot read '\(file)' as a bank statement: \(reason). Describe it in a rules file, "
        + "'\(file).rules' (see \"Importing a bank statement\" in the README)."
    case .nothingToImport(let file, let scope):
      return "'\(file)' is a Loop export without \(scope.noun): there is nothing to import."
    case .cannotImport(let format, let scope):
      switch format {
      case .html:
        return "A bookmark file holds links, not \(scope.noun): import it with 'link import'."
      case .csv:
        return "A CSV file holds one domain: import it with 'link import' or 'ledger import'."
      case .json:
        return "A Loop export cannot be imported into \(scope.noun)."
      }
    case .cannotExport(let scope, let format):
      switch format {
      case .html:
        return "Only links can be exported as a bookmark file, not \(scope.noun)."
      case .csv:
        return
          "CSV holds one domain: use 'link export', 'habit export' or 'ledger export' with "
          + "'--format csv'."
      case .json:
        return "The \(scope.noun) cannot be exported as JSON."
      }
    case .unwritableFile(let file, let reason):
      return "Cannot write '\(file)': \(reason)."
    case .links(let error):
      return error.description
    case .habits(let error):
      return error.description
    case .ledger(let error):
      return error.description
    }
  }

  /// The same sentence as ``description``.
  public var errorDescription: String? { description }
}

/// `0xE9`.
private func hex(_ byte: UInt8) -> String {
  let digits = String(byte, radix: 16, uppercase: true)
  return "0x" + (digits.count == 1 ? "0" : "") + digits
}

/// ` ('é' in Latin-1)` for a printable Latin-1 byte; empty otherwise.
private func latin1(_ byte: UInt8) -> String {
  guard byte >= 0xA0 else { return "" }
  return " ('\(Character(Unicode.Scalar(byte)))' in Latin-1)"
}
