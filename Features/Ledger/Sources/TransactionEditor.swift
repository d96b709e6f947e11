import DraftEditor
import Foundation
import LedgerClient
import Loop

/// Adds or edits one transaction: it holds a draft, checks it, and asks the ledger to save it.
///
/// The editor never touches storage and holds no copy of the ledger's transactions: on save it
/// sends `.delegate(.save(mode, fields))` with the checked values, and the ``Ledger`` adds or
/// updates the transaction through its client. A draft the check refuses stays as typed, and
/// the editor presents why in its alert; when the client fails, the ledger presents the failure
/// in the same alert and the draft stays as it was. The ledger presents the editor as one of
/// its destinations (``Ledger/Destination/State/editor(_:)``); cancelling, it closes itself
/// with the `dismiss` dependency.
///
/// The person edits the draft with binding actions, a field at a time or all of it, then saves:
///
/// ```swift
/// store.send(.destination(.presented(.editor(.binding(.set(\.draft.amount, "12.50"))))))
/// store.send(.destination(.presented(.editor(.saveSubmitted))))
/// ```
///
/// (``Ledger/Action/addSubmitted(_:)`` and ``Ledger/Action/updateSubmitted(_:_:)`` save a whole
/// draft in one action, without the editor, for the `loop` REPL.)
public typealias TransactionEditor = DraftEditor<TransactionEditing>

/// What ``TransactionEditor`` edits: a ``TransactionDraft``, checked into the
/// ``LedgerClient/TransactionFields`` the ledger saves.
public enum TransactionEditing: Editing {
  /// A transaction's id: the draft updates that transaction.
  public typealias ID = LedgerTransaction.ID

  /// The draft's checked values, its date judged in the user's calendar and time zone.
  public static func check(_ draft: TransactionDraft) throws(LedgerError) -> TransactionFields {
    @Dependency(\.calendar) var calendar
    @Dependency(\.date) var date
    @Dependency(\.timeZone) var timeZone
    return try draft.validated(today: date.now, calendar: calendar, timeZone: timeZone)
  }
}
