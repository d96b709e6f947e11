import Loop

/// What a test gets when it calls an endpoint of a client it did not override, though the
/// client's live module is linked: the error the test value throws, and the issues reported.
///
/// Each `<X>ClientLiveKeyTests` suite checks its client with it: the live module gives the
/// interface's key its live value, yet a test still reads the unimplemented test value.
///
/// ```swift
/// let call = await callingTheTestValue {
///   @Dependency(\.linkClient) var client
///   _ = try await client.fetchLinks()
/// }
/// #expect(call.thrown == UnimplementedError(endpoint: "LinkClient.fetchLinks"))
/// ```
///
/// - Parameter call: Reads the client through `@Dependency` and calls one endpoint.
/// - Returns: The ``UnimplementedError`` thrown (`nil` when the call threw none, or another
///   error), and the messages reported.
public func callingTheTestValue(
  _ call: () async throws -> Void
) async -> (thrown: UnimplementedError?, messages: [String]) {
  let issues = IssueCollector()
  let thrown = await withIssueReporter(issues) { () async -> UnimplementedError? in
    do {
      try await call()
      return nil
    } catch {
      return error as? UnimplementedError
    }
  }
  return (thrown, issues.messages)
}

/// The issue reported when a test calls `endpoint` (`"LinkClient.fetchLinks"`) without
/// overriding it, word for word.
public func unimplementedMessage(_ endpoint: String) -> String {
  """
  Unimplemented: '\(endpoint)' was called.

  To fix, override this endpoint in the test's dependencies, e.g. \
  'withDependencies: { $0.… = … }', with the behaviour the test expects.
  """
}
