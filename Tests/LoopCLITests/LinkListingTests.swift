import Foundation
import LinkClient
import Loop
import Testing

@testable import LoopCLI

/// `link list` of more links than a page holds: printed a page at a time, every link once,
/// newest first, as text or as one JSON array; `--limit` and `--offset` window the rows across
/// pages. (The pages hold 1,000 links: these lists have 2,500.)
@MainActor
@Suite struct LinkListingTests {
  static let count = 2_500

  /// The transcript environment holding `count` links (`Page 0` to `Page 2499`), all added at
  /// the same instant, so the list orders them by id.
  func environment() async throws -> AppEnvironment {
    let environment = try transcriptEnvironment()
    let links = (0..<Self.count).map {
      ImportedLink(line: $0 + 2, title: "Page \($0)", url: "https://example.com/\($0)")
    }
    _ = try await withDependencies {
      environment.apply(to: &$0)
    } operation: {
      try await environment.linkClient.importLinks(links)
    }
    return environment
  }

  /// The links' titles as the list orders them: newest first, ties by id, the largest first.
  func titlesNewestFirst(_ environment: AppEnvironment) async throws -> [String] {
    try await environment.linkClient.fetchLinks().map(\.title)
  }

  /// The printed lines of the one command `script` runs.
  func lines(_ command: String, _ environment: AppEnvironment) async throws -> [String] {
    let result = try await transcript(command, environment: environment)
    #expect(result.status == 0)
    return result.transcript.split(separator: "\n").dropFirst().map(String.init)
  }

  @Test func aListOfSeveralPagesPrintsEveryLinkOnceNewestFirst() async throws {
    let environment = try await environment()
    let lines = try await lines("link list", environment)
    #expect(lines.first == "REF      ★  TITLE      CATEGORY")
    #expect(lines.count == Self.count + 1)
    let rows = lines.dropFirst()
    #expect(rows.map { String($0.dropFirst(12)) } == (try await titlesNewestFirst(environment)))
    let refs = rows.map { $0.prefix(7) }
    #expect(Set(refs).count == Self.count)
  }

  @Test func theRefsLengthIsAnsweredBeforeTheSecondPageIsAskedFor() async throws {
    let environment = try await environment()
    // NB: the 1,000th row is on the first page, the 1,001st on the second.
    let result = try await transcript(
      ":trace on\nlink list --offset 999 --limit 2", environment: environment)
    #expect(result.status == 0)
    let lines = result.transcript.split(separator: "\n").map(String.init)
    func firstLine(containing text: String) throws -> Int {
      try #require(lines.firstIndex { $0.contains(text) }, "no line contains '\(text)'")
    }
    let answered = try firstLine(containing: ".refLengthResponse(")
    #expect(try firstLine(containing: ".refLengthRequested(") < answered)
    #expect(answered < (try firstLine(containing: ".nextPageRequested")))
    #expect(lines.filter { $0.contains(".refLengthRequested(") }.count == 1)
  }

  @Test func aJSONListOfSeveralPagesIsOneArrayOfEveryLink() async throws {
    let environment = try await environment()
    let result = try await transcript("link list --format json", environment: environment)
    #expect(result.status == 0)
    let json = try #require(result.transcript.split(separator: "\n", maxSplits: 1).last)
    let rows = try JSONDecoder().decode([[String: JSONValue]].self, from: Data(json.utf8))
    #expect(rows.count == Self.count)
    #expect(rows.map { $0["title"]?.text } == (try await titlesNewestFirst(environment)))
  }

  @Test func limitAndOffsetWindowTheRowsAcrossPages() async throws {
    let environment = try await environment()
    let titles = try await titlesNewestFirst(environment)
    let text = try await lines("link list --offset 998 --limit 4", environment)
    #expect(text.dropFirst().map { String($0.dropFirst(12)) } == Array(titles[998..<1002]))
    let result = try await transcript(
      "link list --offset 2499 --format json", environment: environment)
    let json = try #require(result.transcript.split(separator: "\n", maxSplits: 1).last)
    let rows = try JSONDecoder().decode([[String: JSONValue]].self, from: Data(json.utf8))
    #expect(rows.map { $0["title"]?.text } == [titles[2499]])
    #expect(try await lines("link list --offset 2500", environment) == [])
    #expect(try await lines("link list --limit 0 --format json", environment) == ["[]"])
  }

  @Test(arguments: [
    (
      "link list --limit -1",
      "'-1' is not a number of rows: '--limit' takes a whole number, 0 or more"
    ),
    (
      "link list --offset x",
      "'x' is not a number of rows: '--offset' takes a whole number, 0 or more"
    ),
  ])
  func aWindowThatIsNotACountIsAUsageError(_ command: String, _ message: String) async throws {
    let result = try await transcript(command)
    #expect(result.status == 1)
    #expect(
      result.transcript == """
        > \(command)
        ! test:1: error: \(message)
        ! usage: link list [--category NAME] [--limit N] [--offset N] [--format text|json]

        """)
  }
}

/// A JSON value as a test reads it: only text is looked at.
enum JSONValue: Decodable {
  case text(String)
  case other

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if let text = try? container.decode(String.self) {
      self = .text(text)
    } else {
      self = .other
    }
  }

  /// The text, when the value is text.
  var text: String? {
    if case .text(let text) = self { return text }
    return nil
  }
}
