import Foundation
import Synchronization

/// Receives the runtime issues Loop reports: misuse that is not worth a crash but must not go
/// unnoticed, such as an action sent to a child state that is absent, an effect's unhandled
/// error, or a dependency without a test value used in a test.
///
/// By default an issue becomes a test failure at the reported location when `LoopTesting` is
/// linked into the process (any test target), and a warning on standard error otherwise. Tests
/// capture issues with `withIssueReporter(_:operation:)`.
public protocol IssueReporter: Sendable {
  /// Reports an issue.
  ///
  /// - Parameters:
  ///   - message: What went wrong and how to fix it.
  ///   - location: Where in the user's code it was detected.
  func reportIssue(_ message: String, at location: IssueLocation)

  /// Reports something worth showing that is not a failure, such as an assertion a
  /// non-exhaustive test store skipped. Does nothing unless the reporter implements it.
  ///
  /// - Parameters:
  ///   - message: What to show.
  ///   - location: Where in the user's code it applies.
  func reportKnownIssue(_ message: String, at location: IssueLocation)
}

extension IssueReporter {
  /// Ignores known issues.
  ///
  /// - Parameters:
  ///   - message: What to show.
  ///   - location: Where in the user's code it applies.
  public func reportKnownIssue(_ message: String, at location: IssueLocation) {}
}

/// A place in source code that an issue is attributed to.
public struct IssueLocation: Sendable, Equatable, CustomStringConvertible {
  /// The `#fileID` of the call.
  public var fileID: String
  /// The `#filePath` of the call.
  public var filePath: String
  /// The line.
  public var line: Int
  /// The column.
  public var column: Int
  /// The file path as the compiler wrote it, for reporters (like XCTest's) that need it.
  package var staticFilePath: StaticString?

  /// Creates a location.
  public init(fileID: String, filePath: String, line: Int, column: Int) {
    self.fileID = fileID
    self.filePath = filePath
    self.line = line
    self.column = column
  }

  /// The location as `file:line:column`.
  public var description: String { "\(fileID):\(line):\(column)" }
}

/// Issue reporting: where runtime issues go.
public enum IssueReporting {
  /// The reporter used when no `withIssueReporter` scope is active.
  ///
  /// Starts as `DefaultIssueReporter`: a test failure when `LoopTesting` is linked, a warning on
  /// standard error otherwise.
  public static var defaultReporter: any IssueReporter {
    get { defaultReporterStorage.withLock { $0 } }
    set { defaultReporterStorage.withLock { $0 = newValue } }
  }

  @TaskLocal static var scopedReporter: (any IssueReporter)?

  private static let defaultReporterStorage = Mutex<any IssueReporter>(DefaultIssueReporter())

  /// The reporter in effect for the current task.
  public static var current: any IssueReporter { scopedReporter ?? defaultReporter }
}

/// Runs `operation` with every issue it reports, and every issue the effects it starts report,
/// going to `reporter`.
///
/// - Parameters:
///   - reporter: The reporter to use.
///   - operation: The code to run.
/// - Returns: What `operation` returned.
/// - Throws: What `operation` threw.
@discardableResult
public func withIssueReporter<R>(
  _ reporter: any IssueReporter, operation: () throws -> R
) rethrows -> R {
  try IssueReporting.$scopedReporter.withValue(reporter, operation: operation)
}

/// Runs `operation` with every issue it reports going to `reporter`.
///
/// - Parameters:
///   - reporter: The reporter to use.
///   - isolation: The actor the operation runs on.
///   - operation: The code to run.
/// - Returns: What `operation` returned.
/// - Throws: What `operation` threw.
@discardableResult
public func withIssueReporter<R>(
  _ reporter: any IssueReporter,
  isolation: isolated (any Actor)? = #isolation,
  operation: () async throws -> R
) async rethrows -> R {
  try await IssueReporting.$scopedReporter.withValue(reporter, operation: operation)
}

/// Reports a runtime issue to the current reporter.
///
/// - Parameters:
///   - message: What went wrong and how to fix it.
///   - fileID: The file to attribute the issue to.
///   - filePath: The file path to attribute the issue to.
///   - line: The line.
///   - column: The column.
public func reportIssue(
  _ message: String,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) {
  IssueReporting.current.reportIssue(
    message,
    at: IssueLocation(fileID: fileID, filePath: filePath, line: line, column: column))
}

