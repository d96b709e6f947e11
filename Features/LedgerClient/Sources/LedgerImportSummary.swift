/// What ``LedgerClient/importTransactions`` did (or, in a dry run, would do).
public struct LedgerImportSummary: Equatable, Sendable {
  /// How many transactions were stored.
  public var imported: Int
  /// How many were skipped because their id was stored already (or came earlier in the import).
  public var duplicates: Int

  /// Creates a summary.
  public init(imported: Int = 0, duplicates: Int = 0) {
    self.imported = imported
    self.duplicates = duplicates
  }
}
