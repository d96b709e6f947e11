import Loop
import Testing
import XCTest

/// Turns reported issues into test failures: `Issue.record` inside a Swift Testing `@Test`,
/// `XCTFail` inside an XCTest case, at the reported file and line.
///
/// A `TestStore` installs it as the default reporter when it is created, so the runtime
/// warnings of the core (an `ifLet` child action with no child, a dependency without a test
/// value) fail the test too.
public struct TestFailureReporter: IssueReporter {
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

  private func sourceLocation(_ location: IssueLocation) -> Testing.SourceLocation {
    Testing.SourceLocation(
      fileID: location.fileID, filePath: location.filePath, line: location.line,
      column: location.column)
  }

  /// Makes this reporter the default, unless a test already chose another one.
  static func installAsDefault() {
    if IssueReporting.defaultReporter is StandardErrorReporter {
      IssueReporting.defaultReporter = TestFailureReporter()
    }
  }
}
