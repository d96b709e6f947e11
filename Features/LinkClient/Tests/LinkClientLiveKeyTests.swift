import LinkClient
import LinkClientLive
import Loop
import TestSupport
import Testing

@Suite struct LinkClientLiveKeyTests {
  // NB: the live value itself opens the user's database file, so the test asks the runtime
  // what `DependencyValues` asks it in a live context: whether a linked module conforms the key
  // to `DependencyKey`. The report for a key whose live module is not linked is
  // DependencyTests' (LoopTests).
  @Test func theLiveModuleGivesTheInterfacesKeyItsLiveValue() {
    #expect((LinkClient.self as Any.Type) is any DependencyKey.Type)
  }

  @Test func aTestReadsTheTestValueThoughTheLiveModuleIsLinked() async {
    let call = await callingTheTestValue {
      @Dependency(\.linkClient) var client
      _ = try await client.fetchLinks()
    }
    #expect(call.thrown == UnimplementedError(endpoint: "LinkClient.fetchLinks"))
    #expect(call.messages == [unimplementedMessage("LinkClient.fetchLinks")])
  }
}
