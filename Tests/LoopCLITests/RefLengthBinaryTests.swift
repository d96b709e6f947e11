import Foundation
import LinkClient
import Loop
import LoopCLI
import Persistence
import Testing

/// The refs of `loop link list` on a file of thousands of links, whose length the file keeps
/// between runs: each run's refs are as long as the links stored then need, whatever another
/// process changed since.
@Suite struct RefLengthBinaryTests {
  @Test func aListingsRefsFollowWhatAnotherProcessWrites() throws {
    let folder = try TemporaryFolder()
    let db = folder.path("data.sqlite")
    let context = ModelContext(try ModelContainer(for: AppEnvironment.models, storage: .file(db)))
    // 4,096 links whose ids share at most 3 digits, one sharing 9 with the first of them, and
    // the newest link last.
    var ids = (1...4_096).map { String(format: "%08X", $0 * 0x0001_1000) + zeros(24) }
    ids.append(String(ids[0].prefix(9)) + "8" + zeros(22))
    let newest = "ABCDEF0123456789ABCDEF0123456789"
    ids.append(newest)
    try context.transaction { context in
      for (offset, id) in ids.enumerated() {
        try context.insert(try link(id, createdAt: Double(offset)))
      }
    }
    func firstRef() throws -> String {
      let run = try runLoop(
        ["--db", db, "link", "list", "--limit", "1"], dataHome: folder.url,
        environment: ["NO_COLOR": "1"])
      #expect(run.status == 0, "\(run.error)")
      let row = run.output.split(separator: "\n").dropFirst().first ?? ""
      return String(row.prefix { $0 != " " })
    }
    #expect(try firstRef() == "abcdef0123")
    #expect(try firstRef() == "abcdef0123")
    // Another process adds a link sharing 11 digits with the first.
    let close = try link(String(ids[0].prefix(11)) + "8" + zeros(20), createdAt: 0)
    try context.insert(close)
    #expect(try firstRef() == "abcdef012345")
    // It removes that one and the one sharing 9: every ref is as short as refs go.
    try context.delete(close)
    try context.delete(try link(ids[4_096], createdAt: 0))
    #expect(try firstRef() == "abcdef0")
  }
}

/// `count` zeros.
private func zeros(_ count: Int) -> String { String(repeating: "0", count: count) }

/// A link whose id has the 32 hexadecimal `digits`.
private func link(_ digits: String, createdAt seconds: Double) throws -> Link {
  var text = digits
  for offset in [8, 13, 18, 23] {
    text.insert("-", at: text.index(text.startIndex, offsetBy: offset))
  }
  return Link(
    id: Link.ID(try #require(UUID(uuidString: text))), title: "Link",
    url: try #require(URL(string: "https://example.com")),
    createdAt: Date(timeIntervalSinceReferenceDate: seconds))
}
