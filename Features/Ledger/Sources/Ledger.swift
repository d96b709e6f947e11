import DraftEditor
import Foundation
import LedgerClient
import Loop

/// A household ledger with one source of truth: the root owns the loaded transactions and makes
/// every change to them through ``LedgerClient/LedgerClient``.
///
/// Its children derive from it and ask it for changes, never holding a copy:
/// - ``LedgerHome``: this month's balance and the 4 most recent transactions (``State/home``).
/// - ``LedgerReport``: 12 months of income, expense and balance, and per-category totals
///   (``State/report``).
/// - ``TransactionEditor``: presented over the ledger (``Destination/State/editor(_:)``); a
///   draft, checked on save, then handed to the ledger (`.delegate(.save)`), which adds or
///   updates the transaction and closes the editor. Cancelling, the editor closes itself.
///
/// Because Home and Report are computed from ``State/transactions``, a saved edit changes both
/// in the same step that stores it.
///
/// The editor and an alert are the ledger's ``Destination``s, one at a time. A failure of the
/// client (or a draft the one-step save refuses) is presented as an alert
/// (``Destination/State/alert(_:)``, made by `AlertState.failure(_:)`) in place of what was
/// presented; it asks nothing and closes on `.destination(.dismiss)`. A save the editor asked
/// for that fails is the exception: the editor stays open with its draft and presents the
/// failure in its own alert, as it presents a draft its check refuses.
///
/// Each command of the `loop` REPL is one action: `onAppear` (load), `addSubmitted` and
/// `updateSubmitted` (in one step, without the editor), `deleteSubmitted` (remove); `home`,
/// `report` and the list read the state.
public struct Ledger: Reducer, Sendable {
  /// The ledger's state: the transactions, and the little the screens keep of their own.
  public struct State: Equatable, Sendable {
    /// Every transaction, newest first (``LedgerClient/LedgerTransaction/isNewer(_:than:)``):
    /// the one source of truth.
    public var transactions: IdentifiedArrayOf<LedgerTransaction>
    /// The months the report covers, oldest first; the last is this month.
    ///
    /// There are ``LedgerReport/State/monthCount`` of them, set from the `date`, `calendar` and
    /// `timeZone` dependencies on appear.
    public var months: [LedgerMonth]
    /// The report's choice of category totals.
    public var categoryKind: LedgerTransaction.Kind
    /// What the ledger presents: the editor, or a failure shown to the person (why loading,
    /// deleting or saving failed); `nil` for none.
    @Presents public var destination: Destination.State?
    /// Whether the transactions are being loaded.
    public var isLoading: Bool

    /// Creates the ledger's state.
    public init(
      transactions: IdentifiedArrayOf<LedgerTransaction> = [], months: [LedgerMonth] = [],
      categoryKind: LedgerTransaction.Kind = .expense, destination: Destination.State? = nil,
      isLoading: Bool = false
    ) {
      self.transactions = transactions
      self.months = months
      self.categoryKind = categoryKind
      self.destination = destination
      self.isLoading = isLoading
    }

    /// The home screen, derived from ``transactions`` and this month.
    public var home: LedgerHome.State {
      get { LedgerHome.State(transactions: transactions, month: months.last) }
      // NB: the home screen owns no state: its reducer only sends delegate actions, so there is
      // nothing to write back.
      set {}
    }

    /// The report, derived from ``transactions`` and ``months``; only its ``categoryKind`` is
    /// kept.
    public var report: LedgerReport.State {
      get {
        LedgerReport.State(categoryKind: categoryKind, transactions: transactions, months: months)
      }
      set { categoryKind = newValue.categoryKind }
    }
  }

  /// What the ledger presents over itself, one at a time: the editor of a transaction, or a
  /// failure of the client.
  ///
  /// ```swift
  /// store.send(.newSubmitted)  // state.destination == .editor(…)
  /// store.send(.destination(.presented(.editor(.saveSubmitted))))
  /// store.send(.destination(.dismiss))  // state.destination == nil
  /// ```
  public struct Destination: Reducer {
    /// The presented child.
    public enum State: Equatable, Sendable, CasePathable {
      /// A failure of the client, which asks nothing.
      case alert(AlertState<Alert>)
      /// The editor of a new or a stored transaction.
      case editor(TransactionEditor.State)

