import Foundation
import Testing

/// Outside a Swift Testing `@Test`, a `TestStore`'s failures go to XCTest.
///
/// XCTest on Linux cannot record a failure in-process without failing this run, so this test runs
/// an XCTest case that fails on purpose (`testADeliberateFailureGoesToXCTest`) in a child process
/// of this test bundle, and reads what XCTest reported there.
@Suite struct XCTestRouteTests {
  static let fixture = "XCTestCompatibilityTests.swift"
  static let testName = "XCTestCompatibilityTests.testADeliberateFailureGoesToXCTest"

  /// The line of the fixture's failing `send`, read from its source.
  func lineOfTheFailingSend() throws -> Int {
    let source = try String(
      contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent(Self.fixture),
      encoding: .utf8)
    let lines = source.components(separatedBy: "\n")
    let start = try #require(lines.firstIndex { $0.contains("testADeliberateFailureGoesToXCTest") })
    let send = try #require(lines[start...].firstIndex { $0.contains("await store.send(") })
    return send + 1
  }

  @Test func aFailureInAnXCTestCaseIsReportedByXCTestAtTheLineOfTheStep() throws {
    let process = Process()
    process.executableURL = URL(
      fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
    process.arguments = [
      "LoopTestingTests.XCTestCompatibilityTests/testADeliberateFailureGoesToXCTest"
    ]
    var environment = ProcessInfo.processInfo.environment
    environment["LOOP_XCTEST_DELIBERATE_FAILURE"] = "1"
    process.environment = environment
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let text = String(
      decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()

    #expect(process.terminationStatus != 0)
    #expect(
      text.contains(
        "\(Self.fixture):\(try lineOfTheFailingSend()): error: \(Self.testName) : failed - "
          + "State was not expected to change, but a change occurred."),
      "XCTest printed:\n\(text)")
    #expect(text.contains("Executed 1 test, with 1 failure"))
  }
}
