import LoopTesting
import Testing

@Suite struct TestFailureReporterTests {
  @Test func theCoreFindsLoopTestingInATestProcess() {
    #expect(DefaultIssueReporter.recordsTestFailures)
  }

  @Test func anUnimplementedEndpointFailsATestWithoutATestStore() async {
    let fetch: @Sendable () async throws -> Int = unimplemented("NumberFactClient.count")
    await withKnownIssue {
      _ = try? await fetch()
    } matching: { issue in
      issue.comments.map(\.rawValue).first?.hasPrefix(
        "Unimplemented: 'NumberFactClient.count' was called.") == true
    }
  }

  @Test func aReportedIssueIsRecordedAtItsLocation() {
    withKnownIssue {
      reportIssue("Something went wrong.", fileID: "Module/File.swift", line: 12, column: 3)
    } matching: { issue in
      issue.comments.map(\.rawValue) == ["Something went wrong."]
        && issue.sourceLocation?.line == 12 && issue.sourceLocation?.column == 3
    }
  }
}