      /// The ledger client's failure, when that is what is presented; set, it changes in place.
      public var alert: AlertState<Alert>? {
        get { self[case: .case(State.alert)] }
        set { self[case: .case(State.alert)] = newValue }
      }

      /// The editor, when that is what is presented; set, it changes in place.
      public var editor: TransactionEditor.State? {
        get { self[case: .case(State.editor)] }
        set { self[case: .case(State.editor)] = newValue }
      }
    }

    /// What the editor or the failure alert sends.
    public enum Action: Equatable, Sendable {
      /// The alert's answer: none, a failure asks nothing.
      case alert(Alert)
      /// The editor's action.
      case editor(TransactionEditor.Action)
    }

    /// The answers to the ledger's alerts: none, a failure asks nothing.
    public enum Alert: Equatable, Sendable {}

    /// Creates the reducer.
    public init() {}

    /// Each child on its case.
    public var body: some ReducerOf<Self> {
      Scope(state: .case(State.alert), action: .case(Action.alert)) { EmptyReducer() }
      Scope(state: .case(State.editor), action: .case(Action.editor)) { TransactionEditor() }
    }
  }

  /// What happens in the ledger.
  public enum Action: Equatable, Sendable {
    /// A complete new transaction arrives at once (the REPL's `ledger add`): it is checked as
    /// the editor checks a draft and added, in one step, without opening the editor; a draft the
    /// check refuses is answered as a failed save (``saveResponse(_:)``).
    case addSubmitted(TransactionDraft)
    /// The client deleted a transaction, or failed to.
    case deleteResponse(Result<LedgerTransaction.ID, LedgerError>)
    /// The person removes a transaction.
    case deleteSubmitted(LedgerTransaction.ID)
    /// The editor's actions, or the closing of the editor or of the failure shown.
    case destination(PresentationAction<Destination.Action>)
    /// The person picked a transaction to edit: opens the editor with its values.
    case editSubmitted(LedgerTransaction.ID)
    /// The home screen's actions.
    case home(LedgerHome.Action)
    /// The person asked for a new transaction: opens the editor with an empty draft for today.
    case newSubmitted
    /// The ledger appeared: learns this month, loads the transactions.
    case onAppear
    /// The report's actions.
    case report(LedgerReport.Action)
    /// The client added or updated a transaction, or failed to.
    case saveResponse(Result<LedgerTransaction, LedgerError>)
    /// The client loaded the transactions, or failed to.
    case transactionsResponse(Result<[LedgerTransaction], LedgerError>)
    /// A stored transaction's complete new values arrive at once (the REPL's `ledger update`):
    /// checked and saved in one step, as ``addSubmitted(_:)`` adds.
    case updateSubmitted(LedgerTransaction.ID, TransactionDraft)
  }

  @Dependency(\.calendar) var calendar
  @Dependency(\.date) var date
  @Dependency(\.ledgerClient) var ledgerClient
  @Dependency(\.timeZone) var timeZone
  @Dependency(\.uuid) var uuid

  /// Creates the ledger's reducer.
  public init() {}

