import Foundation
import LedgerClient
import Loop

/// Adds or edits one transaction: it holds a draft, checks it, and asks the ledger to save it.
///
/// The editor never touches storage and holds no copy of the ledger's transactions: on save it
/// sends ``Action/Delegate/save(_:_:)`` with the checked values, and the ``Ledger`` adds or
/// updates the transaction through its client. When that fails, the ledger puts the message in
/// ``State/errorMessage`` and the draft stays as it was. The ledger presents it
/// (`@Presents`); cancelling, it closes itself with the `dismiss` dependency.
///
/// The person edits the draft with binding actions, a field at a time or all of it, then saves:
///
/// ```swift
/// store.send(.editor(.presented(.binding(.set(\.draft.amount, "12.50")))))
/// store.send(.editor(.presented(.saveSubmitted)))
/// ```
///
/// (``Ledger/Action/draftSubmitted(_:_:)`` opens the editor with a draft and saves it in one
/// action, for the `loop` REPL.)
public struct TransactionEditor: Reducer {
  /// Whether the editor makes a new transaction or changes a stored one.
  public enum Mode: Equatable, Sendable {
    /// A new transaction.
    case add
    /// The stored transaction with this id.
    case update(LedgerTransaction.ID)
  }

  /// The editor's own state: the draft and how saving it went.
  public struct State: Equatable, Sendable {
    /// Add or edit.
    public var mode: Mode
    /// The values as typed.
    public var draft: TransactionDraft
    /// Why the last save failed (a check or the storage), or `nil`.
    public var errorMessage: String?
    /// Whether the ledger is saving the draft; another save waits until it answers.
    public var isSaving: Bool

    /// Creates the editor's state.
    public init(
      mode: Mode, draft: TransactionDraft, errorMessage: String? = nil, isSaving: Bool = false
    ) {
      self.mode = mode
      self.draft = draft
      self.errorMessage = errorMessage
      self.isSaving = isSaving
    }
  }

  /// What happens in the editor.
  public enum Action: BindableAction, Equatable, Sendable {
    /// The person changed the draft (a field, or all of it); it clears the last error.
    case binding(BindingAction<State>)
    /// The person gave up: the editor closes itself, saving nothing.
    case cancelSubmitted
    /// A request to the ledger.
    case delegate(Delegate)
    /// The person asked to save: the draft is checked and, when valid, handed to the ledger.
    case saveSubmitted

    /// What the editor asks of the ``Ledger``.
    public enum Delegate: Equatable, Sendable {
      /// Add (or update) a transaction with these checked values.
      case save(Mode, TransactionFields)
    }
  }

  @Dependency(\.calendar) var calendar
  @Dependency(\.date) var date
  @Dependency(\.dismiss) var dismiss
  @Dependency(\.timeZone) var timeZone

  /// Creates the editor's reducer.
  public init() {}

  /// Checks the draft on save; every change to storage is the ledger's.
  public var body: some ReducerOf<Self> {
    BindingReducer()
      .onChange(of: \.draft) { _, _ in
        // NB: an error is about the draft it was found in: a changed draft has none yet.
        Reduce { state, _ in
          state.errorMessage = nil
          return .none
        }
      }
    Reduce { state, action in
      switch action {
      case .binding, .delegate:
        return .none

      case .cancelSubmitted:
        return .run { [dismiss] _ in await dismiss() }

      case .saveSubmitted:
        guard !state.isSaving else { return .none }
        do throws(LedgerError) {
          let fields = try state.draft.validated(
            today: date.now, calendar: calendar.setting(timeZone))
          state.errorMessage = nil
          state.isSaving = true
          return .send(.delegate(.save(state.mode, fields)))
        } catch {
          state.errorMessage = error.description
          return .none
        }
      }
    }
  }
}
