import DraftEditor
import Foundation
import Ledger
import LedgerClient
import LoopTesting
import TestSupport
import Testing

/// A test store of the editor alone, on `now` in `timeZone` (Seoul unless given).
@MainActor
func editorStore(
  _ state: TransactionEditor.State, date: Date = now, timeZone: TimeZone = seoul
) -> TestStore<TransactionEditor.State, TransactionEditor.Action> {
  TestStore(initialState: state) {
    TransactionEditor()
  } withDependencies: {
    $0.date = .constant(date)
    $0.uuid = .incrementing
    $0.calendar = gregorian(utc)
    $0.timeZone = timeZone
    $0.continuousClock = TestClock()
  }
}

@MainActor
@Suite struct TransactionEditorTests {
  @Test func savingAValidDraftHandsTrimmedValuesToTheLedger() async {
    let draft = TransactionDraft(
      kind: .income, amount: " 1,234.5 ", date: date(2025, 3, 1), memo: "\tBonus  ",
      category: "   ")
    let store = editorStore(TransactionEditor.State(mode: .add, draft: draft))
    let fields = TransactionFields(
      kind: .income, amount: money(123_450), date: date(2025, 3, 1), memo: "Bonus",
      category: nil)
    await store.send(.saveSubmitted)
    await store.receive(.checkResponse(.success(fields))) { $0.isSaving = true }
    await store.receive(.delegate(.save(.add, fields)))
    await store.finish()
  }

  @Test func anInvalidDraftShowsWhyThenSavesOnceCorrected() async {
    let draft = TransactionDraft(amount: "0", date: now)
    let store = editorStore(TransactionEditor.State(mode: .update(id(3)), draft: draft))
    await store.send(.saveSubmitted)
    await store.receive(.checkResponse(.failure(.amountNotPositive("0.00")))) {
      $0.alert = AlertState {
        TextState("The amount must be greater than zero, not '0.00'.")
      }
    }
    await store.send(.alert(.dismiss)) { $0.alert = nil }
    await store.send(.binding(.set(\.draft.amount, "0.5"))) { $0.draft.amount = "0.5" }
    let fields = TransactionFields(
      kind: .expense, amount: money(50), date: now, memo: "", category: nil)
    await store.send(.saveSubmitted)
    await store.receive(.checkResponse(.success(fields))) { $0.isSaving = true }
    await store.receive(.delegate(.save(.update(id(3)), fields)))
  }

  @Test func savingAgainAfterTheLedgerFailedToSaveClosesItsFailure() async {
    let store = editorStore(
      TransactionEditor.State(
        mode: .add, draft: TransactionDraft(amount: "5", date: now),
        alert: .failure(LedgerError.storageFailed("Disk full."))))
    let fields = TransactionFields(
      kind: .expense, amount: money(500), date: now, memo: "", category: nil)
    await store.send(.saveSubmitted)
    await store.receive(.checkResponse(.success(fields))) {
      $0.alert = nil
      $0.isSaving = true
    }
    await store.receive(.delegate(.save(.add, fields)))
  }

  @Test func aSecondSaveWhileSavingIsIgnored() async {
    let store = editorStore(
      TransactionEditor.State(
        mode: .add, draft: TransactionDraft(amount: "5", date: now), isSaving: true))
    await store.send(.saveSubmitted)
  }

  @Test func cancelClosesTheEditor() async {
    let dismissals = Dismissals()
    let store = editorStore(
      TransactionEditor.State(mode: .add, draft: TransactionDraft(date: now)))
    store.dependencies.dismiss = DismissEffect { dismissals.count += 1 }
    await store.send(.cancelSubmitted)
    await store.finish()
    #expect(dismissals.count == 1)
  }

  @Test func delegateActionsAreTheLedgersToHandle() async {
    let draft = TransactionDraft(amount: "5", date: now)
    let store = editorStore(TransactionEditor.State(mode: .add, draft: draft))
    await store.send(
      .delegate(
        .save(
          .add,
          TransactionFields(kind: .expense, amount: money(500), date: now, memo: "", category: nil)
        )))
  }

  struct Refusal: CustomTestStringConvertible, Sendable {
    var name: String
    var draft: TransactionDraft
    var message: String
    var testDescription: String { name }
  }