  /// The children first, on state derived from the root; then the root, which performs every
  /// change.
  public var body: some ReducerOf<Self> {
    Scope(state: \.home, action: .case(Action.home)) { LedgerHome() }
    Scope(state: \.report, action: .case(Action.report)) { LedgerReport() }
    Reduce { state, action in
      switch action {
      case .newSubmitted, .home(.delegate(.newTransaction)):
        state.destination = .editor(
          TransactionEditor.State(mode: .add, draft: TransactionDraft(date: date.now)))
        return .none

      case .deleteSubmitted(let id):
        return .run { send in
          await send(
            .deleteResponse(
              await Result {
                try await ledgerClient.deleteTransaction(id)
                return id
              }))
        }

      case .addSubmitted(let draft):
        return submit(draft, mode: .add, state: state)

      case .updateSubmitted(let id, let draft):
        return submit(draft, mode: .update(id), state: state)

      case .editSubmitted(let id), .home(.delegate(.editTransaction(let id))):
        guard let transaction = state.transactions[id: id] else {
          state.destination = .alert(.failure(LedgerError.transactionNotFound(id)))
          return .none
        }
        state.destination = .editor(
          TransactionEditor.State(mode: .update(id), draft: TransactionDraft(transaction)))
        return .none

      case .destination(.presented(.editor(.delegate(.save(let mode, let fields))))):
        return save(fields, mode: mode, state: state)

      case .destination:
        return .none

      case .home:
        return .none

      case .onAppear:
        state.isLoading = true
        state.months = LedgerMonth.months(
          endingWith: date.now, count: LedgerReport.State.monthCount,
          calendar: calendar.setting(timeZone))
        return .run { send in
          await send(
            .transactionsResponse(await Result { try await ledgerClient.fetchTransactions() }))
        }

      case .report:
        return .none

      case .deleteResponse(.success(let id)):
        state.transactions.remove(id: id)
        return .none

      case .deleteResponse(.failure(let error)):
        state.destination = .alert(.failure(error))
        return .none

      case .saveResponse(.success(let transaction)):
        if state.transactions.contains(id: transaction.id) {
          state.transactions[id: transaction.id] = transaction
          state.transactions.sort(by: LedgerTransaction.isNewer)
        } else {
          // NB: the list is newest first already, so a new transaction goes to its place
          // without sorting every transaction again.
          state.transactions.insert(
            transaction, at: Self.index(of: transaction, in: state.transactions))
        }
        if state.destination?.editor?.isSaving == true {
          state.destination = nil
        }
        return .none

      case .saveResponse(.failure(let error)):
        guard state.destination?.editor?.isSaving == true else {
          state.destination = .alert(.failure(error))
          return .none
        }
        // NB: the editor asked for this save: it stays open with its draft and shows why.
        state.destination?.editor?.saveFailed(error)
        return .none

      case .transactionsResponse(.success(let transactions)):
        state.isLoading = false
        state.transactions = IdentifiedArray(uniqueElements: transactions)
        return .none

      case .transactionsResponse(.failure(let error)):
        state.isLoading = false
        state.destination = .alert(.failure(error))
        return .none
      }
    }
    .ifLet(\.$destination, action: .case(Action.destination)) { Destination() }
  }

  /// Where `transaction` goes in `transactions` (newest first): after every newer one.
  ///
  /// - Complexity: O(log *n*).
  private static func index(
    of transaction: LedgerTransaction, in transactions: IdentifiedArrayOf<LedgerTransaction>
  ) -> Int {
    var low = 0
    var high = transactions.count
    while low < high {
      let middle = (low + high) / 2
      if LedgerTransaction.isNewer(transactions[middle], than: transaction) {
        low = middle + 1
      } else {
        high = middle
      }
    }
    return low
  }

  /// Checks a draft that arrived whole, as the editor checks one, then saves it; a draft the
  /// check refuses is answered as a failed save.
  private func submit(
    _ draft: TransactionDraft, mode: TransactionEditor.Mode, state: State
  ) -> Effect<Action> {
    do throws(LedgerError) {
      let fields = try draft.validated(today: date.now, calendar: calendar, timeZone: timeZone)
      return save(fields, mode: mode, state: state)
    } catch {
      return .send(.saveResponse(.failure(error)))
    }
  }

  /// Adds a new transaction (a fresh id, created now) or updates the edited one, through the
  /// client.
  ///
  /// NB: the clock is read again for the creation, after the check's reading: a recorded
  /// session's clock hands out its instants in the order they are read.
  private func save(
    _ fields: TransactionFields, mode: TransactionEditor.Mode, state: State
  ) -> Effect<Action> {
    switch mode {
    case .add:
      let transaction = LedgerTransaction(
        id: LedgerTransaction.ID(uuid()), createdAt: date.now, fields: fields)
      return .run { send in
        await send(
          .saveResponse(await Result { try await ledgerClient.addTransaction(transaction) }))
      }
    case .update(let id):
      guard let stored = state.transactions[id: id] else {
        return .send(.saveResponse(.failure(.transactionNotFound(id))))
      }
      let transaction = stored.applying(fields)
      return .run { send in
        await send(
          .saveResponse(await Result { try await ledgerClient.updateTransaction(transaction) }))
      }
    }
  }
}
