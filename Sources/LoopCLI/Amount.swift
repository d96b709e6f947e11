import LedgerClient

/// A transaction's amount as typed on a command line, checked before the command's handler
/// runs, by the ledger's own rules: ``LedgerClient/Money/init(parsing:decimalSeparator:)``
/// reads it (`12.50`, `1,234.50`, `12`), and it must be greater than zero and at most
/// ``LedgerClient/Money/maximum`` (``LedgerClient/LedgerTransaction/validate(amount:memo:category:)``).
///
/// A word that is no such amount is refused with the ledger's own sentence, such as `'abc' is
/// not an amount.`, and nothing runs.
struct Amount: Sendable, Equatable {
  /// How much.
  let money: Money
  /// The word as typed: what a draft holds, as the ledger's editor field would.
  let text: String

  /// What `help` says of an amount, argument or option.
  static let help = "the amount, such as 12.50 or 1,234.50: more than zero, at most 2 decimals"

  /// The amount `text` writes.
  ///
  /// - Parameter text: What the user typed.
  /// - Throws: ``CommandError`` with the ``LedgerClient/LedgerError`` sentence: not an amount,
  ///   more than two decimal places, not greater than zero, or more than the largest amount.
  init(_ text: String) throws(CommandError) {
    do throws(LedgerError) {
      let money = try Money(parsing: text)
      // NB: the rules every stored amount keeps, from the ledger: no second copy of them here.
      try LedgerTransaction.validate(amount: money, memo: "", category: nil)
      self.money = money
    } catch {
      throw CommandError(error.description)
    }
    self.text = text
  }
}
