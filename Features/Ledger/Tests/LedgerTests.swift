import DraftEditor
import Foundation
import Ledger
import LedgerClient
import LoopTesting
import TestSupport
import Testing

/// Three transactions around `now` (2025-03-15 in Seoul): a salary and a lunch in March, rent in
/// February.
let salary = transaction(
  101, .income, 300_000, on: date(2025, 3, 1, 9), memo: "Salary", category: "Work")
let lunch = transaction(
  102, .expense, 1_250, on: date(2025, 3, 10), memo: "Lunch", category: "Food")
let rent = transaction(103, .expense, 50_000, on: date(2025, 2, 20), memo: "Rent", category: "Home")

/// The ledger as loaded from a client holding `transactions`, on `now`.
func loaded(_ transactions: [LedgerTransaction]) -> Ledger.State {
  Ledger.State(
    transactions: IdentifiedArray(
      uniqueElements: transactions.sorted(by: LedgerTransaction.isNewer)),
    months: twelveMonths(endingWith: 2025, 3))
}

@MainActor
@Suite struct LedgerTests {
  // MARK: - Loading

  @Test func onAppearLearnsTheMonthsAndLoadsTheTransactionsNewestFirst() async throws {
    let client = try await seededClient([rent, salary, lunch])
    let store = ledgerStore(client: client)
    await store.send(.onAppear) {
      $0.isLoading = true
      $0.months = twelveMonths(endingWith: 2025, 3)
    }
    await store.receive(.transactionsResponse(.success([lunch, salary, rent]))) {
      $0.isLoading = false
      $0.transactions = [lunch, salary, rent]
    }
    await store.finish()
    #expect(store.state.months.first == month(2024, 4))
    #expect(
      store.state.home.thisMonth
        == MonthSummary(month: month(2025, 3), income: money(300_000), expense: money(1_250)))
  }

  @Test func aLedgerIsLoadingOnlyFromAppearUntilItsTransactionsArrive() async throws {
    let store = ledgerStore(client: try await seededClient([salary]))
    #expect(!store.state.isLoading)
    await store.send(.onAppear) {
      $0.isLoading = true
      $0.months = twelveMonths(endingWith: 2025, 3)
    }
    await store.receive(.transactionsResponse(.success([salary]))) {
      $0.isLoading = false
      $0.transactions = [salary]
    }
    await store.finish()
  }

  @Test func aFailedLoadShowsTheFailureAsAnAlert() async {
    var client = LedgerClient.inMemory()
    client.fetchTransactions = { throw LedgerError.storageFailed("Disk on fire.") }
    let store = ledgerStore(client: client)
    await store.send(.onAppear) {
      $0.isLoading = true
      $0.months = twelveMonths(endingWith: 2025, 3)
    }
    await store.receive(.transactionsResponse(.failure(.storageFailed("Disk on fire.")))) {
      $0.isLoading = false
      $0.destination = .alert(
        AlertState { TextState("The ledger's storage failed: Disk on fire.") })
    }
    await store.finish()
  }

  // MARK: - Adding

  @Test func addingInTheEditorUpdatesHomeAndReportInTheSameStep() async throws {
    let client = try await seededClient([salary, lunch, rent])
    let store = ledgerStore(loaded([salary, lunch, rent]), client: client)
    await store.send(.newSubmitted) {
      $0.destination = .editor(
        TransactionEditor.State(mode: .add, draft: TransactionDraft(date: now)))
    }
    #expect(store.state.home.thisMonth?.expense == money(1_250))
    #expect(
      store.state.report.categories.first
        == CategoryTotal(
          category: "Home", total: money(50_000), count: 1))
    let draft = TransactionDraft(
      kind: .expense, amount: "1,234.50", date: date(2025, 3, 14, 19), memo: "  Dinner ",
      category: " Food ")
    await store.send(.destination(.presented(.editor(.binding(.set(\.draft, draft)))))) {
      $0.destination?.editor?.draft = draft
    }
    await store.send(.destination(.presented(.editor(.saveSubmitted))))
    let fields = TransactionFields(
      kind: .expense, amount: money(123_450), date: date(2025, 3, 14, 19), memo: "Dinner",
      category: "Food")
    await store.receive(.destination(.presented(.editor(.checkResponse(.success(fields)))))) {
      $0.destination?.editor?.isSaving = true
    }
    await store.receive(.destination(.presented(.editor(.delegate(.save(.add, fields))))))

    let dinner = LedgerTransaction(
      id: id(0), kind: .expense, amount: money(123_450), date: date(2025, 3, 14, 19),
      memo: "Dinner", category: "Food", createdAt: now)
    await store.receive(.saveResponse(.success(dinner))) {
      $0.transactions = [dinner, lunch, salary, rent]
      $0.destination = nil
    }
    await store.finish()

    #expect(
      store.state.home
        == LedgerHome.State(
          transactions: [dinner, lunch, salary, rent], month: month(2025, 3)))
    #expect(
      store.state.home.thisMonth
        == MonthSummary(month: month(2025, 3), income: money(300_000), expense: money(124_700)))
    #expect(store.state.home.thisMonth?.balance == money(175_300))
    #expect(store.state.home.recent == [dinner, lunch, salary, rent])
    #expect(
      store.state.report.months.last
        == MonthSummary(month: month(2025, 3), income: money(300_000), expense: money(124_700)))
    #expect(
      store.state.report.categories == [
        CategoryTotal(category: "Food", total: money(124_700), count: 2),
        CategoryTotal(category: "Home", total: money(50_000), count: 1),
      ])
    #expect(try await client.fetchTransactions() == store.state.transactions.elements)
  }

  @Test func aDraftSubmittedAtOnceIsCheckedAndSavedInOneStepWithoutTheEditor() async throws {
    let client = try await seededClient([salary])
    let store = ledgerStore(loaded([salary]), client: client)
    let draft = TransactionDraft(
      kind: .income, amount: "12", date: date(2025, 3, 2), memo: "Refund", category: "")
    await store.send(.addSubmitted(draft))
    let refund = LedgerTransaction(
      id: id(0), kind: .income, amount: money(1_200), date: date(2025, 3, 2), memo: "Refund",
      createdAt: now)
    await store.receive(.saveResponse(.success(refund))) {
      $0.transactions = [refund, salary]
    }
    await store.finish()
    #expect(store.state.home.thisMonth?.balance == money(301_200))
    #expect(try await client.fetchTransactions() == [refund, salary])
  }

  @Test func aMalformedAmountIsRefusedWithTheTextTypedAndNothingIsStored() async throws {
    let client = try await seededClient([salary])
    let store = ledgerStore(loaded([salary]), client: client)
    let draft = TransactionDraft(amount: "12,5,0", date: now, memo: "Typo")
    await store.send(.addSubmitted(draft))
    await store.receive(.saveResponse(.failure(.invalidAmount("12,5,0")))) {
      $0.destination = .alert(.failure(LedgerError.invalidAmount("12,5,0")))
    }
    await store.finish()
    #expect(try await client.fetchTransactions() == [salary])
  }

  @Test func aDraftsDayIsCountedInTheTimeZoneDependencyNotTheCalendars() async throws {
    // NB: 1970-01-01 00:00 in Seoul is still 1969-12-31 in UTC, the calendar's own zone.
    let client = try await seededClient([])
    let draft = TransactionDraft(amount: "5", date: date(1970, 1, 1, 0, 0, 0), memo: "Old")
    let inUTC = ledgerStore(client: client, timeZone: utc)
    await inUTC.send(.addSubmitted(draft))
    let refusal = LedgerError.dateOutOfRange(
      date: "1969-12-31", earliest: "1970-01-01", latest: "2035-03-15")
    #expect(
      refusal.description
        == "'1969-12-31' is not a plausible date: pick a day from 1970-01-01 to 2035-03-15.")
    await inUTC.receive(.saveResponse(.failure(refusal))) {
      $0.destination = .alert(.failure(refusal))
    }
    await inUTC.finish()
    let inSeoul = ledgerStore(client: client)
    await inSeoul.send(.addSubmitted(draft))
    let old = LedgerTransaction(
      id: id(0), kind: .expense, amount: money(500), date: date(1970, 1, 1, 0, 0, 0),
      memo: "Old", createdAt: now)
    await inSeoul.receive(.saveResponse(.success(old))) { $0.transactions = [old] }
    await inSeoul.finish()
    #expect(try await client.fetchTransactions() == [old])
  }

  @Test func aDuplicateIDFailsTheSaveShowsWhyAndARetrySucceeds() async throws {
    let client = try await seededClient([salary])
    let store = ledgerStore(loaded([salary]), client: client)
    // NB: a generator that repeats an id already stored: the client's insert contract fails.
    store.dependencies.uuid = .constant(UUID(counting: 101))
    let draft = TransactionDraft(amount: "8", date: now, memo: "Taxi")
    await store.send(.addSubmitted(draft))
    await store.receive(.saveResponse(.failure(.duplicateTransaction(id(101))))) {
      $0.destination = .alert(.failure(LedgerError.duplicateTransaction(id(101))))
    }
    #expect(try await client.fetchTransactions() == [salary])

    store.dependencies.uuid = .incrementing
    await store.send(.destination(.dismiss)) { $0.destination = nil }
    await store.send(.addSubmitted(draft))
    let taxi = LedgerTransaction(
      id: id(0), kind: .expense, amount: money(800), date: now, memo: "Taxi", createdAt: now)
    await store.receive(.saveResponse(.success(taxi))) {
      $0.transactions = [taxi, salary]
    }
    await store.finish()
  }

  // MARK: - Editing

  @Test func editingMovesATransactionToAnotherMonthInHomeAndReportAtOnce() async throws {
    let client = try await seededClient([salary, lunch, rent])
    let store = ledgerStore(loaded([salary, lunch, rent]), client: client)
    await store.send(.editSubmitted(lunch.id)) {
      $0.destination = .editor(
        TransactionEditor.State(
          mode: .update(lunch.id),
          draft: TransactionDraft(
            kind: .expense, amount: "12.50", date: date(2025, 3, 10), memo: "Lunch",
            category: "Food")))
    }
    var draft = TransactionDraft(lunch)
    draft.amount = "20"
    draft.date = date(2025, 2, 27)
    await store.send(.destination(.presented(.editor(.binding(.set(\.draft, draft)))))) {
      $0.destination?.editor?.draft = draft
    }
    await store.send(.destination(.presented(.editor(.saveSubmitted))))
    let fields = TransactionFields(
      kind: .expense, amount: money(2_000), date: date(2025, 2, 27), memo: "Lunch",
      category: "Food")
    await store.receive(.destination(.presented(.editor(.checkResponse(.success(fields)))))) {
      $0.destination?.editor?.isSaving = true
    }
    await store.receive(
      .destination(.presented(.editor(.delegate(.save(.update(lunch.id), fields))))))
    var moved = lunch
    moved.amount = money(2_000)
    moved.date = date(2025, 2, 27)
    await store.receive(.saveResponse(.success(moved))) {
      $0.transactions = [salary, moved, rent]
      $0.destination = nil
    }
    await store.finish()

    #expect(
      store.state.home.thisMonth
        == MonthSummary(month: month(2025, 3), income: money(300_000), expense: .zero))
    #expect(store.state.home.recent == [salary, moved, rent])
    #expect(
      store.state.report.months.suffix(2) == [
        MonthSummary(month: month(2025, 2), income: .zero, expense: money(52_000)),
        MonthSummary(month: month(2025, 3), income: money(300_000), expense: .zero),
      ])
    #expect(try await client.fetchTransactions() == [salary, moved, rent])
  }

  @Test func aDraftSubmittedForAStoredTransactionUpdatesIt() async throws {
    let client = try await seededClient([salary, lunch])
    let store = ledgerStore(loaded([salary, lunch]), client: client)
    var draft = TransactionDraft(salary)
    draft.amount = "3,100"
    await store.send(.updateSubmitted(salary.id, draft))
    var raised = salary
    raised.amount = money(310_000)
    await store.receive(.saveResponse(.success(raised))) {
      $0.transactions[id: salary.id] = raised
    }
    await store.finish()
    #expect(store.state.home.thisMonth?.balance == money(308_750))
  }

  @Test func updatingATransactionDeletedElsewhereShowsNotFoundAndKeepsTheDraft() async throws {
    let client = try await seededClient([salary, lunch])
    let store = ledgerStore(loaded([salary, lunch]), client: client)
    try await client.deleteTransaction(lunch.id)
    await store.send(.editSubmitted(lunch.id)) {
      $0.destination = .editor(
        TransactionEditor.State(mode: .update(lunch.id), draft: TransactionDraft(lunch)))
    }
    var draft = TransactionDraft(lunch)
    draft.memo = "Lunch with Min"
    await store.send(.destination(.presented(.editor(.binding(.set(\.draft, draft)))))) {
      $0.destination?.editor?.draft = draft
    }
    await store.send(.destination(.presented(.editor(.saveSubmitted))))
    let fields = TransactionFields(
      kind: .expense, amount: money(1_250), date: lunch.date, memo: "Lunch with Min",
      category: "Food")
    await store.receive(.destination(.presented(.editor(.checkResponse(.success(fields)))))) {
      $0.destination?.editor?.isSaving = true
    }
    await store.receive(
      .destination(.presented(.editor(.delegate(.save(.update(lunch.id), fields))))))
    await store.receive(.saveResponse(.failure(.transactionNotFound(lunch.id)))) {
      $0.destination?.editor?.isSaving = false
      $0.destination?.editor?.alert = .failure(LedgerError.transactionNotFound(lunch.id))
    }
    await store.finish()
    #expect(store.state.destination?.editor?.draft == draft)
  }

  @Test func aDraftSubmittedForAnUnknownIDShowsNotFoundWithoutCallingTheClient() async {
    var client = LedgerClient.inMemory()
    client.updateTransaction = unimplemented("LedgerClient.updateTransaction")
    let store = ledgerStore(loaded([salary]), client: client)
    let draft = TransactionDraft(amount: "5", date: now)
    await store.send(.updateSubmitted(id(9), draft))
    await store.receive(.saveResponse(.failure(.transactionNotFound(id(9))))) {
      $0.destination = .alert(.failure(LedgerError.transactionNotFound(id(9))))
    }
    await store.finish()
  }

  @Test func editingAnUnknownTransactionShowsNotFound() async {
    let store = ledgerStore(loaded([salary]), client: .inMemory())
    await store.send(.editSubmitted(id(9))) {
      $0.destination = .alert(.failure(LedgerError.transactionNotFound(id(9))))
    }
  }

  @Test func cancellingClosesTheEditorAndSavesNothing() async throws {
    let client = try await seededClient([salary])
    let store = ledgerStore(loaded([salary]), client: client)
    await store.send(.editSubmitted(salary.id)) {
      $0.destination = .editor(
        TransactionEditor.State(mode: .update(salary.id), draft: TransactionDraft(salary)))
    }
    var draft = TransactionDraft(salary)
    draft.amount = "1"
    await store.send(.destination(.presented(.editor(.binding(.set(\.draft, draft)))))) {
      $0.destination?.editor?.draft = draft
    }
    await store.send(.destination(.presented(.editor(.cancelSubmitted))))
    await store.receive(.destination(.dismiss)) { $0.destination = nil }
    await store.finish()
    #expect(try await client.fetchTransactions() == [salary])
  }

  // MARK: - Responses outside the editor

  @Test func aSaveAnsweredAfterTheEditorClosedStillUpdatesTheLedger() async {
    let store = ledgerStore(loaded([salary]), client: .inMemory())
    await store.send(.saveResponse(.success(lunch))) {
      $0.transactions = [lunch, salary]
    }
    await store.send(.saveResponse(.failure(.storageFailed("Disk full.")))) {
      $0.destination = .alert(.failure(LedgerError.storageFailed("Disk full.")))
    }
  }

  @Test func aSaveAnsweredWhileAnotherEditIsOpenLeavesThatEditorOpen() async {
    let editor = TransactionEditor.State(mode: .update(salary.id), draft: TransactionDraft(salary))
    var state = loaded([salary])
    state.destination = .editor(editor)
    let store = ledgerStore(state, client: .inMemory())
    await store.send(.saveResponse(.success(lunch))) {
      $0.transactions = [lunch, salary]
    }
  }

  @Test func aFailureTheOpenEditorDidNotAskForIsShownInItsPlace() async {
    let editor = TransactionEditor.State(mode: .update(salary.id), draft: TransactionDraft(salary))
    var state = loaded([salary])
    state.destination = .editor(editor)
    let store = ledgerStore(state, client: .inMemory())
    await store.send(.saveResponse(.failure(.storageFailed("Disk full.")))) {
      $0.destination = .alert(
        AlertState { TextState("The ledger's storage failed: Disk full.") })
    }
  }

  // MARK: - Deleting

  @Test func deletingRemovesTheTransactionFromHomeAndReport() async throws {
    let client = try await seededClient([salary, lunch, rent])
    let store = ledgerStore(loaded([salary, lunch, rent]), client: client)
    await store.send(.deleteSubmitted(lunch.id))
    await store.receive(.deleteResponse(.success(lunch.id))) {
      $0.transactions.remove(id: lunch.id)
    }
    await store.finish()
    #expect(store.state.home.recent == [salary, rent])
    #expect(store.state.home.thisMonth?.expense == .zero)
    #expect(
      store.state.report.categories == [
        CategoryTotal(category: "Home", total: money(50_000), count: 1)
      ])
    #expect(try await client.fetchTransactions() == [salary, rent])
  }

  @Test func deletingAMissingTransactionShowsNotFound() async throws {
    let client = try await seededClient([salary])
    let store = ledgerStore(loaded([salary]), client: client)
    await store.send(.deleteSubmitted(id(9)))
    await store.receive(.deleteResponse(.failure(.transactionNotFound(id(9))))) {
      $0.destination = .alert(.failure(LedgerError.transactionNotFound(id(9))))
    }
    await store.finish()
    #expect(try await client.fetchTransactions() == [salary])
  }

  // MARK: - Children

  @Test func homeAsksTheLedgerToOpenTheEditor() async {
    let store = ledgerStore(loaded([salary, lunch]), client: .inMemory())
    await store.send(.home(.newSubmitted))
    await store.receive(.home(.delegate(.newTransaction))) {
      $0.destination = .editor(
        TransactionEditor.State(mode: .add, draft: TransactionDraft(date: now)))
    }
    await store.send(.destination(.presented(.editor(.cancelSubmitted))))
    await store.receive(.destination(.dismiss)) { $0.destination = nil }
    await store.send(.home(.transactionSelected(lunch.id)))
    await store.receive(.home(.delegate(.editTransaction(lunch.id)))) {
      $0.destination = .editor(
        TransactionEditor.State(mode: .update(lunch.id), draft: TransactionDraft(lunch)))
    }
  }

  @Test func theReportKeepsItsChoiceOfCategoryTotals() async {
    let store = ledgerStore(loaded([salary, lunch, rent]), client: .inMemory())
    #expect(
      store.state.report.categories == [
        CategoryTotal(category: "Home", total: money(50_000), count: 1),
        CategoryTotal(category: "Food", total: money(1_250), count: 1),
      ])
    await store.send(.report(.categoryKindSelected(.income))) { $0.categoryKind = .income }
    #expect(store.state.report.categoryKind == .income)
    #expect(
      store.state.report.categories == [
        CategoryTotal(category: "Work", total: money(300_000), count: 1)
      ])
  }

  // MARK: - Months and time zones

  @Test func homesBalanceCountsExactlyTheInstantsOfThisMonth() async throws {
    let lastOfFebruary = transaction(1, .income, 1, on: date(2025, 2, 28, 23, 59, 59))
    let firstOfMarch = transaction(2, .income, 10, on: date(2025, 3, 1, 0, 0, 0))
    let lastOfMarch = transaction(3, .income, 100, on: date(2025, 3, 31, 23, 59, 59))
    let firstOfApril = transaction(4, .income, 1_000, on: date(2025, 4, 1, 0, 0, 0))
    let all = [lastOfFebruary, firstOfMarch, lastOfMarch, firstOfApril]
    let client = try await seededClient(all)

    let endOfMarch = ledgerStore(client: client, date: date(2025, 3, 31, 23, 59, 59))
    await endOfMarch.send(.onAppear) {
      $0.isLoading = true
      $0.months = twelveMonths(endingWith: 2025, 3)
    }
    await endOfMarch.receive(.transactionsResponse(.success(all.reversed()))) {
      $0.isLoading = false
      $0.transactions = IdentifiedArray(uniqueElements: all.reversed())
    }
    #expect(
      endOfMarch.state.home.thisMonth
        == MonthSummary(month: month(2025, 3), income: money(110), expense: .zero))

    let startOfApril = ledgerStore(client: client, date: date(2025, 4, 1, 0, 0, 0))
    await startOfApril.send(.onAppear) {
      $0.isLoading = true
      $0.months = twelveMonths(endingWith: 2025, 4)
    }
    await startOfApril.receive(.transactionsResponse(.success(all.reversed()))) {
      $0.isLoading = false
      $0.transactions = IdentifiedArray(uniqueElements: all.reversed())
    }
    #expect(
      startOfApril.state.home.thisMonth
        == MonthSummary(month: month(2025, 4), income: money(1_000), expense: .zero))
  }

  @Test func changingTheTimeZoneMovesTransactionsBetweenMonths() async throws {
    // 2025-03-01 05:00 in Seoul is 2025-02-28 20:00 in UTC.
    let early = transaction(1, .expense, 700, on: date(2025, 3, 1, 5))
    let client = try await seededClient([early])
    let store = ledgerStore(client: client, date: date(2025, 3, 1, 10))
    await store.send(.onAppear) {
      $0.isLoading = true
      $0.months = twelveMonths(endingWith: 2025, 3)
    }
    await store.receive(.transactionsResponse(.success([early]))) {
      $0.isLoading = false
      $0.transactions = [early]
    }
    #expect(store.state.home.thisMonth?.expense == money(700))

    store.dependencies.timeZone = utc
    await store.send(.onAppear) {
      $0.isLoading = true
      $0.months = twelveMonths(endingWith: 2025, 3, in: utc)
    }
    await store.receive(.transactionsResponse(.success([early]))) { $0.isLoading = false }
    #expect(store.state.home.thisMonth?.expense == .zero)
    #expect(
      store.state.report.months.suffix(2) == [
        MonthSummary(month: month(2025, 2, in: utc), income: .zero, expense: money(700)),
        MonthSummary(month: month(2025, 3, in: utc), income: .zero, expense: .zero),
      ])
    await store.finish()
  }
}