  @Test(arguments: [
    Refusal(
      name: "a malformed amount", draft: TransactionDraft(amount: "12,5,0", date: now),
      message: "'12,5,0' is not an amount."),
    Refusal(
      name: "an empty amount", draft: TransactionDraft(amount: "", date: now),
      message: "'' is not an amount."),
    Refusal(
      name: "a European amount", draft: TransactionDraft(amount: "1.234,50", date: now),
      message: "'1.234,50' is not an amount."),
    Refusal(
      name: "three decimals", draft: TransactionDraft(amount: "12.505", date: now),
      message: "'12.505' has more than 2 decimal places."),
    Refusal(
      name: "a negative amount", draft: TransactionDraft(amount: "-5", date: now),
      message: "The amount must be greater than zero, not '-5.00'."),
    Refusal(
      name: "a billion", draft: TransactionDraft(amount: "1,000,000,000", date: now),
      message: "'1,000,000,000' is more than the largest amount, 999,999,999.99."),
    Refusal(
      name: "a long memo",
      draft: TransactionDraft(amount: "5", date: now, memo: String(repeating: "가", count: 201)),
      message: "The memo is 201 characters long; the limit is 200."),
    Refusal(
      name: "a long category",
      draft: TransactionDraft(
        amount: "5", date: now, category: " " + String(repeating: "c", count: 41)),
      message: "The category is 41 characters long; the limit is 40."),
    Refusal(
      name: "the last second of 1969",
      draft: TransactionDraft(amount: "5", date: date(1969, 12, 31, 23, 59, 59)),
      message:
        "'1969-12-31' is not a plausible date: pick a day from 1970-01-01 to 2035-03-15."),
    Refusal(
      name: "the day after ten years",
      draft: TransactionDraft(amount: "5", date: date(2035, 3, 16, 0, 0, 0)),
      message:
        "'2035-03-16' is not a plausible date: pick a day from 1970-01-01 to 2035-03-15."),
    Refusal(
      name: "the year 9999",
      draft: TransactionDraft(amount: "5", date: date(9999, 1, 1)),
      message:
        "'9999-01-01' is not a plausible date: pick a day from 1970-01-01 to 2035-03-15."),
    Refusal(
      name: "an amount before a date",
      draft: TransactionDraft(amount: "x", date: date(1900, 1, 1)),
      message: "'x' is not an amount."),
  ])
  func refusesAnInvalidDraftWithASpecificMessage(_ refusal: Refusal) async {
    let store = editorStore(TransactionEditor.State(mode: .add, draft: refusal.draft))
    await store.send(.saveSubmitted)
    await store.receive(.case(TransactionEditor.Action.checkResponse)) {
      $0.alert = AlertState { TextState(refusal.message) }
    }
  }

  @Test(arguments: [
    date(1970, 1, 1, 0, 0, 0), date(2035, 3, 15, 23, 59, 59), date(2025, 3, 15, 10),
  ])
  func acceptsEveryDayFrom1970ToTenYearsAhead(_ day: Date) throws {
    let fields = try TransactionDraft(amount: "1", date: day)
      .validated(today: now, calendar: gregorian(seoul))
    #expect(fields.date == day)
  }

  @Test func theDaysAreCountedInTheTimeZone() async {
    // 1970-01-01 00:00 in Seoul is still 1969-12-31 in UTC.
    let draft = TransactionDraft(amount: "5", date: date(1970, 1, 1, 0, 0, 0))
    let inUTC = editorStore(TransactionEditor.State(mode: .add, draft: draft), timeZone: utc)
    await inUTC.send(.saveSubmitted)
    await inUTC.receive(.case(TransactionEditor.Action.checkResponse)) {
      $0.alert = AlertState {
        TextState(
          "'1969-12-31' is not a plausible date: pick a day from 1970-01-01 to 2035-03-15.")
      }
    }
    let inSeoul = editorStore(TransactionEditor.State(mode: .add, draft: draft))
    let fields = TransactionFields(
      kind: .expense, amount: money(500), date: date(1970, 1, 1, 0, 0, 0), memo: "",
      category: nil)
    await inSeoul.send(.saveSubmitted)
    await inSeoul.receive(.checkResponse(.success(fields))) { $0.isSaving = true }
    await inSeoul.receive(.delegate(.save(.add, fields)))
  }

  @Test func validationTrimsTheMemoAndCategoryOfWhitespaceAroundThemOnly() throws {
    let draft = TransactionDraft(
      amount: "2", date: date(2025, 3, 1), memo: "\u{00A0}Dinner\u{3000}out\n",
      category: "\u{2003} \t")
    #expect(
      try draft.validated(today: now, calendar: gregorian(seoul))
        == TransactionFields(
          kind: .expense, amount: money(200), date: date(2025, 3, 1), memo: "Dinner\u{3000}out",
          category: nil))
    let plain = TransactionDraft(
      amount: "2", date: date(2025, 3, 1), memo: "Lunch", category: "Food")
    #expect(try plain.validated(today: now, calendar: gregorian(seoul)).memo == "Lunch")
    #expect(try plain.validated(today: now, calendar: gregorian(seoul)).category == "Food")
  }

  @Test func aDraftOfAStoredTransactionShowsItsValues() throws {
    let draft = TransactionDraft(
      transaction(
        7, .income, 123_456, on: date(2025, 1, 2), memo: "Refund", category: "Shopping"))
    #expect(
      draft
        == TransactionDraft(
          kind: .income, amount: "1,234.56", date: date(2025, 1, 2), memo: "Refund",
          category: "Shopping"))
    #expect(
      try draft.validated(today: now, calendar: gregorian(seoul))
        == TransactionFields(
          kind: .income, amount: money(123_456), date: date(2025, 1, 2), memo: "Refund",
          category: "Shopping"))
    #expect(TransactionDraft(transaction(8, category: nil)).category == "")
  }
}
