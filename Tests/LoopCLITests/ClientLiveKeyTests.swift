import CategoryClient
import CategoryClientLive
import HabitClient
import HabitClientLive
import LedgerClient
import LedgerClientLive
import LinkClient
import LinkClientLive
import Loop
import Testing

/// Each client split from its storage, checked where the app links every live module: the live
/// module gives the interface's key its live value, and a test still reads the test value.
///
/// NB: the live value itself opens the user's database file, so the first test asks the runtime
/// what `DependencyValues` asks it in a live context: whether a linked module conforms the key
/// to `DependencyKey`. The report for a key whose live module is not linked is DependencyTests'
/// (LoopTests).
@Suite struct ClientLiveKeyTests {
  /// A client: whether its key is live, and a call of one endpoint through `@Dependency`.
  struct Client: Sendable, CustomTestStringConvertible {
    /// The endpoint called, as the test value names it.
    let endpoint: String
    let isLive: @Sendable () -> Bool
    let call: @Sendable () async throws -> Void
    var testDescription: String { endpoint }

    /// The client at `keyPath` (a client is its own key), calling `endpoint` through `call`.
    init<Value>(
      _ keyPath: KeyPath<DependencyValues, Value> & Sendable, endpoint: String,
      call: @escaping @Sendable (Value) async throws -> Void
    ) {
      self.endpoint = endpoint
      self.isLive = { (Value.self as Any.Type) is any DependencyKey.Type }
      self.call = {
        @Dependency(keyPath) var client
        try await call(client)
      }
    }
  }

  static let clients = [
    Client(\.categoryClient, endpoint: "CategoryClient.fetchCategories") {
      _ = try await $0.fetchCategories()
    },
    Client(\.habitClient, endpoint: "HabitClient.fetchHistories") {
      _ = try await $0.fetchHistories()
    },
    Client(\.ledgerClient, endpoint: "LedgerClient.fetchTransactions") {
      _ = try await $0.fetchTransactions()
    },
    Client(\.linkClient, endpoint: "LinkClient.fetchLinks") { _ = try await $0.fetchLinks() },
  ]

  @Test(arguments: clients)
  func theLiveModuleGivesTheInterfacesKeyItsLiveValue(_ client: Client) {
    #expect(client.isLive())
  }

  @Test(arguments: clients)
  func aTestReadsTheTestValueThoughTheLiveModuleIsLinked(_ client: Client) async {
    let issues = IssueCollector()
    let thrown = await withIssueReporter(issues) { () async -> UnimplementedError? in
      do {
        try await client.call()
        return nil
      } catch {
        return error as? UnimplementedError
      }
    }
    #expect(thrown == UnimplementedError(endpoint: client.endpoint))
    #expect(
      issues.messages == [
        """
        Unimplemented: '\(client.endpoint)' was called.

        To fix, override this endpoint in the test's dependencies, e.g. \
        'withDependencies: { $0.… = … }', with the behaviour the test expects.
        """
      ])
  }
}
