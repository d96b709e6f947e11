import Foundation
import LedgerClient
import Persistence
import Synchronization
import TestSupport
import Testing

@Suite struct LedgerImportTests {
  @Test(arguments: ClientStorage.allCases)
  func importStoresEveryTransactionAndSkipsStoredIDs(_ kind: ClientStorage) async throws {
    let storage = try Storage(kind)
    let rent = transaction(1, amount: 50_000, on: day(1), memo: "Rent")
    _ = try await storage.client.addTransaction(rent)
    let salary = transaction(2, .income, amount: 300_000, on: day(2), memo: "Salary")
    let lunch = transaction(3, amount: 1_250, on: day(3), memo: "Lunch", category: "Food")
    let summary = try await storage.client.importTransactions([rent, salary, lunch, salary])
    #expect(summary == LedgerImportSummary(imported: 2, duplicates: 2))
    #expect(try await storage.client.fetchTransactions() == [lunch, salary, rent])
  }

  @Test(arguments: ClientStorage.allCases)
  func anInvalidTransactionFailsTheWholeImportBeforeAnythingIsWritten(
    _ kind: ClientStorage
  ) async throws {
    let storage = try Storage(kind)
    let valid = (1...3).map { transaction(UInt64($0)) }
    let free = transaction(4, amount: 0)
    await #expect(
      throws: LedgerError.importRowInvalid(position: 4, reason: .amountNotPositive("0.00"))
    ) {
      try await storage.client.importTransactions(valid + [free])
    }
    #expect(try await storage.client.fetchTransactions() == [])
  }

  @Test func anInvalidRowErrorNamesItsPosition() {
    let error = LedgerError.importRowInvalid(position: 4, reason: .amountNotPositive("0.00"))
    #expect(
      error.description
        == "Transaction 4 of the import is invalid, so nothing was imported: The amount must be "
        + "greater than zero, not '0.00'.")
  }

  @Test(arguments: ClientStorage.allCases)
  func aDryRunReportsTheImportAndWritesNothing(_ kind: ClientStorage) async throws {
    let storage = try Storage(kind)
    let items = [transaction(1), transaction(2), transaction(1)]
    let summary = try await storage.client.importTransactions(items, dryRun: true)
    #expect(summary == LedgerImportSummary(imported: 2, duplicates: 1))
    #expect(try await storage.client.fetchTransactions() == [])
  }

  @Test(arguments: ClientStorage.allCases)
  func importReportsProgressAfterEveryBatch(_ kind: ClientStorage) async throws {
    let storage = try Storage(kind)
    let items = (1...2_001).map { transaction(UInt64($0)) }
    let reports = Mutex<[Int]>([])
    _ = try await storage.client.importTransactions(items) { processed in
      reports.withLock { $0.append(processed) }
    }
    #expect(reports.withLock { $0 } == [1_000, 2_000, 2_001])
    #expect(try await storage.client.fetchTransactions().count == 2_001)
  }

  @Test(arguments: ClientStorage.allCases)
  func anImportCancelledBetweenBatchesWritesNothing(_ kind: ClientStorage) async throws {
    let storage = try Storage(kind)
    let items = (1...LedgerClient.importBatchSize + 1).map { transaction(UInt64($0)) }
    // NB: the first batch is written before the task is cancelled, so the rollback is seen.
    await #expect(throws: LedgerError.storageFailed("the work was cancelled")) {
      try await storage.client.importTransactions(items) { _ in
        withUnsafeCurrentTask { $0?.cancel() }
      }
    }
    #expect(try await storage.client.fetchTransactions() == [])
  }

  @Test(arguments: Backend.persistent)
  func anImportFailingOnItsLastRowLeavesTheLedgerUnchanged(_ backend: Backend) async throws {
    let storage = try Storage(backend)
    let rent = transaction(1, memo: "Rent")
    _ = try await storage.client.addTransaction(rent)
    try backend.refuseInserts(
      into: "ledger_transactions", where: "memo", is: "Last", file: "ledger.sqlite",
      in: storage.folder)
    let items = (2...1_500).map { transaction(UInt64($0), memo: $0 == 1_500 ? "Last" : "") }
    await #expect {
      try await storage.client.importTransactions(items)
    } throws: { error in
      guard case LedgerError.storageFailed(let reason) = error else { return false }
      return reason.contains(backend.refusalMessage)
    }
    #expect(try await storage.client.fetchTransactions() == [rent])
  }
}
