import HabitClient
import HabitClientLive
import Loop
import TestSupport
import Testing

@Suite struct HabitClientLiveKeyTests {
  // NB: the live value itself opens the user's database file, so the test asks the runtime
  // what `DependencyValues` asks it in a live context: whether a linked module conforms the key
  // to `DependencyKey`. The report for a key whose live module is not linked is
  // DependencyTests' (LoopTests).
  @Test func theLiveModuleGivesTheInterfacesKeyItsLiveValue() {
    #expect((HabitClient.self as Any.Type) is any DependencyKey.Type)
  }

  @Test func aTestReadsTheTestValueThoughTheLiveModuleIsLinked() async {
    let call = await callingTheTestValue {
      @Dependency(\.habitClient) var client
      _ = try await client.fetchHistories()
    }
    #expect(call.thrown == UnimplementedError(endpoint: "HabitClient.fetchHistories"))
    #expect(call.messages == [unimplementedMessage("HabitClient.fetchHistories")])
  }
}
