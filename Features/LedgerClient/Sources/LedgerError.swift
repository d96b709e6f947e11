import Foundation
import Loop

/// Every way the ledger refuses or fails: bad input, a broken storage contract, a storage
/// failure.
///
/// Each case carries what the person needs to fix it (the id, the text they typed), and its
/// ``description`` is a sentence to show as is:
///
/// ```swift
/// LedgerError.invalidAmount("12,5,0").description  // "'12,5,0' is not an amount."
/// ```
public enum LedgerError: StorageFailing, Equatable, Sendable, CustomStringConvertible,
  LocalizedError
{
  /// `addTransaction` was given a transaction whose id is already stored; nothing was written.
  case duplicateTransaction(LedgerTransaction.ID)
  /// `updateTransaction` or `deleteTransaction` was given an id that is not stored; nothing
  /// was written.
  case transactionNotFound(LedgerTransaction.ID)
  /// The text is not an amount (letters, a currency sign, misplaced group separators, ...).
  case invalidAmount(String)
  /// The text has more than ``Money/decimalPlaces`` decimals.
  case tooManyDecimalPlaces(String)
  /// The amount (as typed, or as formatted) is larger than ``Money/maximum``.
  case amountTooLarge(String)
  /// A transaction's amount must be greater than zero; this is the formatted amount.
  case amountNotPositive(String)
  /// The date (`YYYY-MM-DD`) is before 1970-01-01 or more than ten years ahead; `earliest` and
  /// `latest` are the allowed days.
  case dateOutOfRange(date: String, earliest: String, latest: String)
  /// The memo has `length` characters, more than `limit`.
  case memoTooLong(length: Int, limit: Int)
  /// The category has `length` characters, more than `limit`.
  case categoryTooLong(length: Int, limit: Int)
  /// The storage could not be opened, read or written; the message says why.
  case storageFailed(String)
  /// The transaction at `position` (1-based) of an import breaks a rule, given as `reason`;
  /// nothing was imported.
  indirect case importRowInvalid(position: Int, reason: LedgerError)

  /// A sentence describing the problem, with the person's input in single quotes.
  public var description: String {
    switch self {
    case .duplicateTransaction(let id):
      return "A transaction with id '\(id)' already exists."
    case .transactionNotFound(let id):
      return "No transaction with id '\(id)' exists."
    case .invalidAmount(let text):
      return "'\(text)' is not an amount."
    case .tooManyDecimalPlaces(let text):
      return "'\(text)' has more than \(Money.decimalPlaces) decimal places."
    case .amountTooLarge(let text):
      return "'\(text)' is more than the largest amount, \(Money.maximum)."
    case .amountNotPositive(let text):
      return "The amount must be greater than zero, not '\(text)'."
    case .dateOutOfRange(let date, let earliest, let latest):
      return "'\(date)' is not a plausible date: pick a day from \(earliest) to \(latest)."
    case .memoTooLong(let length, let limit):
      return "The memo is \(length) characters long; the limit is \(limit)."
    case .categoryTooLong(let length, let limit):
      return "The category is \(length) characters long; the limit is \(limit)."
    case .storageFailed(let message):
      return "The ledger's storage failed: \(message)"
    case .importRowInvalid(let position, let reason):
      return "Transaction \(position) of the import is invalid, so nothing was imported: \(reason)"
    }
  }

  /// The same sentence as ``description``, for `localizedDescription`.
  public var errorDescription: String? { description }

  /// The ledger's error for any error: itself when it already is one, otherwise
  /// ``storageFailed(_:)`` with the error's own sentence.
  public init(_ error: any Error) {
    self = .captured(error)
  }
}
