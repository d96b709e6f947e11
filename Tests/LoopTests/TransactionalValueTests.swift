import Testing

@testable import Loop

/// A client's in-memory storage keeps its rows in a `TransactionalValue`: a transaction's
/// changes stay together, or none does.
@Suite struct TransactionalValueTests {
  struct Refused: Error, Equatable {}

  @Test func aTransactionThatReturnsKeepsEveryChange() {
    let rows = TransactionalValue([1])
    rows.transaction {
      rows.withValue { $0.append(2) }
      rows.withValue { $0.append(3) }
    }
    #expect(rows.withValue { $0 } == [1, 2, 3])
  }

  @Test func aTransactionThatThrowsKeepsNoChange() {
    let rows = TransactionalValue([1])
    #expect(throws: Refused()) {
      try rows.transaction { () throws(Refused) in
        rows.withValue { $0.append(2) }
        throw Refused()
      }
    }
    #expect(rows.withValue { $0 } == [1])
  }

  @Test func aTransactionRolledBackReturnsItsResultAndKeepsNoChange() {
    let rows = TransactionalValue([1])
    let count = rows.transaction(rollingBack: true) {
      rows.withValue { rows in
        rows.append(2)
        return rows.count
      }
    }
    #expect(count == 2)
    #expect(rows.withValue { $0 } == [1])
  }
}
