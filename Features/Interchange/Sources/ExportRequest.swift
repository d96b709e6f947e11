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
  public init(scope: DataScope, format: FileFormat, contents: Data, counts: EntryCounts) {
    self.scope = scope
    self.format = format
    self.contents = contents
    self.counts = counts
  }

  /// The file's text.
  public var text: String { String(decoding: contents, as: UTF8.self) }
}
