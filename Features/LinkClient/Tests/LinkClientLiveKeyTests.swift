import LinkClient
import LinkClientLive
import Loop
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
    let issues = IssueCollector()
    let thrown = await withIssueReporter(issues) { () async -> UnimplementedError? in
      @Dependency(\.linkClient) var client
      do {
        _ = try await client.fetchLinks()
        return nil
      } catch {
        return error as? UnimplementedError
      }
    }
    #expect(thrown == UnimplementedError(endpoint: "LinkClient.fetchLinks"))
    #expect(
      issues.messages == [
        """
        Unimplemented: 'LinkClient.fetchLinks' was called.

        To fix, override this endpoint in the test's dependencies, e.g. \
        'withDependencies: { $0.… = … }', with the behaviour the test expects.
        """
      ])
  }
}
