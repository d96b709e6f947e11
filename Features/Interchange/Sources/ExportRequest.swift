import Foundation
import Loop

/// An export the user asked for: which data, in which format.
///
/// ```swift
/// store.send(.exportSubmitted(ExportRequest(scope: .links, format: .html)))
/// // then write store.state.exportedFile?.contents to the file
/// ```
///
/// Formats by scope: ``DataScope/everything`` is JSON only; ``DataScope/links`` JSON, CSV or HTML;
/// ``DataScope/habits`` and ``DataScope/ledger`` JSON or CSV.
public struct ExportRequest: Equatable, Sendable {
  /// What to export.
  public var scope: DataScope
  /// The format to write.
  public var format: FileFormat
  /// How a ledger CSV writes dates and amounts.
  public var ledgerOptions: LedgerCSVOptions

  /// Creates a request.
  ///
  /// - Parameters:
  ///   - scope: What to export.
  ///   - format: The format; JSON by default.
  ///   - ledgerOptions: How a ledger CSV writes dates and amounts.
  public init(
    scope: DataScope, format: FileFormat = .json,
    ledgerOptions: LedgerCSVOptions = LedgerCSVOptions()
  ) {
    self.scope = scope
    self.format = format
    self.ledgerOptions = ledgerOptions
  }
}

/// An export's result: the file's bytes, ready to be written, and what it holds.
public struct ExportedFile: Equatable, Sendable {
  /// What was exported.
  public var scope: DataScope
  /// The format written.
  public var format: FileFormat
  /// The file's bytes (UTF-8 text).
  public var contents: Data
  /// How many entries of each kind it holds (a CSV or a bookmark file of links holds no
  /// comments).
  public var counts: EntryCounts

  /// Creates an exported file.
  ///
  /// - Parameters:
  ///   - scope: What was exported.
  ///   - format: The format written.
  ///   - contents: The file's bytes.
  ///   - counts: What it holds.
  public init(scope: DataScope, format: FileFormat, contents: Data, counts: EntryCounts) {
    self.scope = scope
    self.format = format
    self.contents = contents
    self.counts = counts
  }

  /// The file's text.
  public var text: String { String(decoding: contents, as: UTF8.self) }

  /// Writes the file, atomically: a reader never sees half of it, and a failure leaves any
  /// previous file as it was.
  ///
  /// A new file is readable by its owner alone (`0600`, whatever the umask); a file that was
  /// there keeps its mode.
  ///
  /// - Parameters:
  ///   - path: Where to write it.
  ///   - name: How an error names the file (the path as the user typed it); `path` by default.
  /// - Throws: ``InterchangeError/unwritableFile(file:reason:)``.
  public func write(toPath path: String, named name: String? = nil) throws(InterchangeError) {
    let file = name ?? path
    var isFolder: ObjCBool = false
    let folder = PrivateFile.folder(of: path)
    guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue
    else {
      throw .unwritableFile(file: file, reason: "its folder does not exist")
    }
    do {
      try PrivateFile.write(contents, toPath: path)
    } catch {
      throw .unwritableFile(file: file, reason: error.reason)
    }
  }
}
