import LedgerClient
import LedgerClientLive
import Loop
import TestSupport
import Testing

@Suite struct LedgerClientLiveKeyTests {
  // NB: the live value itself opens the user's database file, so the test asks the runtime
  // what `DependencyValues` asks it in a live context: whether a linked module conforms the key
  // to `DependencyKey`. The report for a key whose live module is not linked is
  // DependencyTests' (LoopTests).
  @Test func theLiveModuleGivesTheInterfacesKeyItsLiveValue() {
    #expect((LedgerClient.self as Any.Type) is any DependencyKey.Type)
  }

  @Test func aTestReadsTheTestValueThoughTheLiveModuleIsLinked() async {
    let call = await callingTheTestValue {
      @Dependency(\.ledgerClient) var client
      _ = try await client.fetchTransactions()
    }
    #expect(call.thrown == UnimplementedError(endpoint: "LedgerClient.fetchTransactions"))
    #expect(call.messages == [unimplementedMessage("LedgerClient.fetchTransactions")])
  }
}
