import Foundation
import LedgerClient
import LedgerClientLive
import LoopTesting
import TestSupport
import Testing

@Suite struct LedgerClientTests {
  @Test(arguments: ClientStorage.allCases)
  func aNewLedgerIsEmpty(_ kind: ClientStorage) async throws {
    let storage = try Storage(kind)
    #expect(try await storage.client.fetchTransactions() == [])
  }

  @Test(arguments: ClientStorage.allCases)
  func addReturnsTheStoredTransaction(_ kind: ClientStorage) async throws {
    let storage = try Storage(kind)
    let lunch = transaction(1, amount: 1250, memo: "Lunch", category: "Food")
    #expect(try await storage.client.addTransaction(lunch) == lunch)
    #expect(try await storage.client.fetchTransactions() == [lunch])
  }

  @Test(arguments: ClientStorage.allCases)
  func fetchListsNewestFirstWithTiesByCreatedAtThenID(_ kind: ClientStorage) async throws {
    let storage = try Storage(kind)
    let old = transaction(1, on: day(1))
    let newest = transaction(2, on: day(9))
    let sameDayEarlier = transaction(3, on: day(5), createdAt: day(5, hour: 1))
    let sameDayLater = transaction(4, on: day(5), createdAt: day(5, hour: 2))
    let twinB = transaction(6, on: day(3))
    let twinA = transaction(5, on: day(3))
    for item in [old, sameDayEarlier, twinB, newest, sameDayLater, twinA] {
      _ = try await storage.client.addTransaction(item)
    }
    #expect(
      try await storage.client.fetchTransactions() == [
        newest, sameDayLater, sameDayEarlier, twinA, twinB, old,
      ])
  }

  @Test(arguments: ClientStorage.allCases)
  func addingADuplicateIDFailsAndKeepsTheStoredOne(_ kind: ClientStorage) async throws {
    let storage = try Storage(kind)
    let original = transaction(1, amount: 500, memo: "Original")
    _ = try await storage.client.addTransaction(original)
    await #expect(throws: LedgerError.duplicateTransaction(id(1))) {
      try await storage.client.addTransaction(transaction(1, amount: 900, memo: "Impostor"))
    }
    #expect(try await storage.client.fetchTransactions() == [original])
  }

  @Test(arguments: ClientStorage.allCases)
  func updateReplacesTheStoredValues(_ kind: ClientStorage) async throws {
    let storage = try Storage(kind)
    _ = try await storage.client.addTransaction(transaction(1, amount: 500, memo: "Coffee"))
    var changed = transaction(1, .income, amount: 700, on: day(2), memo: "Refund")
    changed.category = "Misc"
    changed.createdAt = day(1)
    #expect(try await storage.client.updateTransaction(changed) == changed)
    #expect(try await storage.client.fetchTransactions() == [changed])
  }

  @Test(arguments: ClientStorage.allCases)
  func updatingAMissingTransactionFailsAndStoresNothing(_ kind: ClientStorage) async throws {
    let storage = try Storage(kind)
    _ = try await storage.client.addTransaction(transaction(1))
    await #expect(throws: LedgerError.transactionNotFound(id(2))) {
      try await storage.client.updateTransaction(transaction(2))
    }
    #expect(try await storage.client.fetchTransactions() == [transaction(1)])
  }

  @Test(arguments: ClientStorage.allCases)
  func deleteRemovesOnlyThatTransaction(_ kind: ClientStorage) async throws {
    let storage = try Storage(kind)
    _ = try await storage.client.addTransaction(transaction(1, on: day(1)))
    _ = try await storage.client.addTransaction(transaction(2, on: day(2)))
    try await storage.client.deleteTransaction(id(1))
    #expect(try await storage.client.fetchTransactions() == [transaction(2, on: day(2))])
  }

  @Test(arguments: ClientStorage.allCases)
  func deletingAMissingTransactionFails(_ kind: ClientStorage) async throws {
    let storage = try Storage(kind)
    _ = try await storage.client.addTransaction(transaction(1))
    await #expect(throws: LedgerError.transactionNotFound(id(2))) {
      try await storage.client.deleteTransaction(id(2))
    }
    try await storage.client.deleteTransaction(id(1))
    await #expect(throws: LedgerError.transactionNotFound(id(1))) {
      try await storage.client.deleteTransaction(id(1))
    }
    #expect(try await storage.client.fetchTransactions() == [])
  }

  @Test(arguments: ClientStorage.allCases)
  func addRefusesAnInvalidTransactionAndStoresNothing(_ kind: ClientStorage) async throws {
    let storage = try Storage(kind)
    await #expect(throws: LedgerError.amountNotPositive("0.00")) {
      try await storage.client.addTransaction(transaction(1, amount: 0))
    }
    await #expect(throws: LedgerError.amountNotPositive("-5.00")) {
      try await storage.client.addTransaction(transaction(1, amount: -500))
    }
    await #expect(throws: LedgerError.amountTooLarge("1,000,000,000.00")) {
      try await storage.client.addTransaction(transaction(1, amount: 100_000_000_000))
    }
    await #expect(throws: LedgerError.memoTooLong(length: 201, limit: 200)) {
      try await storage.client.addTransaction(
        transaction(1, memo: String(repeating: "m", count: 201)))
    }
    await #expect(throws: LedgerError.categoryTooLong(length: 41, limit: 40)) {
      try await storage.client.addTransaction(
        transaction(1, category: String(repeating: "c", count: 41)))
    }
    #expect(try await storage.client.fetchTransactions() == [])
  }

  @Test(arguments: ClientStorage.allCases)
  func updateRefusesAnInvalidTransactionAndKeepsTheStoredOne(_ kind: ClientStorage) async throws {
    let storage = try Storage(kind)
    _ = try await storage.client.addTransaction(transaction(1, amount: 500))
    await #expect(throws: LedgerError.amountNotPositive("0.00")) {
      try await storage.client.updateTransaction(transaction(1, amount: 0))
    }
    #expect(try await storage.client.fetchTransactions() == [transaction(1, amount: 500)])
  }

  @Test(arguments: ClientStorage.allCases)
  func storesTextDatesAndTheLargestAmountExactly(_ kind: ClientStorage) async throws {
    let storage = try Storage(kind)
    let exact = LedgerTransaction(
      id: id(7), kind: .income, amount: .maximum,
      date: Date(timeIntervalSinceReferenceDate: 757_382_400.123_456),
      memo: String(repeating: "é", count: 200), category: "Épargne 💶",
      createdAt: Date(timeIntervalSinceReferenceDate: -1_000.5))
    _ = try await storage.client.addTransaction(exact)
    #expect(try await storage.client.fetchTransactions() == [exact])
  }

  @Test func theSQLiteFileKeepsTransactionsForTheNextClient() async throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("loop-ledger-client-tests-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("ledger.sqlite").path
    _ = try await LedgerClient.live(path: path).addTransaction(transaction(1, memo: "Kept"))
    #expect(
      try await LedgerClient.live(path: path).fetchTransactions() == [
        transaction(1, memo: "Kept")
      ])
  }

  @Test func aFileThatCannotBeOpenedFailsEveryEndpointWithTheReason() async throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("loop-ledger-client-tests-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let path = folder.appendingPathComponent("not-a-database").path
    try Data("hello, not sqlite".utf8).write(to: URL(fileURLWithPath: path))
    let client = LedgerClient.live(path: path)
    let expected = LedgerError.storageFailed("'\(path)' is not an SQLite database.")
    await #expect(throws: expected) { try await client.fetchTransactions() }
    await #expect(throws: expected) { try await client.addTransaction(transaction(1)) }
    await #expect(throws: expected) { try await client.updateTransaction(transaction(1)) }
    await #expect(throws: expected) { try await client.deleteTransaction(id(1)) }
    #expect(
      expected.description
        == "The ledger's storage failed: '\(path)' is not an SQLite database.")
  }

  @Test func theInMemoryValuesAreIndependent() async throws {
    let first = LedgerClient.inMemory()
    _ = try await first.addTransaction(transaction(1))
    #expect(try await LedgerClient.inMemory().fetchTransactions() == [])
  }

  @Test func modelsListTheLedgersTable() {
    #expect(LedgerClient.models.map { "\($0)" } == ["LedgerTransaction"])
  }
}

@Suite struct LedgerClientTestValueTests {
  @Test func everyEndpointOfTheTestValueReportsAndThrows() async {
    let issues = IssueCollector()
    let client = LedgerClient.testValue
    await withIssueReporter(issues) {
      await #expect(throws: UnimplementedError(endpoint: "LedgerClient.addTransaction")) {
        try await client.addTransaction(transaction(1))
      }
      await #expect(throws: UnimplementedError(endpoint: "LedgerClient.deleteTransaction")) {
        try await client.deleteTransaction(id(1))
      }
      await #expect(throws: UnimplementedError(endpoint: "LedgerClient.fetchTransactions")) {
        try await client.fetchTransactions()
      }
      await #expect(throws: UnimplementedError(endpoint: "LedgerClient.updateTransaction")) {
        try await client.updateTransaction(transaction(1))
      }
    }
    #expect(
      issues.messages.map { $0.prefix(while: { $0 != "\n" }) } == [
        "Unimplemented: 'LedgerClient.addTransaction' was called.",
        "Unimplemented: 'LedgerClient.deleteTransaction' was called.",
        "Unimplemented: 'LedgerClient.fetchTransactions' was called.",
        "Unimplemented: 'LedgerClient.updateTransaction' was called.",
      ])
  }
}
