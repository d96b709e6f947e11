import Foundation
import HabitClient
import Interchange
import LedgerClient
import LinkClient
import Loop
import TestSupport
import Testing

import struct LinkClient.Comment

@Suite struct LoopExportTests {
  static func sample() throws -> LoopExport {
    let dev = Category(id: Category.ID(UUID(counting: 0xC)), name: "Dev", createdAt: now)
    let link = Link(
      id: Link.ID(UUID(counting: 0xA)), title: "Swift", url: url("https://swift.org/?a=1&b=2"),
      categoryID: dev.id, isFavorite: true, createdAt: iso("2025-03-15T09:00:00.25Z"))
    let comment = Comment(
      id: Comment.ID(UUID(counting: 0xB)), linkID: link.id, text: "Read \"this\"",
      createdAt: now)
    let habit = try Habit(id: Habit.ID(UUID(counting: 0xD)), name: "Read", createdAt: now)
    let completion = Completion(
      habitID: habit.id, day: try #require(Day("2025-03-15")), createdAt: now)
    let lunch = LedgerTransaction(
      id: LedgerTransaction.ID(UUID(counting: 0xE)), kind: .expense,
      amount: Money(minorUnits: 1_250), date: now, memo: "Lunch", category: "Food",
      createdAt: now)
    return LoopExport(
      exportedAt: now, links: LinkArchive(categories: [dev], links: [link], comments: [comment]),
      habits: HabitArchive(habits: [habit], completions: [completion]), transactions: [lunch])
  }

  @Test func writesSortedPrettyJSONWithTheModelsOwnFieldNames() throws {
    let text = String(decoding: try Self.sample().encoded(), as: UTF8.self)
    #expect(
      text == """
        {
          "categories" : [
            {
              "createdAt" : "2025-03-15T09:00:00Z",
              "id" : "00000000-0000-0000-0000-00000000000C",
              "name" : "Dev"
            }
          ],
          "comments" : [
            {
              "createdAt" : "2025-03-15T09:00:00Z",
              "id" : "00000000-0000-0000-0000-00000000000B",
              "linkID" : "00000000-0000-0000-0000-00000000000A",
              "text" : "Read \\"this\\""
            }
          ],
          "completions" : [
            {
              "createdAt" : "2025-03-15T09:00:00Z",
              "day" : "2025-03-15",
              "habitID" : "00000000-0000-0000-0000-00000000000D"
            }
          ],
          "exportedAt" : "2025-03-15T09:00:00Z",
          "format" : "loop-export",
          "habits" : [
            {
              "createdAt" : "2025-03-15T09:00:00Z",
              "id" : "00000000-0000-0000-0000-00000000000D",
              "name" : "Read"
            }
          ],
          "links" : [
            {
              "categoryID" : "00000000-0000-0000-0000-00000000000C",
              "createdAt" : "2025-03-15T09:00:00.25Z",
              "id" : "00000000-0000-0000-0000-00000000000A",
              "isFavorite" : true,
              "title" : "Swift",
              "url" : "https://swift.org/?a=1&b=2"
            }
          ],
          "transactions" : [
            {
              "amount" : 1250,
              "category" : "Food",
              "createdAt" : "2025-03-15T09:00:00Z",
              "date" : "2025-03-15T09:00:00Z",
              "id" : "00000000-0000-0000-0000-00000000000E",
              "kind" : "expense",
              "memo" : "Lunch"
            }
          ],
          "version" : 1
        }

        """)
  }

  @Test func readsBackWhatItWrites() throws {
    let export = try Self.sample()
    let text = String(decoding: try export.encoded(), as: UTF8.self)
    #expect(try LoopExport.decode(text, file: "loop.json") == export)
  }