extension IssueLocation {
  /// A location from the compiler's `#fileID`, `#filePath`, `#line` and `#column`.
  public init(fileID: StaticString, filePath: StaticString, line: UInt, column: UInt) {
    self.init(
      fileID: "\(fileID)", filePath: "\(filePath)", line: Int(line), column: Int(column))
    self.staticFilePath = filePath
  }

  /// The location as `fileID:line`, as reports name the call of an operator.
  var fileIDAndLine: String { "\(fileID):\(line)" }

  /// Two locations are equal when they name the same place.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    (lhs.fileID, lhs.filePath, lhs.line, lhs.column)
      == (rhs.fileID, rhs.filePath, rhs.line, rhs.column)
  }
}

/// Records issues as test failures when `LoopTesting` is linked into the process, and prints
/// them to standard error otherwise.
///
/// NB: the core cannot import the testing libraries (an app must not link them), so it asks the
/// Swift runtime, once, whether `LoopTesting`'s reporter type exists in the process.
public struct DefaultIssueReporter: IssueReporter {
  // NB: the mangled name of `LoopTesting.TestFailureReporter` (a struct).
  private static let testReporter: (any TestingIssueReporter)? =
    (_typeByName("11LoopTesting19TestFailureReporterV") as? any TestingIssueReporter.Type)?.init()

  /// Whether issues become test failures: `LoopTesting` is linked into this process.
  public static var recordsTestFailures: Bool { testReporter != nil }

  /// The test running in the current task, named uniquely (a parameterized test's case by its
  /// arguments), or `nil` outside a test.
  package static var currentTest: String? { testReporter?.currentTest }

  /// Creates the reporter.
  public init() {}

  /// Records a test failure, or prints the issue.
  ///
  /// - Parameters:
  ///   - message: The issue.
  ///   - location: Where it happened.
  public func reportIssue(_ message: String, at location: IssueLocation) {
    if let testReporter = Self.testReporter {
      testReporter.reportIssue(message, at: location)
    } else {
      StandardErrorReporter().reportIssue(message, at: location)
    }
  }

  /// Records a known issue in a test; ignored outside tests.
  ///
  /// - Parameters:
  ///   - message: The issue.
  ///   - location: Where it applies.
  public func reportKnownIssue(_ message: String, at location: IssueLocation) {
    Self.testReporter?.reportKnownIssue(message, at: location)
  }
}

/// The reporter `LoopTesting` provides, found by `DefaultIssueReporter` at run time.
package protocol TestingIssueReporter: IssueReporter {
  init()

  /// The test running in the current task, named uniquely, or `nil` outside a test.
  var currentTest: String? { get }
}

/// Prints issues to standard error as runtime warnings.
public struct StandardErrorReporter: IssueReporter {
  /// Creates the reporter.
  public init() {}

  /// Prints the issue to standard error.
  ///
  /// - Parameters:
  ///   - message: The issue.
  ///   - location: Where it happened.
  public func reportIssue(_ message: String, at location: IssueLocation) {
    FileHandle.standardError.write(Data("[Loop] runtime warning at \(location): \(message)\n".utf8))
  }
}

/// Collects reported issues in memory, so that tests can check them word for word.
///
/// ```swift
/// let issues = IssueCollector()
/// withIssueReporter(issues) { store.send(.row(.element(id: 9, action: .tapped))) }
/// #expect(issues.messages.first?.hasPrefix("A 'forEach' received") == true)
/// ```
public final class IssueCollector: IssueReporter {
  private let storage = Mutex<[(message: String, location: IssueLocation)]>([])
  private let known = Mutex<[String]>([])

  /// Creates an empty collector.
  public init() {}

  /// Records the issue.
  ///
  /// - Parameters:
  ///   - message: The issue.
  ///   - location: Where it happened.
  public func reportIssue(_ message: String, at location: IssueLocation) {
    storage.withLock { $0.append((message, location)) }
  }

  /// Records the known issue.
  ///
  /// - Parameters:
  ///   - message: The known issue.
  ///   - location: Where it applies.
  public func reportKnownIssue(_ message: String, at location: IssueLocation) {
    known.withLock { $0.append(message) }
  }

  /// The messages reported so far, in order.
  public var messages: [String] { storage.withLock { $0.map(\.message) } }

  /// The known issues reported so far, in order.
  public var knownIssues: [String] { known.withLock { $0 } }

  /// The locations of the issues reported so far, in order.
  public var locations: [IssueLocation] { storage.withLock { $0.map(\.location) } }
}
