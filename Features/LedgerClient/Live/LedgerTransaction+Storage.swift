import Foundation
import LedgerClient
import Loop
import Persistence

// How the ledger's transactions are stored: their table, and their values' columns.

extension LedgerTransaction: PersistentModel {
  /// The table `ledger_transactions`, indexed by date for the newest-first order.
  public static let schema = Schema<LedgerTransaction>(
    table: "ledger_transactions",
    columns: [
      Column(\.id, "id"),
      Column(\.kind, "kind"),
      Column(\.amount, "amount"),
      Column(\.date, "date"),
      Column(\.memo, "memo"),
      Column(\.category, "category"),
      Column(\.createdAt, "created_at"),
    ],
    indexes: [Index(\.date, \.createdAt)]
  )

  /// Rebuilds a transaction from its stored row.
  ///
  /// - Parameter row: The stored values.
  /// - Throws: `PersistenceError.decodingFailed` for a value that does not decode.
  public init(row: Row<LedgerTransaction>) throws {
    try self.init(
      id: row[\.id], kind: row[\.kind], amount: row[\.amount], date: row[\.date], memo: row[\.memo],
      category: row[\.category], createdAt: row[\.createdAt])
  }
}

extension LedgerTransaction.Kind: ColumnValue {}

extension Money: ColumnValue {
  /// ``Persistence/ColumnType/integer``: the minor units.
  public static var columnType: ColumnType { .integer }

  /// ``Persistence/ColumnComparability/ordering``: minor units sort as amounts do.
  public static var comparability: ColumnComparability { .ordering }

  /// Returns the minor units as an integer.
  ///
  /// - Returns: The stored value.
  public func encodeColumn() -> SQLValue { .integer(minorUnits) }

  /// Reads the minor units.
  ///
  /// - Parameter value: The stored value.
  /// - Throws: When the value is not an integer.
  public init(decodingColumn value: SQLValue) throws {
    self.init(minorUnits: try Int64(decodingColumn: value))
  }
}