  @Test func aDomainsExportHasOnlyItsKeys() throws {
    let export = LoopExport(exportedAt: now, transactions: [])
    let text = String(decoding: try export.encoded(), as: UTF8.self)
    #expect(
      text == """
        {
          "exportedAt" : "2025-03-15T09:00:00Z",
          "format" : "loop-export",
          "transactions" : [

          ],
          "version" : 1
        }

        """)
    let decoded = try LoopExport.decode(text, file: "ledger.json")
    #expect(decoded.linkArchive == nil)
    #expect(decoded.habitArchive == nil)
    #expect(decoded.transactions == [])
  }

  static let rejections: [(String, InterchangeError)] = [
    (
      "{\n  \"format\" : \"loop-export\",\n  \"version\" : 1,\n  \"links\" : [\n    {\n",
      .truncated(
        file: "f.json", line: 5, reason: "the JSON stops before its objects and lists close")
    ),
    (
      "{\"format\": \"loop-ex",
      .truncated(
        file: "f.json", line: 1, reason: "the JSON stops before its objects and lists close")
    ),
    (
      "{ not json }",
      .notFormat(
        file: "f.json", format: .json,
        reason: "it is not a JSON object with \"format\": \"loop-export\"")
    ),
    (
      "[1, 2, 3]",
      .notFormat(
        file: "f.json", format: .json,
        reason: "it is not a JSON object with \"format\": \"loop-export\"")
    ),
    (
      "{\"format\": \"bookmarks\", \"version\": 1}",
      .notFormat(
        file: "f.json", format: .json, reason: "its \"format\" is 'bookmarks', not 'loop-export'")
    ),
    (
      "{\"format\": \"loop-export\", \"version\": 2}",
      .unsupportedVersion(file: "f.json", version: 2)
    ),
    (
      "{\"format\": \"loop-export\", \"version\": 1}",
      .invalidExport(file: "f.json", reason: "exportedAt is missing")
    ),
    (
      """
      {"format": "loop-export", "version": 1, "exportedAt": "2025-03-15T09:00:00Z",
       "links": [{"id": "00000000-0000-0000-0000-00000000000A", "title": "A",
                  "isFavorite": false, "createdAt": "2025-03-15"}]}
      """,
      .invalidExport(file: "f.json", reason: "links[0].url is missing")
    ),
    (
      """
      {"format": "loop-export", "version": 1, "exportedAt": "yesterday"}
      """,
      .invalidExport(file: "f.json", reason: "exportedAt 'yesterday' is not an ISO 8601 date")
    ),
    (
      """
      {"format": "loop-export", "version": 1, "exportedAt": "2025-03-15",
       "transactions": [{"id": "00000000-0000-0000-0000-00000000000E", "kind": "gift",
         "amount": 1, "date": "2025-03-15", "memo": "", "createdAt": "2025-03-15"}]}
      """,
      .invalidExport(
        file: "f.json",
        reason: "transactions[0].kind Cannot initialize Kind from invalid String value gift")
    ),
    (
      """
      {"format": "loop-export", "version": 1, "exportedAt": "2025-03-15",
       "habits": [{"id": "00000000-0000-0000-0000-00000000000D", "name": " ",
         "createdAt": "2025-03-15"}]}
      """,
      .invalidExport(file: "f.json", reason: "A habit needs a name: the name is empty")
    ),
  ]

  @Test(arguments: rejections)
  func aFileThatIsNotAValidLoopExportGetsOneClearError(_ text: String, _ error: InterchangeError) {
    #expect(throws: error) { try LoopExport.decode(text, file: "f.json") }
  }

  @Test func errorsAreSentences() {
    #expect(
      InterchangeError.unsupportedVersion(file: "f.json", version: 2).description
        == "'f.json' is a Loop export of version 2; this Loop reads version 1: update Loop to "
        + "import it.")
    #expect(
      InterchangeError.invalidExport(file: "f.json", reason: "links[0].url is missing")
        .description == "'f.json' is not a valid Loop export: links[0].url is missing.")
    #expect(
      InterchangeError.truncated(file: "f.json", line: 5, reason: "it stops").description
        == "'f.json' ends early: it stops (line 5). It may be cut short; export it again.")
  }
}
