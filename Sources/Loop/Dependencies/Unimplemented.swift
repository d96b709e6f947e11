/// The error thrown by an endpoint built with `unimplemented(_:)` when it is called.
public struct UnimplementedError: Error, Equatable, CustomStringConvertible {
  /// The endpoint that was called, such as `LinkClient.fetchLinks`.
  public let endpoint: String

  /// Creates the error.
  public init(endpoint: String) {
    self.endpoint = endpoint
  }

  /// A sentence naming the endpoint.
  public var description: String { "Unimplemented: '\(endpoint)' was called." }
}

/// Builds a throwing endpoint that reports an issue naming it, then throws, when called.
///
/// Use it for the `testValue` of a client, so a test that reaches an endpoint it did not
/// override fails, and never touches real storage:
///
/// ```swift
/// static let testValue = LinkClient(fetchLinks: unimplemented("LinkClient.fetchLinks"))
/// ```
///
/// - Parameters:
///   - endpoint: The endpoint's name, for the report.
///   - fileID: The file to attribute the report to.
///   - filePath: The file path to attribute the report to.
///   - line: The line.
///   - column: The column.
/// - Returns: A closure that reports and throws `UnimplementedError`.
public func unimplemented<each Argument, Result>(
  _ endpoint: String,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) -> @Sendable (repeat each Argument) async throws -> Result {
  { (_: repeat each Argument) in
    reportUnimplemented(endpoint, fileID, filePath, line, column)
    throw UnimplementedError(endpoint: endpoint)
  }
}

/// Builds a non-throwing endpoint that reports an issue naming it, then returns `placeholder`,
/// when called.
///
/// - Parameters:
///   - endpoint: The endpoint's name, for the report.
///   - placeholder: The harmless value to return.
///   - fileID: The file to attribute the report to.
///   - filePath: The file path to attribute the report to.
///   - line: The line.
///   - column: The column.
/// - Returns: A closure that reports and returns the placeholder.
public func unimplemented<each Argument, Result: Sendable>(
  _ endpoint: String,
  placeholder: Result,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) -> @Sendable (repeat each Argument) -> Result {
  { (_: repeat each Argument) in
    reportUnimplemented(endpoint, fileID, filePath, line, column)
    return placeholder
  }
}

private func reportUnimplemented(
  _ endpoint: String, _ fileID: StaticString, _ filePath: StaticString, _ line: UInt,
  _ column: UInt
) {
  reportIssue(
    """
    Unimplemented: '\(endpoint)' was called.

    To fix, override this endpoint in the test's dependencies, e.g. \
    'withDependencies: { $0.… = … }', with the behaviour the test expects.
    """,
    fileID: fileID, filePath: filePath, line: line, column: column)
}
