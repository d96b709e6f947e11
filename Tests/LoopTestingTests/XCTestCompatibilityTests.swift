import Foundation
import LoopTesting
import XCTest

/// The test store works in XCTest too, where its failures go to `XCTFail`.
final class XCTestCompatibilityTests: XCTestCase {
  @MainActor
  func testACorrectStoryPassesUnderXCTest() async {
    let store = TestStore(initialState: Counter.State()) {
      Counter()
    } withDependencies: {
      $0.numberFact.fetch = { "\($0) under XCTest" }
    }
    await store.send(.incrementTapped) { $0.count = 1 }
    await store.send(.factButtonTapped) { $0.isLoading = true }
    await store.receive(.factResponse("1 under XCTest")) {
      $0.isLoading = false
      $0.fact = "1 under XCTest"
    }
    await store.finish()
  }

  /// The failure `XCTestRouteTests` looks for: it runs only in the child process that test
  /// starts (with `LOOP_XCTEST_DELIBERATE_FAILURE` set), and is skipped everywhere else.
  @MainActor
  func testADeliberateFailureGoesToXCTest() async throws {
    try XCTSkipUnless(
      ProcessInfo.processInfo.environment["LOOP_XCTEST_DELIBERATE_FAILURE"] == "1",
      "fails on purpose, in the child process of XCTestRouteTests only")
    let store = TestStore(initialState: Counter.State()) { Counter() }
    await store.send(.incrementTapped)
  }

  @MainActor
  func testFailuresAreCapturedTheSameWayUnderXCTest() async {
    let issues = IssueCollector()
    await withIssueReporter(issues) {
      let store = TestStore(initialState: Counter.State()) { Counter() }
      await store.send(.incrementTapped)
    }
    XCTAssertEqual(
      issues.messages.first?.hasPrefix(
        "State was not expected to change, but a change occurred."), true)
  }
}
