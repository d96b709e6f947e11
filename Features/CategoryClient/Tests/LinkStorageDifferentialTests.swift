import CategoryClient
import Foundation
import LinkClient
import Loop
import LoopTesting
import TestSupport
import Testing

import struct LinkClient.Comment

/// The interface's ``InMemoryLinkStorage`` answers every endpoint as the live client does: the
/// same generated calls, on the in-memory value and on containers, give the same answers, call
/// after call.
///
/// NB: the client suites run on every storage too; this test adds what they do not reach one by
/// one: folded names and titles beyond ASCII, ids sharing long prefixes, dates that tie, and
/// every list after every kind of write.
@Suite struct LinkStorageDifferentialTests {
  /// The storages compared with the in-memory value.
  static let references: [ClientStorage] = [.container(.inMemory), .container(.sqlite)]

  @Test(arguments: [1, 2, 3] as [UInt64])
  func theInMemoryValueAnswersEveryCallAsTheLiveClientDoes(seed: UInt64) async throws {
    var steps = Steps()
    try await requireSameAnswers(
      of: try Harness(.inMemoryValue), as: try Self.references.map(Harness.init), calls: 600,
      seed: seed
    ) { random, last in
      if let last { steps.learn(from: last) }
      return steps.next(&random)
    }
  }
}

/// The calls a generated sequence makes, drawn against what the earlier answers stored.
private struct Steps {
  var now = Date(timeIntervalSinceReferenceDate: 1_000)
  var linkIDs: [Link.ID] = []
  var commentIDs: [Comment.ID] = []
  var categoryIDs: [Category.ID] = []
  var cursor: LinkPage.Cursor?

  static let names = ["Work", "WORK", "Straße", "STRASSE", "Äpfel", "äpfel", " ", "Reading"]
  static let titles = ["Swift", "swift tips", "Straße", "Café", "CAFÉ menu", "Ünïcode", " "]
  static let addresses = [
    "https://a.example", "https://b.example/path", "http://c.example", "https://e.example",
    "ftp://d.example", "not a url",
  ]
  static let queries = ["", "swift", "STRASSE", "café", "é", " tips ", "x"]

  /// The next call, with arguments drawn from what is stored (or, now and then, missing).
  mutating func next(_ random: inout SplitMix64) -> GeneratedCall<Harness> {
    // NB: a tie in time now and then: the lists order ties by id.
    if Int.random(in: 0..<3, using: &random) == 0 {
      now += Double(Int.random(in: 1...90, using: &random))
    }
    // NB: ids share their first digits in three groups, so prefixes need several digits.
    var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &random) }
    bytes[0] = draw([0x11, 0x12, 0xA0], &random)
    bytes[1] = bytes[0] == 0xA0 ? 0 : bytes[1]
    let id = UUID(
      uuid: (
        bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
        bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
      ))
    let link = pick(linkIDs, or: Link.ID(id), &random)
    let comment = pick(commentIDs, or: Comment.ID(id), &random)
    let category = pick(categoryIDs, or: Category.ID(id), &random)
    let maybeCategory = Int.random(in: 0..<3, using: &random) == 0 ? category : nil
    let name = draw(Self.names, &random)
    let draft = LinkDraft(
      title: draw(Self.titles, &random),
      url: draw(Self.addresses, &random), categoryID: maybeCategory,
      memo: Bool.random(using: &random) ? "memo" : "")
    let limit = Int.random(in: 0...4, using: &random)
    let cursor = Bool.random(using: &random) ? self.cursor : nil
    let prefix = String(id.uuidString.prefix(Int.random(in: 1...4, using: &random)))
    let query = draw(Self.queries, &random)
    let now = self.now
    func call(
      _ name: String, _ body: @escaping @Sendable (Harness) async throws -> any Sendable
    ) -> GeneratedCall<Harness> {
      GeneratedCall(name, id: id, date: now, body)
    }
    let calls = [
      call("addCategory") { try await $0.categories.addCategory(name) },
      call("updateCategory") { try await $0.categories.updateCategory(category, name) },
      call("deleteCategory") { try await $0.categories.deleteCategory(category) },
      // NB: adding and viewing are drawn more often, so that lists grow and views tie.
      call("addLink") { try await $0.links.addLink(draft) },
      call("addLink") { try await $0.links.addLink(draft) },
      call("addLink") { try await $0.links.addLink(draft) },
      call("addLink") { try await $0.links.addLink(draft) },
      call("markViewed") { try await $0.links.markViewed(link) },
      call("updateLink") { try await $0.links.updateLink(link, draft) },
      call("deleteLink") { try await $0.links.deleteLink(link) },
      call("markViewed") { try await $0.links.markViewed(link) },
      call("setFavorite") { try await $0.links.setFavorite(link, true) },
      call("addComment") { try await $0.links.addComment(link, name) },
      call("updateComment") { try await $0.links.updateComment(comment, name) },
      call("deleteComment") { try await $0.links.deleteComment(comment) },
      call("fetchLinks") { try await $0.links.fetchLinks() },
      call("fetchLinksInCategory") { try await $0.links.fetchLinksInCategory(category) },
      call("fetchLinkPage") {
        try await $0.links.fetchLinkPage(maybeCategory, cursor, limit)
      },
      call("searchLinks") { try await $0.links.searchLinks(query) },
      call("fetchRecentLinks") { try await $0.links.fetchRecentLinks(limit) },
      call("fetchLinksWithIDPrefix") {
        try await $0.links.fetchLinksWithIDPrefix(prefix, limit)
      },
      call("fetchIDPrefixLength") { try await $0.links.fetchIDPrefixLength(link) },
      call("fetchIDPrefixLengthOfAll") { try await $0.links.fetchIDPrefixLengthOfAll() },
      call("fetchLink") { try await $0.links.fetchLink(link) },
      call("fetchComments") { try await $0.links.fetchComments(link) },
      call("fetchCategories") { try await $0.categories.fetchCategories() },
      call("fetchCategorySummaries") {
        try await $0.categories.fetchCategorySummaries()
      },
      call("countLinks") { try await $0.categories.countLinks(category) },
      call("exportLinks") { try await $0.links.exportLinks() },
    ]
    return draw(calls, &random)
  }

  /// Keeps the ids an answer stored, and the cursor of a page, for later calls.
  mutating func learn(from answer: Answer) {
    switch answer.value {
    case let link as Link where !linkIDs.contains(link.id): linkIDs.append(link.id)
    case let comment as Comment where !commentIDs.contains(comment.id):
      commentIDs.append(comment.id)
    case let category as Category where !categoryIDs.contains(category.id):
      categoryIDs.append(category.id)
    case let page as LinkPage: cursor = page.next
    default: break
    }
  }

  /// A stored id most of the time, else `missing`.
  private func pick<ID>(_ ids: [ID], or missing: ID, _ random: inout SplitMix64) -> ID {
    ids.isEmpty || Int.random(in: 0..<8, using: &random) == 0
      ? missing : draw(ids, &random)
  }
}

/// One of `values` (not empty), drawn from `random`.
private func draw<Value>(_ values: [Value], _ random: inout SplitMix64) -> Value {
  values[Int.random(in: 0..<values.count, using: &random)]
}
