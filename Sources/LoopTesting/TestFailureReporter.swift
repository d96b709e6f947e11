import Loop
import Testing
import XCTest

/// Turns reported issues into test failures: `Issue.record` inside a Swift Testing `@Test`,
/// `XCTFail` inside an XCTest case, at the reported file and line.
///
/// The core's `DefaultIssueReporter` finds it at run time, so the
/// runtime warnings of the core (an `ifLet` child action with no child, an unimplemented
/// endpoint) fail the test in any process that links `LoopTesting`.
public struct TestFailureReporter: IssueReporter, TestingIssueReporter {
  /// Creates the reporter.
  public init() {}

  /// Records a test failure.
  ///
  /// - Parameters:
  ///   - message: The failure.
  ///   - location: Where it happened.
  public func reportIssue(_ message: String, at location: IssueLocation) {
    if Test.current != nil {
      Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation(location))
    } else if let filePath = location.staticFilePath {
      XCTFail(message, file: filePath, line: UInt(location.line))
    } else {
      XCTFail(message)
    }
  }

  /// Records a known issue, which does not fail the test (Swift Testing only; XCTest on Linux
  /// has no known issues, so it is printed).
  ///
  /// - Parameters:
  ///   - message: The skipped assertion.
  ///   - location: Where it applies.
  public func reportKnownIssue(_ message: String, at location: IssueLocation) {
    if Test.current != nil {
      withKnownIssue {
        Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation(location))
      }
    } else {
      print("Known issue at \(location): \(message)")
    }
  }

  /// The Swift Testing test running in the current task, with the arguments of its case when it
  /// is parameterized; `nil` outside one.
  ///
  /// NB: Swift Testing gives a test case no public identity; its reflection names its arguments
  /// (by their encoded ids), which tell the cases of one test apart.
  package var currentTest: String? {
    guard let test = Test.current else { return nil }
    guard let testCase = Test.Case.current, testCase.isParameterized else {
      return "\(test.id)"
    }
    return "\(test.id) \(String(reflecting: testCase))"
  }

  private func sourceLocation(_ location: IssueLocation) -> Testing.SourceLocation {
    Testing.SourceLocation(
      fileID: location.fileID, filePath: location.filePath, line: location.line,
      column: location.column)
  }

}
