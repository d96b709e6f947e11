import Foundation
import LedgerClient
import TestSupport
import Testing

@Suite struct LedgerTransactionTests {
  @Test func newerMeansLaterDateThenLaterCreatedAtThenSmallerID() {
    let early = transaction(1, on: day(1))
    let late = transaction(2, on: day(2))
    #expect(LedgerTransaction.isNewer(late, than: early))
    #expect(!LedgerTransaction.isNewer(early, than: late))

    let enteredFirst = transaction(3, on: day(5), createdAt: day(5, hour: 1))
    let enteredSecond = transaction(4, on: day(5), createdAt: day(5, hour: 2))
    #expect(LedgerTransaction.isNewer(enteredSecond, than: enteredFirst))
    #expect(!LedgerTransaction.isNewer(enteredFirst, than: enteredSecond))

    #expect(LedgerTransaction.isNewer(transaction(5), than: transaction(6)))
    #expect(!LedgerTransaction.isNewer(transaction(6), than: transaction(5)))
    #expect(!LedgerTransaction.isNewer(transaction(5), than: transaction(5)))
  }

  @Test func theSignedAmountIsNegativeForExpenses() {
    #expect(transaction(1, .income, amount: 250).signedAmount == Money(minorUnits: 250))
    #expect(transaction(1, .expense, amount: 250).signedAmount == Money(minorUnits: -250))
  }

  @Test func validateAcceptsTheLimits() throws {
    try LedgerTransaction.validate(
      amount: .maximum, memo: String(repeating: "m", count: 200),
      category: String(repeating: "c", count: 40))
    try LedgerTransaction.validate(amount: Money(minorUnits: 1), memo: "", category: nil)
  }

  @Test func validateReportsTheFirstProblemByPrecedence() {
    let longMemo = String(repeating: "m", count: 201)
    let longCategory = String(repeating: "c", count: 41)
    #expect(throws: LedgerError.amountNotPositive("0.00")) {
      try LedgerTransaction.validate(amount: .zero, memo: longMemo, category: longCategory)
    }
    #expect(throws: LedgerError.memoTooLong(length: 201, limit: 200)) {
      try LedgerTransaction.validate(amount: .maximum, memo: longMemo, category: longCategory)
    }
    #expect(throws: LedgerError.categoryTooLong(length: 41, limit: 40)) {
      try LedgerTransaction.validate(amount: .maximum, memo: "", category: longCategory)
    }
  }

  @Test func encodesWithItsOwnFieldNames() throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    encoder.dateEncodingStrategy = .iso8601
    let lunch = transaction(1, amount: 1250, on: day(32), memo: "Lunch", category: "Food")
    let json = String(decoding: try encoder.encode(lunch), as: UTF8.self)
    #expect(
      json
        == #"{"amount":1250,"category":"Food","createdAt":"2025-02-01T12:00:00Z","#
        + #""date":"2025-02-01T12:00:00Z","id":"00000000-0000-0000-0000-000000000001","#
        + #""kind":"expense","memo":"Lunch"}"#)
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    #expect(try decoder.decode(LedgerTransaction.self, from: Data(json.utf8)) == lunch)
  }
}

@Suite struct LedgerErrorTests {
  @Test(arguments: [
    (
      LedgerError.duplicateTransaction(id(1)),
      "A transaction with id '00000000-0000-0000-0000-000000000001' already exists."
    ),
    (
      .transactionNotFound(id(2)),
      "No transaction with id '00000000-0000-0000-0000-000000000002' exists."
    ),
    (.invalidAmount("12,5,0"), "'12,5,0' is not an amount."),
    (.tooManyDecimalPlaces("1.234"), "'1.234' has more than 2 decimal places."),
    (.amountTooLarge("1e12"), "'1e12' is more than the largest amount, 999,999,999.99."),
    (.amountNotPositive("0.00"), "The amount must be greater than zero, not '0.00'."),
    (
      .dateOutOfRange(date: "2099-01-01", earliest: "1970-01-01", latest: "2035-03-15"),
      "'2099-01-01' is not a plausible date: pick a day from 1970-01-01 to 2035-03-15."
    ),
    (.memoTooLong(length: 201, limit: 200), "The memo is 201 characters long; the limit is 200."),
    (
      .categoryTooLong(length: 41, limit: 40),
      "The category is 41 characters long; the limit is 40."
    ),
    (.storageFailed("Disk full."), "The ledger's storage failed: Disk full."),
  ])
  func describesEachProblemInASentence(error: LedgerError, sentence: String) {
    #expect(error.description == sentence)
    #expect(error.localizedDescription == sentence)
  }

  @Test func wrapsAnyOtherErrorAsAStorageFailure() {
    struct Broken: Error, CustomStringConvertible { var description: String { "It broke." } }
    #expect(LedgerError(Broken()) == .storageFailed("It broke."))
    #expect(LedgerError(LedgerError.invalidAmount("x")) == .invalidAmount("x"))
  }
}
