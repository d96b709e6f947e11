import Foundation
import Persistence
import Testing

@Suite struct ContextTests {
  @Test(arguments: Backend.allCases)
  func insertThenFetchReturnsTheModel(_ backend: Backend) throws {
    let store = try Store(backend)
    let item = Item(
      id: 1, title: "Äpfel", note: "n", count: 3, score: 1.5, isDone: true, flag: false,
      date: date(10), dueDate: date(20), kind: .video,
      uuid: UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F") ?? UUID(),
      link: url("https://example.com/a?b=c"), data: Data([1, 2, 3]), big: .max)
    try store.context.insert(item)
    #expect(try store.context.fetchAll(Item.self) == [item])
    #expect(try store.context.fetch(Item.self, id: 1) == item)
    #expect(try store.context.fetch(Item.self, id: 2) == nil)
  }
}
